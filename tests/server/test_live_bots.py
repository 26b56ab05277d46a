"""Bots within limits against a real server: budgets past the operator's ceiling are refused, a
bot job is cut off at its deadline, and rooms with greedy bots cannot starve another room's bot."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.server.live import Client, Server


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Two bot workers; a bot may think one second a move."""
    tmp = tmp_path_factory.mktemp("bots")
    server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                    "--burst", "5000", "--bot-workers", "2", "--bot-max-seconds", "1",
                    "--bot-max-simulations", "5000")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_bot_budgets_past_the_operators_limits_are_refused(bot_server: Server) -> None:
    server = bot_server
    ann = server.session("budgetann")
    room = server.create_room(ann, "testline")
    for level in ("mcts:100000000000", "mcts:5001", "mcts:50s", "mcts:1.5s", "hard"):
        r = server.act(ann, room, "bot", level=level)
        assert r.status_code == 400 and r.json()["code"] == "bad_bot", (level, r.text)
        assert "at most" in r.json()["message"]
    for level in ("mcts:5000", "mcts:0.5s", "easy", "random"):
        r = server.act(ann, room, "bot", level=level, seat="o")
        assert r.status_code == 200, (level, r.text)
    state = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert state["seats"][1]["bot"] == "random"


def test_greedy_bots_in_two_rooms_cannot_starve_a_third_rooms_bot(bot_server: Server) -> None:
    """`testthink:1000` spins the CPU for 1000 s a move (a plug-in bot: the server cannot see its
    budget). Two all-bot rooms of them take both workers; a third room's bot still moves, and the
    greedy games go on, each job cut off at its deadline."""
    server = bot_server

    async def scenario() -> None:
        ann = server.session("greedyann")
        hogs = []
        for _ in range(2):
            room = server.create_room(ann, "testline", size=4)
            for seat in ("x", "o"):
                assert server.act(ann, room, "bot", level="testthink:1000", seat=seat) \
                    .status_code == 200
            assert server.act(ann, room, "start").status_code == 200
            hogs.append(room)
        watchers = [await Client.open(server, room, None, f"hog{i}")
                    for i, room in enumerate(hogs)]
        bob = server.session("patientbob")
        room = server.create_room(bob, "testline")
        b = await Client.open(server, room, bob, "bob")
        await b.command("/join x")
        await b.command("/bot testthink:0.05 o")
        await b.wait(lambda m: m["type"] == "state" and m["seats"][1]["bot"] is not None)
        await b.command("/start")
        await b.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        for turn in range(2):  # bob moves, the bot answers, twice
            st = await b.state_at(2 * turn)
            await b.send({"type": "move", "move": st["legal_moves"][0], "version": 2 * turn})
            answered = await b.state_at(2 * turn + 2, 60)
            assert answered["moves"][2 * turn + 1]["seat"] == 1, "the bot moved"
        for w in watchers:  # the greedy games go on: their jobs were cut off
            await w.state_at(1, 60)
        health = httpx.get(f"{server.http}/api/health").json()
        assert health["bot_jobs"]["timeouts"] >= 2
        assert health["bot_jobs"]["worker_restarts"] >= 2
        for c in (b, *watchers):
            await c.close()

    asyncio.run(scenario())
