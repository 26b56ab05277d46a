"""Limits that hold when raced (issue 41), tried from outside against a real `gamehall serve`
with concurrent requests (``asyncio.gather`` over real connections): password tries, a bot's
open games, streams per token, pending challenges per bot; and revocation, sign-out and
sign-out everywhere end what a token holds open (streams, WebSockets) at once."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.server.live import Server, auth, running

CHEAP_HASHES = ("--argon2-time-cost", "1", "--argon2-memory-kib", "8192")
PASSWORD = "correct horse"
_names = itertools.count()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("races")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                        "--burst", "5000", "--token-rate", "100000/minute",
                        "--max-bot-games", "8", "--max-streams-per-token", "12",
                        "--max-challenges", "10", "--max-challenges-per-bot", "20",
                        *CHEAP_HASHES)) as server:
        yield server


def _ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def account(server: Server, prefix: str) -> tuple[str, str]:
    """A new account: (its nickname, its browser's token)."""
    nickname = f"{prefix}{next(_names)}"
    token = str(_ok(httpx.post(f"{server.http}/api/session", json={"nickname": nickname}))
                ["token"])
    _ok(httpx.post(f"{server.http}/api/account/password", json={"password": PASSWORD},
                   headers=auth(token)))
    return nickname, token


def api_token(server: Server, session: str, scope: str = "bot:play") -> tuple[str, str]:
    made = _ok(httpx.post(f"{server.http}/api/account/tokens", json={"scopes": [scope]},
                          headers=auth(session)), 201)
    return str(made["id"]), str(made["token"])


def bot(server: Server) -> tuple[str, str, str, str]:
    """A new bot account (Hula): (nickname, session token, bot:play token id, the token)."""
    nickname, session = account(server, "racer")
    token_id, token = api_token(server, session)
    _ok(httpx.post(f"{server.http}/api/bot/account/upgrade", json={"games": ["hula"]},
                   headers=auth(token)))
    return nickname, session, token_id, token


def challenge(server: Server, person: str, nickname: str) -> str:
    made = _ok(httpx.post(f"{server.http}/api/challenge/{nickname}",
                          json={"game": "hula", "options": {"size": 5}, "seat": 0},
                          headers=auth(person)), 201)
    return str(made["id"])


def codes(answers: list[httpx.Response]) -> list[tuple[int, str | None]]:
    return sorted((r.status_code, r.json().get("code") if r.status_code >= 400 else None)
                  for r in answers)


# --- 2. password tries -------------------------------------------------------------------------
def test_raced_password_guesses_are_counted_before_argon2_and_leave_other_sign_ins_alone(
        hall: Server) -> None:
    victim, session = account(hall, "victim")
    other, _ = account(hall, "other")

    async def race() -> tuple[list[httpx.Response], httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c:
            guesses = [c.post("/api/account/password", headers=auth(session),
                              json={"password": "stolen horse", "old_password": f"guess {i}"})
                       for i in range(12)]
            found = await asyncio.gather(*guesses, c.post("/api/login", json={
                "nickname": other, "password": PASSWORD}))
            return list(found[:-1]), found[-1]

    guesses, sign_in = asyncio.run(race())
    answers = codes(guesses)
    wrong = [a for a in answers if a == (401, "bad_login")]
    limited = [r for r in guesses if r.status_code == 429]
    assert len(wrong) <= 5 and len(wrong) + len(limited) == 12, answers  # 5 a minute a pair
    assert all(r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
               for r in limited)
    assert sign_in.status_code == 200, sign_in.text  # another account signs in meanwhile
    # the same allowance as signing in: even the right password now waits, either way in
    right = httpx.post(f"{hall.http}/api/account/password", headers=auth(session),
                       json={"password": "stolen horse", "old_password": PASSWORD})
    assert right.status_code == 429, right.text
    login = httpx.post(f"{hall.http}/api/login", json={"nickname": victim,
                                                       "password": PASSWORD})
    assert login.status_code == 429, login.text


# --- 3. caps -----------------------------------------------------------------------------------
def test_raced_accepts_never_open_more_games_than_max_bot_games(hall: Server) -> None:
    nickname, _, _, token = bot(hall)
    people = [account(hall, "fan")[1] for _ in range(2)]
    cids = [challenge(hall, people[i % 2], nickname) for i in range(14)]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c:
            return list(await asyncio.gather(*[
                c.post(f"/api/challenge/{cid}/accept", headers=auth(token)) for cid in cids]))

    answers = codes(asyncio.run(race()))
    assert answers.count((200, None)) == 8, answers
    assert answers.count((409, "too_many_games")) == 6, answers
    rooms = httpx.get(f"{hall.http}/api/rooms", params={"status": "playing", "limit": 500})
    mine = [r for r in rooms.json() if nickname in json.dumps(r)]
    assert len(mine) == 8


def test_raced_streams_of_one_token_stop_at_the_cap(hall: Server) -> None:
    _, _, _, token = bot(hall)

    async def race() -> list[int]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c:
            async def open_one() -> httpx.Response:
                return await c.send(c.build_request("GET", "/api/stream/event",
                                                    headers=auth(token)), stream=True)

            opened = await asyncio.gather(*[open_one() for _ in range(25)])
            try:
                for r in opened:
                    if r.status_code == 429:
                        await r.aread()
                        assert r.json()["code"] == "too_many_streams"
                return sorted(r.status_code for r in opened)
            finally:
                for r in opened:
                    await r.aclose()

    statuses = asyncio.run(race())
    assert statuses.count(200) == 12 and statuses.count(429) == 13, statuses


def test_raced_challenges_to_one_bot_stop_at_its_cap(hall: Server) -> None:
    nickname, _, _, token = bot(hall)
    people = [account(hall, "queue")[1] for _ in range(3)]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c:
            return list(await asyncio.gather(*[
                c.post(f"/api/challenge/{nickname}", headers=auth(people[i % 3]),
                       json={"game": "hula", "options": {"size": 5}}) for i in range(30)]))

    answers = codes(asyncio.run(race()))
    assert answers.count((201, None)) == 20, answers
    assert answers.count((409, "too_many_challenges")) == 10, answers
    waiting = _ok(httpx.get(f"{hall.http}/api/challenge", headers=auth(token)))
    assert len(waiting["in"]) == 20


# --- 5. revocation ends what a token holds open ------------------------------------------------
async def _read_to_end(lines: Any) -> list[str]:
    """The rest of a stream, up to its end (a stream that does not end fails the test)."""
    rest: list[str] = []

    async def read() -> None:
        async for line in lines:
            rest.append(line)

    await asyncio.wait_for(read(), 60)
    return rest


@pytest.mark.parametrize("how", ["revoke", "logout", "logout_all"])
def test_a_token_signed_out_or_revoked_ends_its_streams_and_websockets_at_once(
        hall: Server, how: str) -> None:
    nickname, session, token_id, play = bot(hall)
    _, person = account(hall, "mover")
    cid = challenge(hall, person, nickname)
    room = _ok(httpx.post(f"{hall.http}/api/challenge/{cid}/accept",
                          headers=auth(play)))["room"]
    token = session if how == "logout" else play  # sign-out ends a browser's session token

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c, \
                c.stream("GET", "/api/stream/event", headers=auth(token)) as events, \
                c.stream("GET", f"/api/bot/game/stream/{room}",
                         headers=auth(token)) as game, \
                connect(hall.ws_url(room), open_timeout=20) as ws:
            assert events.status_code == 200 and game.status_code == 200
            event_lines, game_lines = events.aiter_lines(), game.aiter_lines()
            assert await anext(event_lines) == ""  # listening now
            full = json.loads(await anext(game_lines))
            assert full["type"] == "gameFull"
            await ws.send(json.dumps({"type": "identify", "token": token, "id": 1}))
            while not _identified(json.loads(await ws.recv())):
                pass
            if how == "revoke":
                _ok(await c.delete(f"/api/account/tokens/{token_id}", headers=auth(session)))
            elif how == "logout":
                _ok(await c.post("/api/logout", headers=auth(session)))
            else:
                _ok(await c.post("/api/logout/all", headers=auth(session)))
            # what happens after it must reach none of them
            again = _ok(await c.post(f"/api/challenge/{nickname}", headers=auth(person),
                                     json={"game": "hula", "options": {"size": 5}}), 201)
            state = _ok(await c.get(f"/api/rooms/{room}", headers=auth(person)))
            moved = await c.post(f"/api/rooms/{room}/move", headers=auth(person), json={
                "move": state["legal_moves"][0], "version": state["version"]})
            assert moved.status_code == 200, moved.text
            after_events = await _read_to_end(event_lines)
            after_game = await _read_to_end(game_lines)
            assert again["id"] not in "".join(after_events), after_events
            assert not [line for line in after_game if line and json.loads(line).get(
                "version", -1) > state["version"]], after_game
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 60)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            assert (await c.get("/api/session", headers=auth(person))).status_code == 200

    asyncio.run(scenario())


def _identified(message: dict[str, Any]) -> bool:
    """The welcome that answers the identify (id 1), not the one sent on connecting."""
    return message.get("type") == "welcome" and message.get("id") == 1
