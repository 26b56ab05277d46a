"""The page against a cluster (deploy/topology.py: three nodes behind nginx): the node that owns
the game and the node the page's WebSocket reached are killed with kill -9 in the middle of a
game against a bot; the page reconnects by itself, through nginx, to the node left, and the game
goes on from exactly where it was (the bot, whose owner died, plays on too). And the bot API's
page path across nodes: a person's page, through nginx, challenges the real `gamehall bot`
whose streams are on one node, and plays the game it accepted to the end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from deploy.topology import Topology
from tests.cluster.helpers import NODE_ENV, wait_for
from tests.server.postgres import pg_bin, postgres_cluster
from tests.web.helpers import create_room, enter, say, state, wait_my_turn, wait_version_above
from tests.web.test_botpage import (
    _bot,
    _challenge_from_profile,
    _protect,
    play_to_the_end,
    running_bot,
)
from tests.web.test_hall import _click_legal_cell


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    for exe in ("redis-server", "nginx"):
        if not any(Path(d, exe).exists() for d in ("/usr/bin", "/usr/sbin")):
            pytest.skip(f"{exe} is not installed (.ci/run installs it)")
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (.ci/run installs it)")
    with postgres_cluster() as url:
        topo = Topology(url, 3, folder=tmp_path_factory.mktemp("cluster-page"),
                        env={**NODE_ENV, "GAMEHALL_PLUGIN": "tests.web.halali_setup"})
        topo.start()
        try:
            yield topo
        finally:
            topo.stop()


@contextmanager
def _page(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """A page in a context of its own, and the script errors it met (closed after)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page, errors
    finally:
        context.close()


def _health(node: object) -> dict[str, object]:
    return dict(httpx.get(f"{node.http}/api/health", timeout=10).json())  # type: ignore[attr-defined]


def test_the_page_reconnects_to_another_node_and_plays_on(browser: Browser,
                                                           cluster: Topology) -> None:
    try:
        with _page(browser) as (page, errors):
            page.goto(cluster.http + "/")
            enter(page, "cpage")
            room = create_room(page, "hula", size=5)
            say(page, "/bot random")
            expect(page.locator(".seat .occupant", has_text="bot")).to_have_count(1)
            page.click("[data-action=start]")
            for turn in range(2):
                st = wait_my_turn(page)
                _click_legal_cell(page, turn)
                wait_version_above(page, st["version"])
            before = wait_my_turn(page)
            owner = next(n for n in cluster.nodes if room in _health(n)["cluster"]["rooms_owned"])  # type: ignore[index]
            socket_on = next(n for n in cluster.nodes if _health(n)["connections"])
            doomed = {owner.name: owner, socket_on.name: socket_on}
            page.evaluate("window.__beforeKill = window.gamehall.room.state")
            for node in doomed.values():
                node.kill9()
            # the page may not have heard of the lost link yet (still "online", the state of
            # before): wait for a state sent after the kill, on the new link, before reading one
            page.wait_for_function("() => window.gamehall.room.state !== window.__beforeKill",
                                   timeout=30000)
            expect(page.get_by_test_id("connection")).to_have_text("online", timeout=30000)
            left = [n for n in cluster.nodes if n.alive()]
            # one node killed (the owner was the socket's) or two: either way a node left owns it
            wait_for(lambda: any(room in _health(n)["cluster"]["rooms_owned"]  # type: ignore[operator]
                                 for n in left), 30)
            again = wait_my_turn(page)
            assert again["version"] == before["version"]
            assert [m["move"] for m in again["moves"]] == [m["move"] for m in before["moves"]]
            _click_legal_cell(page, 3)
            after = wait_version_above(page, again["version"] + 1, 30000)  # the bot answered too
            assert after["moves"][again["version"] + 1]["seat"] != state(page)["seat"]
            assert not errors, errors
    finally:
        for node in cluster.nodes:
            if not node.alive():
                node.start()
        cluster.wait_formed()


def test_a_page_through_nginx_challenges_a_bot_streaming_from_one_node_and_plays_on(
        browser: Browser, cluster: Topology, tmp_path: Path) -> None:
    one = cluster.nodes[0]
    if not one.alive():
        one.start()
    token = _bot(f"{one.http}/", "nodeengine", ["hula"])
    with _page(browser) as (page, errors):
        with running_bot(f"{one.http}/", token, tmp_path / "bot.log"):
            page.goto(cluster.http + "/")
            _protect(page, enter(page, "cchal"))
            _challenge_from_profile(page, "nodeengine", size=5)
            page.wait_for_url("**/#/room/*", timeout=30000)
            play_to_the_end(page, "hula")
        assert state(page)["ended_by"] == "rules"
        assert not errors, errors
