"""Helpers for tournaments through a real server: accounts, a tournament made and joined,
its rounds waited for, games ended by a resignation or played to a draw."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.server.live import Server, auth

PASSWORD = "correct horse"
LINE_DRAW = ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]
"""A drawn game of testline (3×3): no three in a row for either."""
START = 1200.0
"""The hall's clock (seconds) at which the tests' tournaments begin: `STARTS_AT`."""
STARTS_AT = "1970-01-01T00:20:00Z"


def account(server: Server, nickname: str) -> str:
    token = server.session(nickname)
    r = httpx.post(
        f"{server.http}/api/account/password", json={"password": PASSWORD}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    return token


def create(server: Server, token: str, **body: Any) -> str:
    r = httpx.post(f"{server.http}/api/tournaments", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def join(server: Server, tid: str, token: str) -> None:
    r = httpx.post(f"{server.http}/api/tournaments/{tid}/join", headers=auth(token))
    assert r.status_code == 200, r.text


def read(server: Server, tid: str, token: str | None = None) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/tournaments/{tid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def games(server: Server, tid: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.http}/api/tournaments/{tid}/games")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines() if line]


def wait_for(check: Callable[[], Any], what: str, seconds: float = 60.0) -> Any:
    """Poll until `check` answers something true (the director works on its own)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def round_games(server: Server, tid: str, n: int) -> list[dict[str, Any]]:
    """Round `n`'s games once every room of it is made (byes included)."""

    def ready() -> list[dict[str, Any]] | None:
        found = [g for g in games(server, tid) if g["round"] == n]
        if found and all(g["bye"] or g["status"] != "open" for g in found):
            return found
        return None

    return list(wait_for(ready, f"round {n} of {tid}"))


def resign(server: Server, token: str, room: str) -> None:
    r = server.act(token, room, "resign")
    assert r.status_code == 200, r.text


def draw_line(server: Server, room: str, tokens: tuple[str, str]) -> None:
    """Play testline's drawn game in `room`, seat 0 first."""
    for i, move in enumerate(LINE_DRAW):
        r = server.act(tokens[i % 2], room, "move", move=move, version=i)
        assert r.status_code == 200, r.text
