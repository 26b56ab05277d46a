"""Nicknames against a real server: ASCII letters, digits, '_' and '-', starting with a letter or
digit, at most 20, unique regardless of case; reserved words and lookalikes refused."""

from __future__ import annotations

import httpx

from tests.server.live import Server


def _post(server: Server, nickname: str) -> httpx.Response:
    return httpx.post(f"{server.http}/api/session", json={"nickname": nickname})


def test_lookalike_and_reserved_nicknames_are_refused(server: Server) -> None:
    assert _post(server, "Zoe-9_x").status_code == 200
    assert _post(server, "7zoe").status_code == 200
    assert _post(server, "z" * 20).status_code == 200
    for taken in ("zoe-9_X", "ZOE-9_X"):
        r = _post(server, taken)
        assert r.status_code == 409 and r.json()["code"] == "nickname_taken", taken
    refused = [
        "ａｎｎ",            # fullwidth letters
        "\u0430nn",          # Cyrillic a
        "easyｂｏｔ",        # past the reserved "...bot" with fullwidth letters
        "_ann", "-ann", "ann.b", "ann b", "ann\u200b", "é", "ann\u0301", "",
        "z" * 21,
        "chance", "Server", "easybot", "MyBot", "BOT",
    ]
    for name in refused:
        r = _post(server, name)
        assert r.status_code == 400 and r.json()["code"] == "bad_nickname", (name, r.text)
