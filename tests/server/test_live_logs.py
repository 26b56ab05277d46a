"""No token in any log line (issue 41): a real `gamehall serve` logging every request and every
WebSocket handshake (info level, text or JSON lines) is sent tokens every way a client may send
them, and a few it should not (in a URL); then every line of its log is searched for every
token it issued."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.server.live import Server, auth, running

CHEAP_HASHES = ("--argon2-time-cost", "1", "--argon2-memory-kib", "8192")
PASSWORD = "correct horse"


def _ok(r: httpx.Response, status: int = 200) -> dict:  # type: ignore[type-arg]
    assert r.status_code == status, r.text
    return dict(r.json())


@pytest.mark.parametrize("json_logs", [False, True], ids=["text", "json"])
def test_no_log_line_shows_a_token_however_it_was_sent(tmp_path: Path, json_logs: bool) -> None:
    log = tmp_path / "server.log"
    extra = ["--log-level", "info", *CHEAP_HASHES, *(["--log-json"] if json_logs else [])]
    with running(Server(f"sqlite:///{tmp_path / 'hall.db'}", log, *extra)) as hall:
        url = hall.http
        session = str(_ok(httpx.post(f"{url}/api/session", json={"nickname": "loggy"}))["token"])
        _ok(httpx.post(f"{url}/api/account/password", json={"password": PASSWORD},
                       headers=auth(session)))
        made = {scope: _ok(httpx.post(f"{url}/api/account/tokens", json={"scopes": [scope]},
                                      headers=auth(session)), 201)
                for scope in ("read", "bot:play")}
        read, play = str(made["read"]["token"]), str(made["bot:play"]["token"])
        guest = str(_ok(httpx.post(f"{url}/api/session", json={"nickname": "gusty"}))["token"])
        signed_in = str(_ok(httpx.post(f"{url}/api/login", json={
            "nickname": "loggy", "password": PASSWORD}))["token"])
        room = str(_ok(httpx.post(f"{url}/api/rooms", json={"game": "hula"},
                                  headers={"X-Gamehall-Token": guest}), 201)["id"])
        tokens = [session, read, play, guest, signed_in]
        for token in tokens:
            httpx.get(f"{url}/api/session", headers=auth(token))
            httpx.get(f"{url}/api/session", cookies={"gamehall_token": token})
            httpx.get(f"{url}/api/session?token={token}")
            httpx.get(f"{url}/api/rooms/{room}?x=1&access_token={token}&Authorization={token}")
            httpx.post(f"{url}/api/rooms/{room}/who?token={token}", headers=auth(token))
            with httpx.stream("GET", f"{url}/api/stream/event?token={token}",
                              headers=auth(token)) as stream:
                assert stream.status_code in (200, 403)

        async def sockets() -> None:
            for token in tokens:
                async with connect(f"{hall.ws_url(room)}?token={token}",
                                   additional_headers=auth(token)) as ws:
                    await ws.send(json.dumps({"type": "identify", "token": token, "id": 1}))
                    while not _identified(json.loads(await ws.recv())):
                        pass
                with pytest.raises(InvalidStatus):  # a page of another site: refused
                    async with connect(f"{hall.ws_url(room)}?token={token}",
                                       origin="https://elsewhere.example"):  # type: ignore[arg-type]
                        pass

        asyncio.run(sockets())
        _ok(httpx.delete(f"{url}/api/account/tokens/{made['read']['id']}", headers=auth(session)))
        httpx.get(f"{url}/api/session", headers=auth(read))  # a revoked token, used again
        _ok(httpx.post(f"{url}/api/logout", cookies={"gamehall_token": signed_in}))
    lines = log.read_text().splitlines()
    handshakes = [line for line in lines if "WebSocket /ws/rooms/" in line]
    for token in tokens:
        leaked = [line for line in lines if token in line]
        assert not leaked, leaked[:3]
    assert len(handshakes) >= 2 * len(tokens), "the handshakes are logged (with the token blanked)"
    assert any("token=***" in line for line in handshakes)


def _identified(message: dict[str, Any]) -> bool:
    """The welcome that answers the identify (id 1), not the one sent on connecting."""
    return message.get("type") == "welcome" and message.get("id") == 1
