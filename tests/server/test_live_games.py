"""The real games through a real server: every registered game plays to the end; two people play
Hula; a person plays Halali! against a bot with a spectator watching; many Halali! games never
show anyone a face-down tile.

A game that is not installed is skipped with a reason that names it (pytest -ra lists it).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from typing import Any

import pytest

from gamehall.ai import bot_kinds
from gamehall.core import GameRecord, State, list_games, load_game
from tests.server.live import Client, Message, Server, play_random, seat_and_start

REAL_GAMES = [g for g in list_games() if not g.startswith("test")]


def need(game: str) -> None:
    if game not in list_games():
        pytest.skip(f"{game} is not installed (not on main yet)")


async def seated_clients(server: Server, game: str, options: dict[str, Any],
                         prefix: str) -> tuple[str, dict[int, Client]]:
    n = len(load_game(game, **options).seat_names)
    tokens = [server.session(f"{prefix}{i}") for i in range(n)]
    room = server.create_room(tokens[0], game, **options)
    clients: dict[int, Client] = {}
    for i, t in enumerate(tokens):
        c = await Client.open(server, room, t, f"{prefix}{i}")
        await c.send({"type": "join"})
        st = await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
        clients[st["seat"]] = c
    await clients[0].send({"type": "start"})
    for c in clients.values():
        await c.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    return room, clients


def replay_states(record: Message) -> list[State]:
    """The position after each prefix of the record's actions (index = version)."""
    state = load_game(record["game"], **record["options"]).new_initial_state(None)
    states = [state.clone()]
    for entry in record["actions"]:
        state.apply_action(entry["action"])
        states.append(state.clone())
    return states


def assert_views_are_public(clients: list[Client], record: Message) -> int:
    """Every state message any client got equals the game's own view of the *public* history up
    to that version, for the receiving seat. So no message depends on anything but moves already
    played: not the seed, not a future chance outcome. Returns the number of messages checked."""
    states = replay_states(record)
    game = load_game(record["game"], **record["options"])
    a, b = game.new_initial_state(1), game.new_initial_state(2)
    for seat in [None, *range(game.num_players)]:
        assert a.view(seat) == b.view(seat), "the starting position depends on the seed"
    checked = 0
    for c in clients:
        for m in c.messages:
            if m["type"] != "state" or m["status"] == "waiting":
                continue
            want = json.loads(json.dumps(states[m["version"]].view(m["seat"])))
            assert m["view"] == want, f"{c.name}: view at version {m['version']} differs"
            checked += 1
    return checked


@pytest.mark.parametrize("game", REAL_GAMES or ["(none installed)"])
def test_every_installed_game_plays_through_the_hall(server: Server, game: str) -> None:
    """Random moves to the end, or (games whose random play runs long, like Hotu Matua's
    thousands of actions) a resignation after 150 moves."""
    need(game)

    async def scenario() -> None:
        room, clients = await seated_clients(server, game, {}, f"g{game[:10]}")
        final = await play_random(clients, random.Random(7), max_moves=150, resign=True)
        assert final["status"] == "finished" and final["result"] is not None
        rec = server.record(room)
        assert [a["move"] for a in rec["actions"]] == [m["move"] for m in final["moves"]]
        replayed = GameRecord.from_dict(rec).replay()  # verifies the result if rules ended it
        assert replayed.is_terminal() == (final["ended_by"] == "rules")
        assert assert_views_are_public(list(clients.values()), rec) > 0
        for c in clients.values():
            await c.close()

    asyncio.run(scenario())


def test_two_people_play_a_whole_hula_game(server: Server) -> None:
    need("hula")

    async def scenario() -> None:
        room, clients = await seated_clients(server, "hula", {}, "hulaperson")
        assert clients[0].state is not None and clients[0].state["legal_moves"]
        played: list[str] = []
        final = await play_random(clients, random.Random(21),
                                  on_move=lambda _s, m: played.append(m))
        assert final["status"] == "finished" and final["ended_by"] == "rules"
        assert [m["move"] for m in final["moves"]] == played, "no chance in Hula"
        assert sorted(final["result"]) == [-1.0, 1.0], "Hula has no draws"
        other = clients[1 - final["seat"]] if final["seat"] in (0, 1) else clients[1]
        assert (await other.state_at(final["version"]))["moves"] == final["moves"]
        for c in clients.values():
            await c.close()

    asyncio.run(scenario())


def test_a_person_plays_halali_against_a_bot_while_someone_watches(server: Server) -> None:
    need("halali")
    level = "mcts:4" if "mcts" in bot_kinds() else "random"  # a small MCTS keeps it quick

    async def scenario() -> None:
        token = server.session("hunter")
        room = server.create_room(token, "halali")
        me = await Client.open(server, room, token, "hunter")
        watcher = await Client.open(server, room, None, "watcher")
        await me.command("/join")  # first to join plays the humans (seat 0)
        st = await me.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
        assert st["seat"] == 0 and st["seats"][0]["name"].lower() == "humans"
        await me.command(f"/bot {level}")
        await me.wait(lambda m: m["type"] == "state" and m["seats"][1]["bot"] is not None)
        await me.command("/start")
        await me.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        final = await play_random({0: me}, random.Random(5), max_moves=5000)
        assert final["status"] == "finished"
        assert any(m["seat"] == 1 for m in final["moves"]), "the bot moved"
        assert any(m["seat"] is None for m in final["moves"]), "the server drew the flips"
        seen = await watcher.state_at(final["version"], 60)
        assert seen["seat"] is None and seen["moves"] == final["moves"]
        assert seen["legal_moves"] == []
        rec = server.record(room)
        assert assert_views_are_public([me, watcher], rec) > 0
        await me.close()
        await watcher.close()

    asyncio.run(scenario())


def face_down_squares(view: Message) -> set[str]:
    """Squares a Halali! view shows face down (the JSON form marks them ``?``)."""
    board = view.get("board")
    out: set[str] = set()
    if isinstance(board, dict):
        out = {sq for sq, v in board.items() if v == "?"}
    elif isinstance(board, list):
        for r, row in enumerate(board):
            cells = row.split() if isinstance(row, str) else row
            out |= {f"{r}:{c}" for c, v in enumerate(cells) if v == "?"}
    return out


def test_many_halali_games_never_show_a_face_down_tile(server: Server) -> None:
    """Players and a spectator in several concurrent games; every message to anyone is checked."""
    need("halali")
    games = 4

    async def one(i: int) -> tuple[str, list[Client]]:
        room, clients = await seated_clients(server, "halali", {}, f"leak{i}p")
        watcher = await Client.open(server, room, None, f"leak{i}w")
        await play_random(clients, random.Random(100 + i), max_moves=5000)
        everyone = [*clients.values(), watcher]
        last = everyone[0].state
        assert last is not None
        await watcher.state_at(last["version"], 60)
        for c in everyone:
            await c.send({"type": "ping", "id": "done"})
            await c.wait(lambda m: m.get("id") == "done", 30)
            await c.close()
        return room, everyone

    async def scenario() -> list[tuple[str, list[Client]]]:
        return await asyncio.gather(*(one(i) for i in range(games)))

    results = asyncio.run(scenario())
    db = server.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(db) as conn:
        seeds = {r: str(s) for r, s in conn.execute("SELECT id, seed FROM rooms")}
    total = 0
    for room, clients in results:
        rec = server.record(room)
        assert rec["seed"] is None
        total += assert_views_are_public(clients, rec)
        states = replay_states(rec)
        for c in clients:
            for m in c.messages:
                text = json.dumps(m)
                assert seeds[room] not in text, "the secret seed reached a client"
                if m["type"] != "state" or m["status"] == "waiting":
                    continue
                state = states[m["version"]]
                public = json.loads(json.dumps(state.to_json()))
                assert face_down_squares(m["view"]) == face_down_squares(public)
                assert len(face_down_squares(m["view"])) == m["view"].get("face_down", 0)
    assert total > games * 100


def test_hau_la_for_three_set_by_option_plays_through_the_hall(server: Server) -> None:
    """/option players=3 before the start gives the table a third seat; three people play."""
    need("hau_la")

    async def scenario() -> None:
        tokens = [server.session(f"hl3p{i}") for i in range(3)]
        room = server.create_room(tokens[0], "hau_la")
        clients = [await Client.open(server, room, t, f"hl3p{i}") for i, t in enumerate(tokens)]
        await clients[0].command("/option players=3")
        st = await clients[0].wait(lambda m: m["type"] == "state" and len(m["seats"]) == 3)
        assert st["options"]["players"] == 3
        await seat_and_start(clients, starter=2)
        by_seat = {c.state["seat"]: c for c in clients if c.state is not None}
        final = await play_random(by_seat, random.Random(4), max_moves=60, resign=True)
        assert final["status"] == "finished" and len(final["result"]) == 3
        assert abs(sum(final["result"]) - 1.0) < 1e-9, "Hau La shares one point"
        rec = server.record(room)
        assert assert_views_are_public(clients, rec) > 0
        for c in clients:
            await c.close()

    asyncio.run(scenario())
