"""Open challenges (seeks) through a real `gamehall serve` (issue 44): posted and accepted over
HTTP with session tokens, by a bot account with its ``bot:play`` token (its event stream shows
the ``gameStart``), a table of three filled seat by seat, a standing seek that opens again after
its game, ranges and refusals, and caps and races held against concurrent requests."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import Server, TimedServer, auth, running
from tests.server.test_live_botapi import CHEAP_HASHES, bot_account, wait_for

_names = itertools.count()
SEEK = {"game": "hula", "options": {"size": 5}, "clock": "10+5", "rated": False}


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("seeks")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                        "--burst", "5000", "--token-rate", "100000/minute",
                        "--max-seeks", "3", "--pairing-per-address", "1000",
                        "--pairing-rate", "1000/minute",
                        "--pairing-address-rate", "100000/minute", *CHEAP_HASHES)) as server:
        yield server


def guest(server: Server) -> str:
    return server.session(f"seeker{next(_names)}")


def post(server: Server, token: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/seeks", json={**SEEK, **body}, headers=auth(token))


def accept(server: Server, token: str, seek: str) -> httpx.Response:
    return httpx.post(f"{server.http}/api/seeks/{seek}/accept", headers=auth(token))


def listed(server: Server) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in httpx.get(f"{server.http}/api/seeks").json()["seeks"]}


def room_of(server: Server, room: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.http}/api/rooms/{room}").json())


def test_a_seek_is_listed_accepted_and_its_room_started(hall: Server) -> None:
    ann, bob = guest(hall), guest(hall)
    made = post(hall, ann)
    assert made.status_code == 201, made.text
    seek = made.json()["id"]
    assert listed(hall)[seek]["status"] == "open" and listed(hall)[seek]["seats"] == 2
    own = accept(hall, ann, seek)
    assert own.status_code == 409 and own.json()["code"] == "own_seek"
    took = accept(hall, bob, seek)
    assert took.status_code == 200, took.text
    room = room_of(hall, took.json()["room"])
    assert room["status"] == "playing" and room["clock"]["control"] == "10+5"
    assert seek not in listed(hall)
    late = accept(hall, guest(hall), seek)
    assert late.status_code == 409 and late.json()["code"] == "seek_closed"


def test_a_bot_account_accepts_with_its_token_and_hears_game_start(hall: Server) -> None:
    token = bot_account(hall, f"seekbot{next(_names)}", ["hula"])
    events: list[dict[str, Any]] = []
    listening = threading.Event()

    def read() -> None:
        with httpx.stream("GET", f"{hall.http}/api/stream/event", headers=auth(token),
                          timeout=60) as r:
            for line in r.iter_lines():
                listening.set()
                if line.strip():
                    events.append(json.loads(line))
                    if events[-1]["type"] == "gameStart":
                        return

    threading.Thread(target=read, daemon=True).start()
    assert listening.wait(30)
    seek = post(hall, guest(hall)).json()["id"]
    took = accept(hall, token, seek)
    assert took.status_code == 200, took.text
    wait_for(lambda: any(e["type"] == "gameStart" for e in events), "no gameStart")
    start = next(e for e in events if e["type"] == "gameStart")
    assert start["game"]["id"] == took.json()["room"]
    # and it may post one of its own with the same token
    mine = post(hall, token)
    assert mine.status_code == 201, mine.text


def test_a_table_of_three_fills_seat_by_seat(hall: Server) -> None:
    ann, bob, cat = guest(hall), guest(hall), guest(hall)
    made = post(hall, ann, game="hau_la", options={}, seats=3)
    assert made.status_code == 201, made.text
    assert made.json()["options"]["players"] == 3
    seek = made.json()["id"]
    first = accept(hall, bob, seek)
    assert first.status_code == 200 and first.json()["room"] is None
    assert len(listed(hall)[seek]["takers"]) == 1
    twice = accept(hall, bob, seek)
    assert twice.status_code == 409 and twice.json()["code"] == "own_seek"
    last = accept(hall, cat, seek)
    assert last.status_code == 200 and last.json()["room"], last.text
    room = room_of(hall, last.json()["room"])
    assert room["status"] == "playing" and len(room["seats"]) == 3


def test_a_standing_seek_opens_again_after_its_game(hall: Server) -> None:
    ann, bob = guest(hall), guest(hall)
    seek = post(hall, ann, repeat=1).json()["id"]
    room = accept(hall, bob, seek).json()["room"]
    assert seek not in listed(hall)
    assert hall.act(bob, room, "resign").status_code == 200
    wait_for(lambda: seek in listed(hall), "the seek did not open again")
    assert listed(hall)[seek]["repeat"] == 0
    again = accept(hall, bob, seek).json()["room"]
    assert hall.act(ann, again, "resign").status_code == 200
    assert seek not in listed(hall)  # no re-issue left


def test_ranges_and_refusals(hall: Server) -> None:
    ann = guest(hall)
    ranged = post(hall, ann, rating_range=[1600, 2000])
    assert ranged.status_code == 201
    out = accept(hall, guest(hall), ranged.json()["id"])  # a newcomer is rated 1500
    assert out.status_code == 403 and out.json()["code"] == "out_of_range"
    assert "1500" in out.json()["message"]
    bad = post(hall, ann, game="chess")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_game"
    seats = post(hall, ann, seats=3)
    assert seats.status_code == 400 and seats.json()["code"] == "bad_seats"
    theirs = httpx.delete(f"{hall.http}/api/seeks/{ranged.json()['id']}",
                          headers=auth(guest(hall)))
    assert theirs.status_code == 403 and theirs.json()["code"] == "not_your_seek"
    gone = httpx.delete(f"{hall.http}/api/seeks/{ranged.json()['id']}", headers=auth(ann))
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    nobody = accept(hall, guest(hall), "nosuchseek")
    assert nobody.status_code == 404 and nobody.json()["code"] == "unknown_seek"
    stranger = httpx.post(f"{hall.http}/api/seeks", json=SEEK)
    assert stranger.status_code == 401


def _race(server: Server, calls: list[tuple[str, str, str, Any]]) -> list[httpx.Response]:
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.http, timeout=30) as c:
            return await asyncio.gather(*[
                c.request(method, url, headers=auth(token), json=body)
                for method, url, token, body in calls])
    return asyncio.run(race())


def test_concurrent_posts_stop_at_the_players_cap(hall: Server) -> None:
    ann = guest(hall)
    answers = _race(hall, [("POST", "/api/seeks", ann, SEEK)] * 12)
    codes = sorted(r.status_code for r in answers)
    assert codes == [201] * 3 + [429] * 9, codes
    assert {r.json()["code"] for r in answers if r.status_code == 429} == {"too_many_seeks"}


def test_concurrent_accepts_of_one_seek_make_one_room(hall: Server) -> None:
    seek = post(hall, guest(hall)).json()["id"]
    takers = [guest(hall) for _ in range(10)]
    answers = _race(hall, [("POST", f"/api/seeks/{seek}/accept", t, None) for t in takers])
    won = [r for r in answers if r.status_code == 200]
    assert len(won) == 1, [r.text for r in answers]
    assert {r.json()["code"] for r in answers if r.status_code != 200} <= {"seek_taken",
                                                                             "seek_closed"}


@pytest.fixture()
def one_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("seeks-bot-cap")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log",
                        "--token-rate", "100000/minute", "--max-bot-games", "1",
                        "--pairing-rate", "1000/minute", *CHEAP_HASHES)) as server:
        yield server


def test_raced_accepts_of_a_bots_seeks_stay_within_its_open_games(one_game: Server) -> None:
    token = bot_account(one_game, f"capbot{next(_names)}", ["hula"])
    seeks = [post(one_game, token).json()["id"] for _ in range(2)]
    takers = [guest(one_game) for _ in seeks]
    answers = _race(one_game, [("POST", f"/api/seeks/{s}/accept", t, None)
                               for s, t in zip(seeks, takers, strict=True)])
    assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 409)
    assert refused.json()["code"] == "too_many_games"
    assert len(listed(one_game)) == 1  # the refused seek stands again


@pytest.fixture()
def timed(tmp_path: Path) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path, "--seek-seconds", "600",
                             "--challenge-seconds", "2")) as server:  # sweeps twice a second
        yield server


def test_a_seek_nobody_takes_is_cancelled_after_seek_seconds(timed: TimedServer) -> None:
    ann = guest(timed)
    old = post(timed, ann).json()["id"]
    timed.at(1000.0 + 400)
    young = post(timed, ann).json()["id"]
    timed.at(1000.0 + 601)  # the first is past 600 s, the second is not
    wait_for(lambda: old not in listed(timed), "the old seek stayed open")
    assert young in listed(timed)
    late = accept(timed, guest(timed), old)
    assert late.status_code == 409 and late.json()["code"] == "seek_closed"
    assert "cancelled" in late.json()["message"]
