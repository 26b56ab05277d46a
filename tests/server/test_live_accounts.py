"""Accounts and ratings against a real `gamehall serve`: a password makes a nickname an account
that signs in from any client and takes back its seat; signing out ends tokens; rated games
change ratings that the state, profiles, the leaderboard and the archive show; a guest's game
is casual unless the room says rated; bots are rated per level; records download and verify."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.live import ROOT, Client, Message, Server, play_random

CHEAP_HASHES = ("--argon2-time-cost", "1", "--argon2-memory-kib", "8192")
PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("accounts")
    server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                    "--burst", "5000", *CHEAP_HASHES)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _post(server: Server, path: str, token: str | None = None, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}{path}", json=body, headers=_auth(token), timeout=30)


def _get(server: Server, path: str, token: str | None = None, **params: Any) -> httpx.Response:
    return httpx.get(f"{server.http}{path}", params=params, headers=_auth(token), timeout=30)


def _account(server: Server, nickname: str) -> str:
    """A new visitor who protects the nickname with a password; returns their token."""
    token = server.session(nickname)
    r = _post(server, "/api/account/password", token, password=PASSWORD)
    assert r.status_code == 200 and r.json() == {"nickname": nickname, "account": True}, r.text
    return token


async def _seat_both(server: Server, room: str, first: str, second: str) -> tuple[Client, Client]:
    a, b = await Client.open(server, room, first), await Client.open(server, room, second)
    for c in (a, b):
        await c.command("/join")
        await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
    return a, b


async def _play_out(server: Server, room: str, first: str, second: str, seed: int) -> Message:
    a, b = await _seat_both(server, room, first, second)
    await a.command("/start")
    await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    final = await play_random({0: a, 1: b}, random.Random(seed))
    for c in (a, b):
        await c.close()
    return final


def test_an_account_signs_in_from_another_client_and_takes_back_its_seat(hall: Server) -> None:
    home = _account(hall, "homer")
    assert _get(hall, "/api/session", home).json() == {"nickname": "homer", "account": True}
    room = hall.create_room(home, "testrace", goal=40)
    for kind, body in (("join", {}), ("bot", {"level": "random"}), ("start", {})):
        assert hall.act(home, room, kind, **body).status_code == 200
    r = _post(hall, "/api/logout", home)
    assert r.status_code == 200 and "gamehall_token=" in r.headers["set-cookie"]
    assert _get(hall, "/api/session", home).status_code == 401
    wrong = _post(hall, "/api/login", nickname="homer", password="not the password")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
    fresh = httpx.Client(base_url=hall.http)  # another browser: no token, no cookie
    login = fresh.post("/api/login", json={"nickname": "HOMER", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["nickname"] == "homer"
    token = login.json()["token"]
    assert fresh.cookies.get("gamehall_token") == token  # the cookie alone identifies it too
    assert fresh.get("/api/session").json()["nickname"] == "homer"
    fresh.close()

    async def scenario() -> tuple[int, Message]:
        c = await Client.open(hall, room, token)
        assert c.state is not None and c.state["seat"] == 0  # the seat is theirs again
        st = c.state
        while st["to_move"] != 0:
            st = await c.wait(lambda m: m["type"] == "state" and m["to_move"] == 0)
        await c.send({"type": "move", "move": st["legal_moves"][0], "version": st["version"]})
        moved = await c.state_at(st["version"] + 1)
        await c.close()
        return st["version"], moved

    version, moved = asyncio.run(scenario())
    assert moved["moves"][version]["seat"] == 0  # and plays on from it


def test_signing_out_everywhere_and_changing_the_password(hall: Server) -> None:
    first = _account(hall, "cara")
    second = _post(hall, "/api/login", nickname="cara", password=PASSWORD).json()["token"]
    third = _post(hall, "/api/login", nickname="cara", password=PASSWORD).json()["token"]
    no_old = _post(hall, "/api/account/password", first, password="battery staple")
    assert no_old.status_code == 401 and no_old.json()["code"] == "bad_login"
    short = _post(hall, "/api/account/password", first, password="short", old_password=PASSWORD)
    assert short.status_code == 400 and short.json()["code"] == "weak_password"
    changed = _post(hall, "/api/account/password", first, password="battery staple",
                    old_password=PASSWORD)
    assert changed.status_code == 200
    assert _get(hall, "/api/session", second).status_code == 401  # other browsers signed out
    assert _get(hall, "/api/session", third).status_code == 401
    assert _post(hall, "/api/login", nickname="cara", password=PASSWORD).status_code == 401
    again = _post(hall, "/api/login", nickname="cara", password="battery staple").json()["token"]
    room = hall.create_room(first, "testrace")

    async def scenario() -> int | None:
        watching = await Client.open(hall, room, again)
        assert _post(hall, "/api/logout/all", first).status_code == 200
        # the socket was opened before: its token is dead now, and the socket closed with it
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await watching.recv()
        return closed.value.rcvd.code if closed.value.rcvd is not None else None

    assert asyncio.run(scenario()) == 4401
    for token in (first, again):
        assert _get(hall, "/api/session", token).status_code == 401
    guest = hall.session("guesty")
    refused = _post(hall, "/api/logout", guest)
    assert refused.status_code == 409 and refused.json()["code"] == "no_password"
    taken = _post(hall, "/api/session", nickname="Cara")
    assert taken.status_code == 409 and "sign in" in taken.json()["message"]


def test_a_rated_game_between_two_accounts_shows_everywhere(hall: Server,
                                                            tmp_path: Path) -> None:
    ann, bob = _account(hall, "rann"), _account(hall, "rbob")
    room = hall.create_room(ann, "testrace", goal=8)
    lobby = next(r for r in _get(hall, "/api/rooms").json() if r["id"] == room)
    assert lobby["rated"] is True
    final = asyncio.run(_play_out(hall, room, ann, bob, seed=5))
    assert final["rated"] is True and final["ended_by"] == "rules"
    changes = final["rating_changes"]
    assert [(c["seat"], c["player"], c["before"]) for c in changes] == \
        [(0, "rann", 1500), (1, "rbob", 1500)]
    winner = final["result"].index(max(final["result"]))
    if final["result"][0] != final["result"][1]:
        assert changes[winner]["after"] > 1500 > changes[1 - winner]["after"]
    for c in changes:
        prof = _get(hall, f"/api/players/{c['player']}").json()
        assert prof["ratings"]["testrace"]["rating"] == c["after"]
        assert prof["ratings"]["testrace"]["games"] == 1
        recent = prof["recent"][0]
        assert recent["room"] == room and recent["players"] == ["rann", "rbob"]
        assert recent["rating"] == {"before": 1500, "after": c["after"]}
    board = {p["nickname"]: p for p in _get(hall, "/api/leaderboard/testrace").json()["players"]}
    assert board["rann"]["rating"] == changes[0]["after"] and board["rbob"]["games"] == 1
    found = _get(hall, "/api/archive", player="RBOB").json()["games"]
    assert [g["room"] for g in found][:1] == [room] and found[0]["title"] == "Test Race"
    assert room in [g["room"] for g in _get(hall, "/api/archive", game="testrace").json()["games"]]
    assert _get(hall, "/api/archive", player="nobody-here").status_code == 404
    assert _get(hall, "/api/leaderboard/nosuchgame").json()["code"] == "bad_game"
    assert _get(hall, "/api/players/nobody-here").status_code == 404
    record = tmp_path / "game.json"  # the downloaded record is one `gamehall replay` verifies
    record.write_text(json.dumps(hall.record(room)))
    done = subprocess.run([sys.executable, "-c", "import tests.server.games; "
                           "from gamehall.cli import app; app()", "replay", "--quiet",
                           str(record)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "verified" in done.stdout, done.stdout + done.stderr
    hall.kill9()
    hall.start()  # the change is stored with the room: a restart shows it the same
    assert _get(hall, f"/api/rooms/{room}").json()["rating_changes"] == changes


def test_a_guests_game_is_rated_against_an_account_only_if_the_room_says_so(
        hall: Server) -> None:
    acc, guest = _account(hall, "gacc"), hall.session("gguest")
    casual = hall.create_room(acc, "testrace", goal=6)
    final = asyncio.run(_play_out(hall, casual, acc, guest, seed=1))
    assert final["rated"] is False and final["rating_changes"] is None
    assert _get(hall, "/api/players/gacc").json()["ratings"] == {}
    rated = hall.create_room(acc, "testrace", goal=6)

    async def switch() -> list[str]:
        a, b = await _seat_both(hall, rated, acc, guest)
        await a.command("/rated")
        said = [(await a.wait(lambda m: m["type"] == "info" and "casual" in m["text"]))["text"]]
        await b.command("/rated on")
        await a.wait(lambda m: m["type"] == "state" and m["rated"] is True)
        await b.command("/rated maybe")
        said.append((await b.error())["message"])
        for c in (a, b):
            await c.close()
        return said

    said = asyncio.run(switch())
    assert "a guest is seated" in said[0] and "/rated on" in said[1]
    final = asyncio.run(_play_out_seated(hall, rated, acc, guest, seed=2))
    assert final["rated"] is True and len(final["rating_changes"]) == 2
    assert _get(hall, "/api/players/gguest").json()["ratings"]["testrace"]["games"] == 1
    by_http = hall.create_room(acc, "testrace")
    assert _post(hall, "/api/rooms", acc, game="testrace", rated=False).json()["rated"] is False
    assert hall.act(acc, by_http, "rated", value=False).json()["state"]["rated"] is False


async def _play_out_seated(server: Server, room: str, first: str, second: str,
                           seed: int) -> Message:
    a, b = await Client.open(server, room, first), await Client.open(server, room, second)
    await a.command("/start")
    await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    final = await play_random({0: a, 1: b}, random.Random(seed))
    for c in (a, b):
        await c.close()
    return final


def test_bots_are_rated_per_level_and_a_seated_guest_who_signs_up_makes_the_game_rated(
        hall: Server) -> None:
    token = hall.session("botfan")
    room = hall.create_room(token, "testrace", goal=6)
    for kind, body in (("join", {}), ("bot", {"level": "random"})):
        assert hall.act(token, room, kind, **body).status_code == 200
    assert _get(hall, f"/api/rooms/{room}").json()["rated"] is False  # a guest is seated
    assert _post(hall, "/api/account/password", token, password=PASSWORD).status_code == 200
    assert _get(hall, f"/api/rooms/{room}").json()["rated"] is True
    assert hall.act(token, room, "start").status_code == 200

    async def scenario() -> Message:
        c = await Client.open(hall, room, token)
        final = await play_random({0: c}, random.Random(3))
        await c.close()
        return final

    final = asyncio.run(scenario())
    assert [c["player"] for c in final["rating_changes"]] == ["botfan", "random bot"]
    bot = _get(hall, "/api/players/random bot").json()
    assert bot["bot"] == "random" and bot["ratings"]["testrace"]["games"] >= 1
    board = _get(hall, "/api/leaderboard/testrace", limit=200).json()["players"]
    assert any(p["nickname"] == "random bot" and p["bot"] == "random" for p in board)


def test_failed_sign_ins_are_limited_then_even_the_right_password_waits(hall: Server) -> None:
    _account(hall, "lockme")
    _account(hall, "freeme")
    for _ in range(5):
        wrong = _post(hall, "/api/login", nickname="lockme", password="guess guess")
        assert wrong.status_code == 401
    limited = _post(hall, "/api/login", nickname="LockMe", password=PASSWORD)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert _post(hall, "/api/login", nickname="freeme", password=PASSWORD).status_code == 200
