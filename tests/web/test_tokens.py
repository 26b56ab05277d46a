"""A token never reaches a URL: after a whole browser game against a server that logs every
request (its access log on), the log holds the page's requests and WebSockets but not its token."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.conftest import HallProcess, Pages
from tests.web.helpers import (
    create_room,
    enter,
    start_against_bot,
    wait_my_turn,
    wait_version_above,
)


@pytest.fixture()
def logged_hall(tmp_path: Path) -> Iterator[HallProcess]:
    server = HallProcess(tmp_path, log_level="info")
    try:
        yield server
    finally:
        server.stop()


def test_the_access_log_never_holds_a_token(browser: Browser, logged_hall: HallProcess) -> None:
    pages = Pages(browser, logged_hall, None)
    try:
        page = pages.new()
        enter(page, "logann")
        create_room(page, "hula", size=5)
        start_against_bot(page)
        for _ in range(3):
            st = wait_my_turn(page)
            page.locator("[data-game=hula] .cell.legal").first.click()
            wait_version_above(page, st["version"])
        token = page.evaluate("sessionStorage.getItem('gamehall.token')")
        page.reload()  # a reconnect identifies again
        page.wait_for_function("() => window.gamehall && window.gamehall.room.state")
        assert not pages.errors, pages.errors
    finally:
        pages.close()
    assert isinstance(token, str) and len(token) > 20
    log = logged_hall.log.read_text()
    assert '"POST /api/session' in log and "WebSocket /ws/rooms/" in log, log[-2000:]
    assert token not in log, "the page's token is in the server's log"
    with urllib.request.urlopen(f"{logged_hall.url}api/games?token={token}") as resp:
        assert resp.status == 200  # a client that puts it in a URL anyway: not logged either
    log = logged_hall.log.read_text()
    assert "/api/games?token=***" in log and token not in log
