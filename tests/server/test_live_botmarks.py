"""A bot account is marked wherever the hall names it: its seat in a room and the lobby, its
profile and the profiles' game lines, the archive and the leaderboard (the page draws the BOT
tag from these flags: tests/web/test_botpage.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.live import Server, running
from tests.server.test_live_botapi import (
    CHEAP_HASHES,
    Running,
    account,
    bot_account,
    challenge,
    play_people,
    wait_for,
)


@pytest.fixture()
def hall(tmp_path: Path) -> Iterator[Server]:
    with running(Server(f"sqlite:///{tmp_path / 'hall.db'}", tmp_path / "server.log",
                        *CHEAP_HASHES)) as server:
        yield server


def test_a_bot_account_is_marked_in_every_list_that_names_it(hall: Server) -> None:
    token = bot_account(hall, "markedeng", ["hula"])
    ann = account(hall, "annmarks")
    with Running(hall, token) as client:
        r = challenge(hall, ann, "markedeng", game="hula", options={"size": 5}, seat=0,
                      rated=True)
        assert r.status_code == 201, r.text
        room = wait_for(lambda: next(iter(client._playing), None), "the bot to accept")
        lobby = next(x for x in httpx.get(f"{hall.http}/api/rooms").json() if x["id"] == room)
        assert [s["bot_account"] for s in lobby["seats"]] == [False, True]
        play_people(hall, room, [ann], random.Random(5))
        wait_for(lambda: room in client.finished, "the client to see the end")
    board = httpx.get(f"{hall.http}/api/leaderboard/hula").json()["players"]
    assert {p["nickname"]: p["bot_account"] for p in board} == {"annmarks": False,
                                                                "markedeng": True}
    games = httpx.get(f"{hall.http}/api/archive", params={"player": "annmarks"}).json()["games"]
    assert games[0]["players"] == ["annmarks", "markedeng"]
    assert games[0]["bot_accounts"] == [False, True]
    profile = httpx.get(f"{hall.http}/api/players/annmarks").json()
    assert profile["bot_account"] is False and profile["recent"][0]["bot_accounts"] == [False,
                                                                                        True]
