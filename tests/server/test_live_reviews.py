"""Reviews in a real hall: refused while the game is played (HTTP, and not offered over the
WebSocket), run in the background once it is over, stored (progress, result, accuracy in the
archive and the profile) and served again after a restart. Tiny budgets keep them fast: the
operator's default level here is 4 simulations a position, and the ceiling 50."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live import Client, Server, auth, seat_and_start, until


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("reviews")
    server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                    "--burst", "5000", "--review-level", "4", "--review-max-simulations", "50",
                    "--review-per-player", "3")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _ask(server: Server, token: str | None, room: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/rooms/{room}/review", json=body, headers=auth(token))


def _read(server: Server, room: str, **params: str) -> httpx.Response:
    return httpx.get(f"{server.http}/api/rooms/{room}/review", params=params)


async def _finished_game(server: Server, names: tuple[str, str]) -> tuple[str, str, dict[str, Any]]:
    """A game of Hula that two people play a few moves of, asking for a review on the way
    (refused), then one resigns: (room, first player's token, the last state)."""
    ann, bob = (server.session(n) for n in names)
    room = server.create_room(ann, "hula")
    a, b = await Client.open(server, room, ann), await Client.open(server, room, bob)
    await seat_and_start([a, b])
    for _ in range(4):
        st = a.state
        assert st is not None
        mover = (a, b)[st["to_move"]]
        mine = await mover.state_at(st["version"])
        await mover.send({"type": "move", "move": mine["legal_moves"][0],
                          "version": st["version"]})
        await a.state_at(st["version"] + 1)
    early = _ask(server, ann, room)
    assert early.status_code == 409 and early.json()["code"] == "game_in_progress", early.text
    await a.send({"type": "review"})  # not a room's message: nothing the WebSocket offers
    refused = await a.error()
    assert refused["code"] == "unknown_type"
    assert _read(server, room).status_code == 404
    await a.send({"type": "resign"})
    end = await a.wait(lambda m: m["type"] == "state" and m["status"] == "finished")
    await a.close()
    await b.close()
    return room, ann, end


def _done(server: Server, room: str, **params: str) -> dict[str, Any]:
    seen: list[dict[str, Any]] = []

    def finished() -> bool:
        r = _read(server, room, **params)
        assert r.status_code == 200, r.text
        seen.append(r.json())
        assert seen[-1]["status"] in ("queued", "running", "done"), seen[-1]
        return bool(seen[-1]["status"] == "done")

    asyncio.run(until(finished, "the review never finished", polls=400))
    return seen[-1]


def test_a_finished_game_is_reviewed_stored_and_served_after_a_restart(
        review_server: Server) -> None:
    server = review_server
    room, ann, end = asyncio.run(_finished_game(server, ("revann", "revbob")))
    assert _ask(server, None, room).json()["code"] == "not_identified"
    bad = _ask(server, ann, room, level="51")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_level", bad.text
    assert _ask(server, ann, room, level="2s").json()["code"] == "bad_level"
    job = _ask(server, ann, room)
    assert job.status_code == 200, job.text
    assert job.json()["level"] == "4" and job.json()["simulations"] == 4
    done = _done(server, room)
    review = done["review"]
    assert review["format"] == "gamehall-review/1" and review["simulations"] == 4
    assert [s["move"] for s in review["steps"]] == [m["move"] for m in end["moves"]]
    assert done["done"] == done["total"] == len(end["moves"])
    assert len(done["accuracy"]) == 2 and review["accuracy"] == done["accuracy"]
    chosen = [s for s in review["steps"] if s["kind"] == "move"]
    assert chosen and all(s["best"] and s["best_parts"]["move"] == s["best"] for s in chosen)
    again = _ask(server, ann, room).json()  # one review per (room, level): the stored one
    assert again["status"] == "done" and again["created_at"] == done["created_at"]
    line = next(g for g in httpx.get(f"{server.http}/api/archive").json()["games"]
                if g["room"] == room)
    assert line["accuracy"] == done["accuracy"]
    mine = httpx.get(f"{server.http}/api/players/revann").json()["recent"]
    assert next(g for g in mine if g["room"] == room)["accuracy"] == done["accuracy"]
    reviews = httpx.get(f"{server.http}/api/health").json()["reviews"]
    assert reviews["run"] >= 1
    server.stop()
    server.start()
    after = _read(server, room, level="4")
    assert after.status_code == 200 and after.json() == done


def test_each_level_is_its_own_review(review_server: Server) -> None:
    server = review_server
    room, ann, _ = asyncio.run(_finished_game(server, ("lvlann", "lvlbob")))

    async def watched() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        """Ask with a watcher connected: it hears the review go (every node's watchers do)."""
        watcher = await Client.open(server, room, None)
        four = _ask(server, ann, room).json()
        three = _ask(server, ann, room, level="03").json()
        await watcher.wait(lambda m: m["type"] == "review" and m["level"] == "3"
                           and m["status"] == "done", timeout=60)
        told = [m for m in watcher.messages if m["type"] == "review"]
        await watcher.close()
        return four, three, told

    four, three, told = asyncio.run(watched())
    assert (four["level"], three["level"]) == ("4", "3")
    running = [m for m in told if m["status"] == "running" and m["level"] == "3"]
    assert running and running[-1]["done"] == running[-1]["total"]
    assert _done(server, room, level="3")["review"]["simulations"] == 3
    assert _done(server, room, level="4")["review"]["simulations"] == 4


def test_a_review_cut_short_by_a_crash_is_taken_up_again(review_server: Server) -> None:
    """Killed (-9) just after the request, whatever the review had done by then: the restarted
    hall takes the job up at start and finishes it; it is never left waiting or running."""
    server = review_server
    room, ann, _ = asyncio.run(_finished_game(server, ("crashann", "crashbob")))
    assert _ask(server, ann, room, level="50").status_code == 200
    server.kill9()
    server.start()
    done = _done(server, room, level="50")
    assert done["review"]["simulations"] == 50 and done["error"] is None
