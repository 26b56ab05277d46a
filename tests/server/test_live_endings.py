"""Games that end, against a real server: a 0.1+0 game running out of time, a running clock across
kill -9 and a restart, an absent player claimed against, a seat out of time in a game of three,
and a rematch between two people. Where the test must move time, the server reads a time the
test sets (tests/server/fake_time.py); nothing here asserts how long anything took."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.fake_time import set_time
from tests.server.live import Client, Message, Server, TimedServer, running


@pytest.fixture()
def timed(tmp_path: Path) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path, "--absent-seconds", "60")) as server:
        yield server


def state(server: Server, room: str, token: str | None = None) -> Message:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.http}/api/rooms/{room}", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def seated_room(server: Server, game: str, clock: str | None, names: list[str],
                **options: Any) -> tuple[str, list[str]]:
    """A started room with these people seated in order (HTTP)."""
    tokens = [server.session(n) for n in names]
    room = server.create_room(tokens[0], game, clock, **options)
    for t in tokens:
        assert server.act(t, room, "join").status_code == 200
    assert server.act(tokens[0], room, "start").status_code == 200
    return room, tokens


def finished(m: Message) -> bool:
    return m["type"] == "state" and m["status"] == "finished"


def test_a_0_1_plus_0_game_runs_out_of_time(server: Server) -> None:
    """Real time: bob never answers, and six seconds later the game is his loss on time."""
    async def scenario() -> None:
        room, (ann, bob) = seated_room(server, "testline", "0.1+0", ["tann", "tbob"])
        a = await Client.open(server, room, ann)
        assert a.state is not None and a.state["clock"]["control"] == "0.1+0"
        assert a.state["clock"]["running"] == 0
        lobby = httpx.get(f"{server.http}/api/rooms").json()
        assert next(r for r in lobby if r["id"] == room)["clock"]["control"] == "0.1+0"
        await a.send({"type": "move", "move": "b2", "version": 0})
        moved = await a.state_at(1)
        assert moved["clock"]["running"] == 1 and moved["clock"]["remaining_ms"][1] <= 6000
        end = await a.wait(finished, 60)
        assert end["ended_by"] == "time" and end["result"] == [1.0, -1.0]
        assert end["outcome"] == "tbob ran out of time: tann wins"
        assert end["clock"]["remaining_ms"][1] == 0 and end["clock"]["running"] is None
        late = server.act(bob, room, "move", move="a1", version=1)
        assert late.status_code == 409 and late.json()["code"] == "game_over"
        assert server.record(room)["ended_by"] == "time"
        await a.close()

    asyncio.run(scenario())


def test_a_running_clock_survives_kill_9_and_the_downtime_costs_nothing(
        timed: TimedServer) -> None:
    room, (ann, bob) = seated_room(timed, "testline", "1+0", ["kann", "kbob"])
    timed.at(1010.0)
    assert timed.act(ann, room, "move", move="b2", version=0).status_code == 200
    timed.at(1030.0)  # bob has thought for 20 s, and the hall has stored that it ran until now
    before = state(timed, room)["clock"]
    assert before["remaining_ms"] == [50_000, 40_000] and before["running"] == 1
    timed.kill9()
    set_time(timed.time_file, 5000.0)  # an hour of downtime
    timed.start()
    timed.at(5000.0)
    after = state(timed, room)
    assert after["status"] == "playing" and after["clock"] == before, \
        "the downtime cost bob nothing"
    timed.at(5039.5)
    assert state(timed, room)["status"] == "playing"

    async def flag() -> Message:
        a = await Client.open(timed, room, ann)
        set_time(timed.time_file, 5040.0)  # bob's 40 s are up
        end = await a.wait(finished, 30)
        await a.close()
        return end

    end = asyncio.run(flag())
    assert end["ended_by"] == "time" and end["result"] == [1.0, -1.0]
    assert end["clock"]["remaining_ms"] == [50_000, 0]


def test_an_absent_player_is_claimed_against(timed: TimedServer) -> None:
    async def scenario() -> None:
        room, (ann, bob) = seated_room(timed, "testline", None, ["aann", "abob"])
        a = await Client.open(timed, room, ann)
        b = await Client.open(timed, room, bob)
        await a.send({"type": "move", "move": "b2", "version": 0})
        left = await b.state_at(1)
        timed.at(1010.0)
        await b.close()
        away = await a.wait(lambda m: m["type"] == "state" and m["absent"] is not None)
        assert away["absent"] == {"seat": 1, "player": "abob", "claim_in_ms": 60_000}
        timed.at(1030.0)
        await a.command("/claim")
        err = await a.error()
        assert err["code"] == "not_absent" and "claim in 40 s" in err["message"]
        b = await Client.open(timed, room, bob)  # back in time: everything as he left it
        assert b.state is not None and b.state["absent"] is None
        assert (b.state["version"], b.state["moves"], b.state["legal_moves"]) == (
            left["version"], left["moves"], left["legal_moves"])
        timed.at(1050.0)
        await b.close()
        await a.wait(lambda m: m["type"] == "state" and m["absent"] is not None
                     and m["absent"]["claim_in_ms"] == 60_000)
        set_time(timed.time_file, 1110.0)  # the hall publishes the moment he may be claimed
        await a.wait(lambda m: m["type"] == "state" and m["absent"] is not None
                     and m["absent"]["claim_in_ms"] == 0)
        await a.send({"type": "claim"})
        end = await a.wait(finished)
        assert end["ended_by"] == "claim" and end["result"] == [1.0, -1.0]
        assert end["outcome"] == "abob was away too long: aann wins"
        await a.close()

        timed_room, (cat, dan) = seated_room(timed, "testline", "5+0", ["acat", "adan"])
        r = timed.act(dan, timed_room, "claim")
        assert r.status_code == 409 and r.json()["code"] == "clock_decides"

    asyncio.run(scenario())


def test_a_connected_player_who_says_nothing_is_never_claimed_against(
        timed: TimedServer) -> None:
    """Bob's WebSocket is open and silent (a person thinking) long past the absence allowance:
    he is not absent, so neither a claim nor a bot for his seat is allowed, by HTTP or
    WebSocket, whichever of his connections came first."""
    async def scenario() -> None:
        room, (ann, bob) = seated_room(timed, "testline", None, ["sann", "sbob"])
        b = await Client.open(timed, room, bob)
        a = await Client.open(timed, room, ann)
        assert timed.act(ann, room, "move", move="b2", version=0).status_code == 200
        await b.state_at(1)
        for t in (1000.0 + 61, 1000.0 + 600):
            timed.at(t)
            st = state(timed, room, ann)
            assert st["absent"] is None and st["seats"][1]["connected"], st
            claim = timed.act(ann, room, "claim")
            assert claim.status_code == 409 and claim.json()["code"] == "not_absent"
            await a.send({"type": "claim", "id": f"c{t}"})
            err = await a.error()
            assert err["code"] == "not_absent"
            bot = timed.act(ann, room, "bot", level="random", seat="o")
            assert bot.status_code == 409, bot.text
        assert state(timed, room, ann)["status"] == "playing"
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_an_absent_seat_handed_to_a_bot_plays_on(timed: TimedServer) -> None:
    async def scenario() -> None:
        room, (ann, bob) = seated_room(timed, "testline", None, ["bann", "bbob"])
        timed.at(1000.0)
        assert timed.act(ann, room, "move", move="b2", version=0).status_code == 200
        early = timed.act(ann, room, "bot", level="random")
        assert early.status_code == 409 and early.json()["code"] == "not_absent"
        assert "you may claim in 60 s" in early.json()["message"]
        here = timed.act(bob, room, "bot", level="random", seat="x")
        assert here.status_code == 409 and here.json()["code"] == "seat_taken"
        a = await Client.open(timed, room, ann)
        timed.at(1061.0)  # bob never connected: 60 s from the start of his turn
        await a.wait(lambda m: m["type"] == "state" and m["absent"] is not None
                     and m["absent"]["claim_in_ms"] == 0)
        await a.command("/bot random")
        st = await a.wait(lambda m: m["type"] == "state" and m["version"] >= 2)
        assert st["seats"][1]["bot"] == "random" and st["status"] in ("playing", "finished")
        gone = timed.act(bob, room, "move", move="a1", version=st["version"])
        assert gone.status_code == 403 and gone.json()["code"] == "not_seated"
        await a.close()

    asyncio.run(scenario())


def test_in_a_game_of_three_a_seat_out_of_time_is_played_by_a_bot(timed: TimedServer) -> None:
    async def scenario() -> None:
        room, (n, e, s) = seated_room(timed, "testtrio", "0.1+0", ["onorth", "oeast", "osouth"])
        north = await Client.open(timed, room, n)
        await north.send({"type": "move", "move": "3", "version": 0})
        await north.state_at(1)
        set_time(timed.time_file, 1006.0)  # east's six seconds are up: a bot plays east
        st = await north.wait(lambda m: m["type"] == "state" and m["version"] >= 2)
        assert st["status"] == "playing" and st["seats"][1]["out"] == "time"
        assert st["to_move"] == 2 and st["clock"]["running"] == 2
        late = timed.act(e, room, "move", move="1", version=st["version"])
        assert late.status_code == 409 and late.json()["code"] == "out_of_game"
        set_time(timed.time_file, 1012.0)  # south's too: north is the last one in
        end = await north.wait(finished)
        assert end["ended_by"] == "time" and end["result"] == [1.0, 0.0, 0.0]
        assert end["outcome"] == "osouth ran out of time: onorth wins"
        await north.close()

    asyncio.run(scenario())


def test_a_rematch_between_two_people(server: Server) -> None:
    async def scenario() -> None:
        room, (ann, bob) = seated_room(server, "testline", "0.5+0", ["rann", "rbob"],
                                       misere=True)
        a = await Client.open(server, room, ann)
        b = await Client.open(server, room, bob)
        await b.send({"type": "leave"})  # leaving a running game is resigning
        end = await a.wait(finished)
        assert end["ended_by"] == "resign" and end["seats"][1]["player"] == "rbob"
        watcher = server.session("rwatch")
        r = server.act(watcher, room, "rematch")
        assert r.status_code == 403 and r.json()["code"] == "not_seated"
        await a.send({"type": "rematch"})
        asked = await b.wait(lambda m: m["type"] == "state" and m["seats"][0]["rematch"])
        assert asked["rematch"] is None and not asked["seats"][1]["rematch"]
        await b.command("/rematch")
        linked = await a.wait(lambda m: m["type"] == "state" and m["rematch"] is not None)
        new = linked["rematch"]
        again = state(server, new, bob)
        assert again["rematch_of"] == room and again["status"] == "playing"
        assert [x["player"] for x in again["seats"]] == ["rbob", "rann"], "seats moved on"
        assert again["options"]["misere"] is True and again["clock"]["control"] == "0.5+0"
        assert again["seat"] == 0 and again["legal_moves"]
        first = state(server, room)
        assert first["rematch"] == new and again["rated"] == first["rated"]
        r = server.act(ann, room, "rematch")
        assert r.status_code == 409 and r.json()["code"] == "rematch_started"
        assert server.act(bob, new, "move", move="a1", version=0).status_code == 200
        for c in (a, b):
            await c.close()

    asyncio.run(scenario())
