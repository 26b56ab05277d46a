"""The hall against a real server: seats, commands, views, moves, bots, identity, HTTP twins."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from typing import Any

import httpx

from tests.server.live import Client, Server, play_random


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


_n = 0


def nick(base: str) -> str:
    global _n
    _n += 1
    return f"{base}{_n}"


def test_games_endpoint_lists_seats_and_typed_options(server: Server) -> None:
    games = {g["name"]: g for g in httpx.get(f"{server.http}/api/games").json()}
    line = games["testline"]
    assert line["seats"] == ["x", "o"]
    size = next(o for o in line["options"] if o["name"] == "size")
    assert (size["type"], size["default"], size["min"], size["max"]) == ("int", 3, 3, 4)
    assert games["testrace"]["has_chance"] is True
    assert httpx.get(f"{server.http}/openapi.json").json()["paths"]["/api/rooms"]


def test_identity_by_cookie_and_header_never_the_url(server: Server) -> None:
    name = nick("ida")
    r = httpx.post(f"{server.http}/api/session", json={"nickname": name})
    token = r.json()["token"]
    assert r.cookies["gamehall_token"] == token
    base = f"{server.http}/api/session"
    me = {"nickname": name, "account": False}
    assert httpx.get(base, cookies={"gamehall_token": token}).json() == me
    assert httpx.get(base, headers={"X-Gamehall-Token": token}).json() == me
    assert httpx.get(base, params={"token": token}).status_code == 401
    assert httpx.get(base, headers={"X-Gamehall-Token": "nope"}).status_code == 401
    again = httpx.post(f"{server.http}/api/session", json={"nickname": name.upper()})
    assert again.status_code == 409 and again.json()["code"] == "nickname_taken"
    bad = httpx.post(f"{server.http}/api/session", json={"nickname": "<script>"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_nickname"
    anon = httpx.post(f"{server.http}/api/rooms", json={"game": "testline"})
    assert anon.status_code == 401 and anon.json()["code"] == "not_identified"


def test_two_people_play_a_whole_game_with_chat_commands(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = server.session(nick("ann")), server.session(nick("bob"))
        room = server.create_room(ann, "testline")
        a = await Client.open(server, room, ann, "ann")
        b = await Client.open(server, room, bob, "bob")
        await a.command("/join")  # first come, first seated: seat 0
        await a.state_at(0)
        await a.wait(lambda m: m["type"] == "state" and m["seats"][0]["player"] is not None)
        await b.command("/join")
        st = await b.wait(lambda m: m["type"] == "state" and m["seats"][1]["player"] is not None)
        assert [s["name"] for s in st["seats"]] == ["x", "o"]
        assert st["seat"] == 1 and st["status"] == "waiting"
        await b.command("/start")
        st = await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        assert st["seat"] == 0 and st["to_move"] == 0 and len(st["legal_moves"]) == 9
        st_b = await b.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        assert st_b["legal_moves"] == [], "legal moves only go to the seat to move"
        played: list[str] = []
        final = await play_random({0: a, 1: b}, random.Random(3),
                                  on_move=lambda _s, m: played.append(m))
        assert final["status"] == "finished" and final["ended_by"] == "rules"
        assert [m["move"] for m in final["moves"]] == played
        assert final["result"] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        rec = server.record(room)
        assert [a["move"] for a in rec["actions"]] == played and rec["seed"] is None
        assert rec["players"] == [st["seats"][0]["player"], st["seats"][1]["player"]]
        await a.close()
        await b.close()

    run(scenario())


def test_stale_illegal_and_foreign_moves_change_nothing(server: Server) -> None:
    async def scenario() -> None:
        ann, bob, eve = (server.session(nick(n)) for n in ("ann", "bob", "eve"))
        room = server.create_room(ann, "testline")
        a, b, e = [await Client.open(server, room, t) for t in (ann, bob, eve)]
        await a.send({"type": "join", "seat": "x"})
        await a.wait(lambda m: m["type"] == "state" and m["seat"] == 0)
        await b.send({"type": "join", "seat": 1})
        await b.wait(lambda m: m["type"] == "state" and m["seat"] == 1)
        await b.send({"type": "move", "move": "a1", "version": 0})
        assert (await b.error())["code"] == "not_started"
        await a.send({"type": "start"})
        await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        cases = [
            (b, {"type": "move", "move": "a1", "version": 0, "id": 7}, "not_your_turn"),
            (e, {"type": "move", "move": "a1", "version": 0}, "not_seated"),
            (a, {"type": "move", "move": "z9", "version": 0}, "illegal_move"),
            (a, {"type": "move", "move": "a1", "version": 5}, "stale_version"),
            (e, {"type": "join", "seat": "x"}, "seat_taken"),
            (e, {"type": "resign"}, "not_seated"),
            (e, {"type": "leave", "seat": "x"}, "not_your_seat"),
            (a, {"type": "option", "key": "size", "value": 4}, "already_started"),
            (e, {"type": "option", "key": "size", "value": 4}, "not_seated"),
            (e, {"type": "bot", "level": "random"}, "not_seated"),
            (e, {"type": "start"}, "not_seated"),
        ]
        for client, msg, code in cases:
            await client.send(msg)
            err = await client.error()
            assert err["code"] == code, (msg, err)
            assert err["message"] and err.get("id") == msg.get("id")
        await a.send({"type": "move", "move": "B2", "version": 0})
        st = await e.state_at(1)
        assert [m["move"] for m in st["moves"]] == ["b2"] and st["version"] == 1
        await a.send({"type": "move", "move": "a1", "version": 0})
        assert (await a.error())["code"] in ("stale_version", "not_your_turn")
        http = httpx.get(f"{server.http}/api/rooms/{room}").json()
        assert http["version"] == 1 and http["seat"] is None
        for c in (a, b, e):
            await c.close()

    run(scenario())


def test_views_are_per_seat_and_spectators_get_the_spectator_view(server: Server) -> None:
    async def scenario() -> None:
        ann, bob, sue = (server.session(nick(n)) for n in ("ann", "bob", "sue"))
        room = server.create_room(ann, "testrace", goal=8)
        a, b = await Client.open(server, room, ann), await Client.open(server, room, bob)
        watcher = await Client.open(server, room, None)
        sue_c = await Client.open(server, room, sue)
        await a.command("/join red")
        await a.wait(lambda m: m["type"] == "state" and m["seat"] == 0)
        await b.command("/join 2")
        await b.wait(lambda m: m["type"] == "state" and m["seat"] == 1)
        await a.command("/start")
        sa = await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        sb = await b.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        assert sa["view"]["secret"] != sb["view"]["secret"]
        final = await play_random({0: a, 1: b}, random.Random(5))
        await watcher.state_at(final["version"])
        await sue_c.state_at(final["version"])
        secrets = {str(sa["view"]["secret"]), str(sb["view"]["secret"])}
        for c, own in ((a, sa), (b, sb), (watcher, None), (sue_c, None)):
            for m in c.messages:
                text = str(m)
                for s in secrets:
                    if own is None or str(own["view"]["secret"]) != s:
                        assert s not in text, f"{s} leaked to {c.name}: {m}"
        spect = watcher.state
        assert spect is not None and spect["seat"] is None and "secret" not in spect["view"]
        chance = [m for m in final["moves"] if m["seat"] is None]
        rolls = [i for i, m in enumerate(final["moves"]) if m["move"] == "roll"]
        assert chance and len(chance) == len(rolls)
        assert all(final["moves"][i + 1]["seat"] is None for i in rolls), \
            "the server resolves each chance node right after the roll"
        for c in (a, b, watcher, sue_c):
            await c.close()

    run(scenario())


def test_a_person_plays_a_bot_and_bots_can_fill_a_room(server: Server) -> None:
    async def scenario() -> None:
        ann = server.session(nick("ann"))
        room = server.create_room(ann, "testrace", goal=10)
        a = await Client.open(server, room, ann)
        await a.command("/bot random blue")
        await a.wait(lambda m: m["type"] == "state" and m["seats"][1]["bot"] == "random")
        await a.command("/join")
        await a.wait(lambda m: m["type"] == "state" and m["seat"] == 0)
        await a.command("/start")
        await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        final = await play_random({0: a}, random.Random(1))
        assert final["status"] == "finished"
        assert any(m["seat"] == 1 for m in final["moves"]), "the bot played"

        room2 = server.create_room(ann, "testline", size=4)
        w = await Client.open(server, room2, ann)
        await w.command("/bot random")
        await w.command("/bot random")
        await w.wait(lambda m: m["type"] == "state" and all(s["bot"] for s in m["seats"]))
        await w.command("/start")
        done = await w.wait(lambda m: m["type"] == "state" and m["status"] == "finished", 30)
        assert done["moves"] and done["seat"] is None
        await a.close()
        await w.close()

    run(scenario())


def test_reconnecting_mid_game_gives_the_current_view(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = server.session(nick("ann")), server.session(nick("bob"))
        room = server.create_room(ann, "testrace")
        a, b = await Client.open(server, room, ann), await Client.open(server, room, bob)
        for c in (a, b):
            await c.command("/join")
            await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
        await a.command("/start")
        await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        await a.send({"type": "move", "move": "roll", "version": 0})
        st = await a.state_at(2)
        secret = st["view"]["secret"]
        await a.close()
        b_state = await b.wait(lambda m: m["type"] == "state" and not m["seats"][0]["connected"])
        await b.send({"type": "move", "move": "hold", "version": b_state["version"]})
        await b.state_at(3)
        again = await Client.open(server, room, ann)
        cur = again.state
        assert cur is not None and cur["version"] == 3 and cur["seat"] == 0
        assert cur["to_move"] == 0 and cur["legal_moves"] == ["roll", "hold"]
        assert cur["view"]["secret"] == secret
        assert [m["move"] for m in cur["moves"]][2:] == ["hold"]
        first_moves_from = [m["moves_from"] for m in again.messages if m["type"] == "state"]
        assert first_moves_from[0] == 0, "a new connection gets the whole move list"
        await again.send({"type": "move", "move": "hold", "version": 3})
        later = await again.state_at(4)
        assert later["moves_from"] == 3, "later states carry only the new moves"
        await again.send({"type": "sync"})
        synced = await again.wait(lambda m: m["type"] == "state" and m["moves_from"] == 0)
        assert synced["version"] == 4 and len(synced["moves"]) == 4
        await b.close()

    run(scenario())


def test_options_seats_who_help_resign_and_chat(server: Server) -> None:
    async def scenario() -> None:
        ann, bob, cat = (server.session(nick(n)) for n in ("ann", "bob", "cat"))
        room = server.create_room(ann, "testtrio")
        a, b, c = [await Client.open(server, room, t) for t in (ann, bob, cat)]
        await a.command("/option size=4")
        assert (await a.error())["code"] == "bad_option"
        await a.command("/join south")
        await b.command("/join")  # Bob's join is done before Cat's: two connections' messages
        await b.wait(lambda m: m["type"] == "state" and m["seat"] is not None)  # have no order
        await c.command("/join")
        st = await a.wait(lambda m: m["type"] == "state" and all(s["player"] for s in m["seats"]))
        order = [s["player"] for s in st["seats"]]
        assert order[2].startswith("ann") and order[0].startswith("bob")
        await a.command("/who")
        who = await a.wait(lambda m: m["type"] == "info" and "north" in m["text"])
        assert "(online)" in who["text"]
        await a.command("/help")
        assert "/join" in (await a.wait(lambda m: m["type"] == "info" and "/bot" in m["text"]))[
            "text"]
        await a.send({"type": "chat", "text": "good luck, all"})
        got = await b.wait(lambda m: m["type"] == "chat")
        assert got["text"] == "good luck, all" and got["from"] == order[2]
        await b.command("/start")
        await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        await c.command("/resign")
        st = await a.wait(lambda m: m["type"] == "state" and m["status"] == "finished")
        assert st["ended_by"] == "resign" and st["result"] == [0.5, 0.0, 0.5]
        assert f"{order[1]} resigned" in st["outcome"]
        await a.command("/join")
        assert (await a.error())["code"] == "game_over"
        late = await Client.open(server, room, None)  # chat history comes with the welcome
        assert any(m["type"] == "chat" and m["text"] == "good luck, all" for m in late.messages)
        for x in (a, b, c, late):
            await x.close()

    run(scenario())


def test_every_command_has_an_http_twin(server: Server) -> None:
    ann, bob = server.session(nick("ann")), server.session(nick("bob"))
    room = server.create_room(ann, "testline")
    assert server.act(ann, room, "option", key="misere", value=True).json()["state"]["options"][
        "misere"] is True
    assert server.act(ann, room, "bot", level="random", seat="o").status_code == 200
    assert server.act(ann, room, "leave", seat=1).json()["state"]["seats"][1]["player"] is None
    assert server.act(ann, room, "join").json()["state"]["seat"] == 0
    assert server.act(ann, room, "spectate").json()["state"]["seat"] is None
    assert server.act(ann, room, "join", seat="o").json()["state"]["seat"] == 1
    assert server.act(bob, room, "join").json()["state"]["seat"] == 0
    who = server.act(bob, room, "who").json()["replies"][0]["text"]
    assert "x: bob" in who
    assert "/start" in server.act(None, room, "help").json()["replies"][0]["text"]
    r = server.act(None, room, "join")
    assert r.status_code == 401 and r.json()["code"] == "not_identified"
    st = server.act(bob, room, "start").json()["state"]
    assert st["status"] == "playing" and st["legal_moves"]
    st = server.act(bob, room, "move", move="b2", version=0).json()["state"]
    assert st["moves"] == [{"seat": 0, "move": "b2", "turn": 1}]
    r = server.act(bob, room, "move", move="c3", version=1)
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    r = server.act(bob, room, "move", move="c3")
    assert r.status_code == 400 and r.json()["code"] == "bad_message"
    r = server.act(bob, room, "frobnicate")
    assert r.status_code == 400 and r.json()["code"] == "unknown_type"
    assert server.act(ann, room, "chat", text="/resign").json()["state"]["status"] == "finished"
    lobby = httpx.get(f"{server.http}/api/rooms", params={"status": "finished"}).json()
    assert any(r["id"] == room for r in lobby)
    assert httpx.get(f"{server.http}/api/rooms/nope").status_code == 404


def test_thinking_bots_run_in_worker_processes_and_never_freeze_the_hall(server: Server) -> None:
    """The test bot spins the CPU for 1.5 s a move; pings meanwhile must come back quickly."""

    async def scenario() -> None:
        ann = server.session(nick("ann"))
        room = server.create_room(ann, "testline")
        a = await Client.open(server, room, ann)
        await a.command("/join x")
        await a.command("/bot testthink o")
        await a.wait(lambda m: m["type"] == "state" and m["seats"][1]["bot"] == "testthink")
        await a.command("/start")
        await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        await a.send({"type": "move", "move": "b2", "version": 0})
        await a.state_at(1)
        loop = asyncio.get_running_loop()
        rtts = []
        for i in range(8):
            t0 = loop.time()
            await a.send({"type": "ping", "id": f"p{i}"})
            await a.wait(lambda m, i=i: m.get("id") == f"p{i}")  # type: ignore[misc]
            rtts.append(loop.time() - t0)
            await asyncio.sleep(0.1)
        st = await a.state_at(2, 30)
        assert st["moves"][1]["seat"] == 1, "the bot moved"
        assert max(rtts) < 1.0, f"the hall froze while the bot thought: {rtts}"
        await a.close()

    run(scenario())


def test_a_visitor_cannot_flood_the_lobby_with_waiting_rooms(server: Server) -> None:
    token = server.session(nick("flood"))
    for _ in range(10):
        server.create_room(token, "testline")
    r = httpx.post(f"{server.http}/api/rooms", json={"game": "testline"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 409 and r.json()["code"] == "too_many_rooms"
    bad = httpx.post(f"{server.http}/api/rooms", json={"game": "chess"},
                     headers={"Authorization": f"Bearer {server.session(nick('c'))}"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_game"
    lobby = httpx.get(f"{server.http}/api/rooms", params={"status": "waiting", "limit": 500})
    assert sum(1 for r in lobby.json() if r["created_by"].startswith("flood")) == 10


def test_the_waiting_room_limit_holds_under_concurrent_requests(server: Server) -> None:
    """40 room creations at once by one visitor: exactly the limit (10) are created."""
    token = server.session(nick("racer"))

    async def scenario() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.http, timeout=60,
                                     headers={"Authorization": f"Bearer {token}"}) as http:
            return list(await asyncio.gather(*(http.post("/api/rooms", json={"game": "testline"})
                                               for _ in range(40))))

    answers = run(scenario())
    assert sum(r.status_code == 201 for r in answers) == 10, [r.status_code for r in answers]
    assert all(r.json()["code"] == "too_many_rooms" for r in answers if r.status_code != 201)
    lobby = httpx.get(f"{server.http}/api/rooms", params={"status": "waiting", "limit": 500})
    assert sum(1 for r in lobby.json() if r["created_by"].startswith("racer")) == 10
