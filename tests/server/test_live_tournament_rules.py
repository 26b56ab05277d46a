"""A tournament's rules from outside, through a real server: its caps raced by concurrent
requests (players per tournament, tournaments per account), who may create, join and start
one (an account, its password, bots only where it is open to them, the creator), bot accounts
told of their tournament games on their event stream, and no-shows: a player who never moves
loses the game and is withdrawn after two."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import TimedServer, auth, running
from tests.server.test_live_botapi import bot_account
from tests.server.tournament_play import (
    START,
    STARTS_AT,
    account,
    create,
    join,
    read,
    resign,
    round_games,
    wait_for,
)

SWISS = {
    "name": "rules",
    "game": "testline",
    "clock": "5+3",
    "system": "swiss",
    "rounds": 3,
    "starts_at": STARTS_AT,
}


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[TimedServer]:
    with running(
        TimedServer(
            tmp_path,
            "--tournament-tick",
            "0.1",
            "--max-tournaments",
            "2",
            "--max-tournament-players",
            "5",
            "--tournament-no-show-seconds",
            "60",
            "--token-rate",
            "100000/minute",
        )
    ) as server:
        yield server


async def _posts(url: str, calls: list[tuple[str, str, Any]]) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
        return list(
            await asyncio.gather(
                *(c.post(path, json=body, headers=auth(token)) for path, token, body in calls)
            )
        )


def test_twenty_joins_at_once_fill_the_cap_exactly(hall: TimedServer) -> None:
    tid = create(hall, account(hall, "boss"), **SWISS)
    tokens = [hall.session(f"j{i}") for i in range(20)]
    answers = asyncio.run(
        _posts(hall.http, [(f"/api/tournaments/{tid}/join", t, None) for t in tokens])
    )
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] * 5 + [409] * 15, codes
    assert {r.json()["code"] for r in answers if r.status_code == 409} == {"tournament_full"}
    assert read(hall, tid)["players"] == 5


def test_ten_creations_at_once_stop_at_the_accounts_cap(hall: TimedServer) -> None:
    boss = account(hall, "boss")
    answers = asyncio.run(_posts(hall.http, [("/api/tournaments", boss, SWISS)] * 10))
    assert sorted(r.status_code for r in answers) == [201] * 2 + [429] * 8
    assert {r.json()["code"] for r in answers if r.status_code == 429} == {"too_many_tournaments"}
    listed = httpx.get(f"{hall.http}/api/tournaments").json()
    assert len(listed["upcoming"]) == 2 and listed["running"] == listed["finished"] == []


def test_who_may_create_join_and_start(hall: TimedServer) -> None:
    guest = hall.session("guest")
    r = httpx.post(f"{hall.http}/api/tournaments", json=SWISS, headers=auth(guest))
    assert (r.status_code, r.json()["code"]) == (403, "account_needed")
    boss = account(hall, "boss")
    for bad, code in (
        ({"clock": None}, "bad_tournament"),
        ({"game": "nope"}, "bad_game"),
        ({"seats": 3}, "bad_tournament"),
        ({"rounds": None}, "bad_tournament"),
        ({"starts_at": "soon"}, "bad_tournament"),
        ({"system": "arena", "minutes": None}, "bad_tournament"),
    ):
        r = httpx.post(f"{hall.http}/api/tournaments", json={**SWISS, **bad}, headers=auth(boss))
        assert (r.status_code, r.json()["code"]) == (400, code), (bad, r.text)
    tid = create(hall, boss, **SWISS, password="sesame")
    assert read(hall, tid)["private"] is True
    r = httpx.post(f"{hall.http}/api/tournaments/{tid}/join", headers=auth(guest))
    assert (r.status_code, r.json()["code"]) == (403, "wrong_password")
    r = httpx.post(
        f"{hall.http}/api/tournaments/{tid}/join", json={"password": "sesame"}, headers=auth(guest)
    )
    assert r.status_code == 200 and read(hall, tid, guest)["joined"] is True
    bot = bot_account(hall, "botty", ["testline"])
    r = httpx.post(
        f"{hall.http}/api/tournaments/{tid}/join", json={"password": "sesame"}, headers=auth(bot)
    )
    assert (r.status_code, r.json()["code"]) == (403, "no_bots")
    r = httpx.post(f"{hall.http}/api/tournaments/{tid}/start", headers=auth(guest))
    assert (r.status_code, r.json()["code"]) == (403, "not_creator")
    r = httpx.post(f"{hall.http}/api/tournaments/nothing/join", headers=auth(guest))
    assert (r.status_code, r.json()["code"]) == (404, "unknown_tournament")
    r = httpx.post(f"{hall.http}/api/tournaments/{tid}/withdraw", headers=auth(guest))
    assert r.status_code == 200 and read(hall, tid, guest)["joined"] is False


def test_a_bot_account_is_told_of_its_tournament_game_and_the_creator_starts_early(
    hall: TimedServer,
) -> None:
    boss = account(hall, "boss")
    tid = create(hall, boss, **{**SWISS, "bots": True})
    bot = bot_account(hall, "botty", ["testline"])
    join(hall, tid, bot)
    join(hall, tid, boss)
    events: list[dict[str, Any]] = []
    listening = threading.Event()

    def listen() -> None:
        with httpx.stream(
            "GET", f"{hall.http}/api/stream/event", headers=auth(bot), timeout=30
        ) as r:
            for line in r.iter_lines():
                listening.set()
                if line.strip():
                    events.append(json.loads(line))
                if any(e["type"] == "gameStart" for e in events):
                    return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert listening.wait(30)
    r = httpx.post(f"{hall.http}/api/tournaments/{tid}/start", headers=auth(boss))
    assert r.status_code == 200 and r.json()["status"] == "running"  # before its time
    (game,) = [g for g in round_games(hall, tid, 1) if not g["bye"]]
    thread.join(30)
    starts = [e for e in events if e["type"] == "gameStart"]
    assert starts and starts[0]["game"]["id"] == game["room"]
    assert starts[0]["game"]["rated"] is True


def test_a_player_who_never_moves_loses_and_is_withdrawn_after_two_no_shows(
    hall: TimedServer,
) -> None:
    boss = account(hall, "boss")
    tid = create(hall, boss, **SWISS)
    tokens = {f"n{i}": account(hall, f"n{i}") for i in range(1, 5)}
    for token in tokens.values():
        join(hall, tid, token)
    hall.at(START)
    now = START
    for r in (1, 2):
        for g in round_games(hall, tid, r):
            if "n1" not in g["players"]:
                resign(hall, tokens[max(g["players"])], g["room"])
            elif g["players"][0] != "n1":  # the opponent moves first: n1 is to move
                assert (
                    hall.act(
                        tokens[g["players"][0]], g["room"], "move", move="a1", version=0
                    ).status_code
                    == 200
                )
        now += 61
        hall.at(now)  # n1 has not moved for over a minute of a live game
        wait_for(
            lambda r=r: all(g["status"] == "done" for g in round_games(hall, tid, r)),
            f"round {r} over",
        )
    standing = {s["player"]: s for s in read(hall, tid)["standings"]}
    assert standing["n1"]["no_shows"] == 2 and standing["n1"]["withdrawn"] is True
    assert standing["n1"]["points"] == 0 and standing["n1"]["games"] == 2
    third = round_games(hall, tid, 3)
    assert all("n1" not in g["players"] for g in third)
