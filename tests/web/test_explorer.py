"""The opening explorer on a game's rules page: a table of the moves played from a position in
finished games, a click goes one deeper, the breadcrumb goes back."""

from __future__ import annotations

import itertools
import time

from playwright.sync_api import expect

from tests.web.conftest import HallProcess, Pages
from tests.web.test_replay_api import _call

_players = itertools.count(1)


def finished_game(hall: HallProcess, first: int) -> str:
    """A finished 7-cell Hula game (a start no other test plays): a person's move `first`, the
    bot's reply, then the person resigns. Returns the notation of the person's move."""
    _, me = _call(hall, "/api/session", {"nickname": f"explorer{next(_players)}"})
    token = me["token"]
    _, room = _call(hall, "/api/rooms", {"game": "hula", "options": {"size": 7}}, token)
    rid = room["id"]
    for kind, body in (("join", {"seat": 0}), ("bot", {"level": "random", "seat": 1}),
                       ("start", {})):
        status, answer = _call(hall, f"/api/rooms/{rid}/{kind}", body, token)
        assert status == 200, answer
    move = answer["state"]["legal_moves"][first]
    _call(hall, f"/api/rooms/{rid}/move", {"move": move, "version": 0}, token)
    while _call(hall, f"/api/rooms/{rid}", token=token)[1]["version"] < 2:
        time.sleep(0.05)  # the bot's reply
    assert _call(hall, f"/api/rooms/{rid}/resign", {}, token)[0] == 200
    return str(move)


def test_the_explorer_shows_the_moves_played_and_goes_deeper(pages: Pages) -> None:
    moves = [finished_game(pages.hall, 3), finished_game(pages.hall, 3),
             finished_game(pages.hall, 5)]
    page = pages.new()
    page.goto(pages.hall.url + "#/rules/hula")
    explorer = page.get_by_test_id("explorer")
    expect(explorer).to_be_visible()
    explorer.locator("[name=size]").select_option("7")
    rows = explorer.locator(".explorer-move")
    expect(rows).to_have_count(2)
    top = rows.first
    expect(top).to_have_attribute("data-move", moves[0])
    expect(top.locator("td").nth(1)).to_have_text("2")
    expect(top.get_by_test_id("wdl")).to_have_attribute("aria-label", "0 won, 0 drawn, 2 lost")
    top.click()  # one deeper: the bot's replies to it
    crumbs = page.get_by_test_id("explorer-crumbs")
    expect(crumbs).to_contain_text(f"Start › {moves[0]}")
    expect(page.get_by_test_id("explorer-summary")).to_contain_text("2 games")
    expect(rows.first).to_be_visible()
    assert sum(int(r.locator("td").nth(1).inner_text()) for r in rows.all()) == 2
    crumbs.locator("[data-depth='0']").click()  # back to the start
    expect(crumbs).to_have_text("Start")
    expect(rows).to_have_count(2)
