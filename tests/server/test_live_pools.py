"""Quick pairing through a real `gamehall serve` (issue 44): players join a pool over HTTP with
a session token and a wave pairs them into one started room; a Hau La pool of three seats a
table of three; refusals are clear; caps hold against concurrent requests. The hall's clock is
the test's (tests/server/fake_time.py): a wave fires when the test moves it, never by waiting."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import Client, TimedServer, auth, running, until
from tests.server.lobby_client import Lobby
from tests.server.test_live_botapi import account, api_token

_names = itertools.count()
WAVE = 30.0
AWAY = 60.0
"""The default ``--pairing-away-seconds``: an entry not seen this long is cancelled."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TimedServer]:
    tmp = tmp_path_factory.mktemp("pools")
    with running(TimedServer(tmp, "--pairing-wave-seconds", str(WAVE),
                             "--pairing-wave-players", "50", "--pairing-per-address", "500",
                             "--pairing-rate", "1000/minute",
                             "--pairing-address-rate", "10000/minute",
                             "--no-show-seconds", "600")) as server:
        yield server


class Clock:
    """The hall's clock as the module's tests move it: forward only."""

    now = 1000.0


def later(server: TimedServer, seconds: float) -> None:
    Clock.now += seconds
    server.at(Clock.now)


def player(server: TimedServer, prefix: str = "pooler") -> str:
    return server.session(f"{prefix}{next(_names)}")


def join(server: TimedServer, token: str, pool: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/pools/{pool}/join", json=body or None,
                      headers=auth(token))


def entry(server: TimedServer, token: str, entry_id: str) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/pools/entries/{entry_id}", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def waiting_in(server: TimedServer, pool: str) -> int:
    pools = httpx.get(f"{server.http}/api/pools").json()["pools"]
    return int(next(p for p in pools if p["id"] == pool)["waiting"])


def paired(server: TimedServer, people: list[tuple[str, str]]) -> list[str]:
    """Move the clock one wave on and wait until every (token, entry) is paired; their
    rooms."""
    later(server, WAVE + 1)
    asyncio.run(until(lambda: all(entry(server, t, e)["status"] == "paired"
                                  for t, e in people), "the wave did not pair everyone"))
    return [str(entry(server, t, e)["room"]) for t, e in people]


def test_the_pools_are_listed_with_their_seats_and_counts(hall: TimedServer) -> None:
    pools = httpx.get(f"{hall.http}/api/pools").json()["pools"]
    by_id = {p["id"]: p for p in pools}
    assert {"hula-5-3", "halali-10-5", "hau_la-3p-10-5", "hula-2d"} <= set(by_id)
    assert by_id["hula-5-3"] == {"id": "hula-5-3", "game": "hula", "options": {},
                                 "clock": "5+3", "seats": 2, "rated": True,
                                 "waiting": by_id["hula-5-3"]["waiting"]}
    assert by_id["hau_la-3p-10-5"]["seats"] == 3
    assert by_id["hau_la-4p-10-5"]["options"] == {"players": 4}


def test_two_players_in_one_wave_land_in_the_same_started_room(
        hall: TimedServer) -> None:
    ann, bob = player(hall), player(hall)
    first = join(hall, ann, "hula-5-3")
    assert first.status_code == 202, first.text
    second = join(hall, bob, "hula-5-3")
    assert second.status_code == 202, second.text
    a, b = first.json()["id"], second.json()["id"]
    assert entry(hall, ann, a)["status"] == "waiting"
    assert waiting_in(hall, "hula-5-3") == 2
    rooms = paired(hall, [(ann, a), (bob, b)])
    assert rooms[0] == rooms[1]
    room = httpx.get(f"{hall.http}/api/rooms/{rooms[0]}").json()
    assert room["status"] == "playing" and room["clock"]["control"] == "5+3"
    assert sorted(s["player"] for s in room["seats"]) == sorted(
        [n for n in (_nick(hall, ann), _nick(hall, bob))])
    assert waiting_in(hall, "hula-5-3") == 0


def _nick(server: TimedServer, token: str) -> str:
    return str(httpx.get(f"{server.http}/api/session", headers=auth(token)).json()["nickname"])


def test_a_three_seat_hau_la_pool_seats_three_and_starts(hall: TimedServer) -> None:
    people = [player(hall) for _ in range(3)]
    entries = []
    for token in people:
        r = join(hall, token, "hau_la-3p-10-5")
        assert r.status_code == 202, r.text
        entries.append((token, r.json()["id"]))
    rooms = paired(hall, entries)
    assert len(set(rooms)) == 1
    room = httpx.get(f"{hall.http}/api/rooms/{rooms[0]}").json()
    assert room["status"] == "playing" and len(room["seats"]) == 3
    assert all(s["player"] and not s["bot"] for s in room["seats"])


def test_a_player_alone_who_asked_for_a_bot_plays_one_after_the_wait(
        hall: TimedServer) -> None:
    ann = player(hall)
    r = join(hall, ann, "haugaz-10-5", bot_after_s=60)
    assert r.status_code == 202, r.text
    later(hall, WAVE + 1)
    asyncio.run(until(lambda: waiting_in(hall, "haugaz-10-5") == 1, "the wave did not look"))
    assert entry(hall, ann, r.json()["id"])["status"] == "waiting"  # alone: nobody to pair
    [room_id] = paired(hall, [(ann, r.json()["id"])])
    room = httpx.get(f"{hall.http}/api/rooms/{room_id}").json()
    assert room["status"] == "playing"
    assert sorted(bool(s["bot"]) for s in room["seats"]) == [False, True]


def test_an_entry_whose_player_went_away_is_cancelled_before_a_wave_pairs_it(
        hall: TimedServer) -> None:
    """One joins over HTTP only and goes away; one polls their entry; one holds an identified
    lobby socket, one a room's WebSocket. Past the away time only the one who went away is
    cancelled (each waits at a table that never fills, so no wave pairs them meanwhile)."""
    four, three = "hau_la-4p-10-5", "hau_la-3p-10-5"
    ann, bob, cat, dan = (player(hall, "away") for _ in range(4))
    ids = {}
    for token, pool in ((ann, four), (bob, three), (cat, four), (dan, four)):
        r = join(hall, token, pool)
        assert r.status_code == 202, r.text
        ids[token] = r.json()["id"]
    room = hall.create_room(dan, "hula")

    async def run() -> None:
        lobby = await Lobby.open(hall.http)
        await lobby.ws.send(json.dumps({"type": "identify", "token": cat, "id": "me"}))
        while (await lobby.next()).get("id") != "me":
            pass
        watching = await Client.open(hall, room, dan)
        try:
            for _ in range(2):  # each step is under the away time; both together past it
                await asyncio.to_thread(later, hall, AWAY * 2 / 3)
                assert entry(hall, bob, ids[bob])["status"] == "waiting"
            await until(lambda: waiting_in(hall, four) == 2, "the absent entry was kept")
            # read while the sockets are held: closing cat's last lobby socket is leaving
            # (docs/pairing.md), which cancels cat's entry at once
            await asyncio.to_thread(check_kept)
        finally:
            await watching.close()
            await lobby.close()

    def check_kept() -> None:
        assert entry(hall, ann, ids[ann])["status"] == "cancelled"
        assert [entry(hall, t, ids[t])["status"] for t in (bob, cat, dan)] == ["waiting"] * 3

    asyncio.run(run())
    assert entry(hall, cat, ids[cat])["status"] == "cancelled"  # cat's lobby socket closed
    for token in (bob, cat, dan):  # the pools are left as they were found
        httpx.delete(f"{hall.http}/api/pools/entries/{ids[token]}", headers=auth(token))


def test_refusals_are_clear(hall: TimedServer) -> None:
    ann = player(hall)
    assert join(hall, ann, "hula-10-5").status_code == 202
    again = join(hall, ann, "hula-10-5")
    assert again.status_code == 409 and again.json()["code"] == "already_waiting"
    other = join(hall, ann, "halali-10-5")
    assert other.status_code == 409 and other.json()["code"] == "other_pool"
    assert "hula-10-5" in other.json()["message"]
    nowhere = join(hall, ann, "chess-1-0")
    assert nowhere.status_code == 404 and nowhere.json()["code"] == "unknown_pool"
    bad = join(hall, player(hall), "hula-10-5", rating_range=[1800, 1200])
    assert bad.status_code == 400 and bad.json()["code"] == "bad_range"
    stranger = httpx.post(f"{hall.http}/api/pools/hula-10-5/join")
    assert stranger.status_code == 401


def test_joining_while_playing_is_refused_and_leaving_cancels(hall: TimedServer) -> None:
    ann, bob = player(hall), player(hall)
    a = join(hall, ann, "hotu_matua-10-5").json()["id"]
    b = join(hall, bob, "hotu_matua-10-5").json()["id"]
    other = httpx.get(f"{hall.http}/api/pools/entries/{a}", headers=auth(bob))
    assert other.status_code == 403 and other.json()["code"] == "not_your_entry"
    paired(hall, [(ann, a), (bob, b)])
    playing = join(hall, ann, "hula-5-3")
    assert playing.status_code == 409 and playing.json()["code"] == "in_game"
    cat = player(hall)
    c = join(hall, cat, "hula-2d").json()["id"]
    left = httpx.delete(f"{hall.http}/api/pools/entries/{c}", headers=auth(cat))
    assert left.status_code == 200 and left.json()["status"] == "cancelled"
    assert join(hall, cat, "hula-2d").status_code == 202  # free to join again


def test_a_no_show_is_held_back_from_the_pools(hall: TimedServer) -> None:
    ann, bob = player(hall), player(hall)
    a = join(hall, ann, "halali-10-5").json()["id"]
    b = join(hall, bob, "halali-10-5").json()["id"]
    [room, _] = paired(hall, [(ann, a), (bob, b)])
    gone = hall.act(ann, room, "resign")
    assert gone.status_code == 200, gone.text
    held = join(hall, ann, "halali-10-5")
    assert held.status_code == 409 and held.json()["code"] == "held_back", held.text
    assert join(hall, bob, "halali-10-5").status_code == 202  # the one who stayed may go on


def test_concurrent_joins_of_one_player_make_exactly_one_entry(
        hall: TimedServer) -> None:
    ann = player(hall)
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=30) as c:
            return await asyncio.gather(*[
                c.post(f"/api/pools/{pool}/join", headers=auth(ann))
                for pool in ["hula-10-5", "halali-10-5", "haugaz-10-5"] * 7])

    answers = asyncio.run(race())
    codes = sorted(r.status_code for r in answers)
    assert codes.count(202) == 1, [r.text for r in answers if r.status_code != 409]
    assert codes.count(409) == len(answers) - 1


@pytest.fixture()
def capped(tmp_path: Path) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path, "--pairing-per-address", "3",
                             "--pairing-rate", "1000/minute",
                             "--pairing-address-rate", "10000/minute")) as server:
        yield server


def test_concurrent_joins_from_one_address_stop_at_its_cap(capped: TimedServer) -> None:
    people = [player(capped) for _ in range(12)]
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=capped.http, timeout=30) as c:
            return await asyncio.gather(*[
                c.post("/api/pools/hula-2d/join", headers=auth(t)) for t in people])

    answers = asyncio.run(race())
    assert sorted(r.status_code for r in answers) == [202] * 3 + [429] * 9
    assert {r.json()["code"] for r in answers if r.status_code == 429} == {"address_full"}
    assert waiting_in(capped, "hula-2d") == 3


@pytest.fixture()
def slow(tmp_path: Path) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path, "--pairing-rate", "4/minute",
                             "--pairing-address-rate", "10000/minute")) as server:
        yield server


def test_concurrent_joins_past_the_pairing_rate_are_refused(slow: TimedServer) -> None:
    ann = player(slow)
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=slow.http, timeout=30) as c:
            return await asyncio.gather(*[
                c.post("/api/pools/hula-2d/join", headers=auth(ann)) for _ in range(10)])

    answers = asyncio.run(race())
    codes = [r.status_code for r in answers]
    assert codes.count(202) == 1 and codes.count(409) == 3 and codes.count(429) == 6, codes
    assert all("Retry-After" in r.headers for r in answers if r.status_code == 429)


def test_bot_accounts_use_seeks_not_pools(hall: TimedServer) -> None:
    session = account(hall, f"poolbot{next(_names)}")
    _, play = api_token(hall, session, "bot:play")
    assert httpx.post(f"{hall.http}/api/bot/account/upgrade", json={"games": ["hula"]},
                      headers=auth(play)).status_code == 200
    with_play = join(hall, play, "hula-5-3")
    assert with_play.status_code == 403 and with_play.json()["code"] == "missing_scope"
    with_session = join(hall, session, "hula-5-3")
    assert with_session.status_code == 403 and with_session.json()["code"] == "bot_account"
