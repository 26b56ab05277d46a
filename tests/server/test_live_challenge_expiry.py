"""A challenge nobody answers does not stay pending for ever: after `--challenge-seconds` of the
hall's clock it is canceled with reason ``expired`` and both sides' event streams are told. The
test moves the hall's clock (tests/server/fake_time.py): nothing here waits for real time to
pass or asserts how long anything took."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.fake_time import set_time
from tests.server.live import TimedServer, auth, running, until
from tests.server.test_live_botapi import CHEAP_HASHES, account, bot_account, challenge


@pytest.fixture()
def timed(tmp_path: Path) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path, "--challenge-seconds", "2", *CHEAP_HASHES)) as server:
        yield server


class Listener:
    """A player's event stream read in a thread: the events, and whether it listens yet."""

    def __init__(self, server: TimedServer, token: str) -> None:
        self.events: list[dict[str, Any]] = []
        self.listening = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(server, token), daemon=True)
        self.thread.start()
        assert self.listening.wait(30), "the event stream did not open"

    def _read(self, server: TimedServer, token: str) -> None:
        with httpx.stream("GET", f"{server.http}/api/stream/event", headers=auth(token),
                          timeout=60) as r:
            for line in r.iter_lines():
                self.listening.set()
                if line.strip():
                    self.events.append(json.loads(line))
                if any(e["type"] == "challengeCanceled" for e in self.events):
                    return

    def canceled(self) -> list[dict[str, Any]]:
        return [e["challenge"] for e in self.events if e["type"] == "challengeCanceled"]


def pending(server: TimedServer, token: str) -> list[str]:
    mine = httpx.get(f"{server.http}/api/challenge", headers=auth(token)).json()
    return [c["id"] for c in mine["in"] + mine["out"]]


def test_an_unanswered_challenge_expires_and_both_sides_are_told(timed: TimedServer) -> None:
    bot = bot_account(timed, "sleepyeng", ["hula"])
    ann = account(timed, "annwaits")
    ann_events, bot_events = Listener(timed, ann), Listener(timed, bot)
    old = challenge(timed, ann, "sleepyeng", game="hula").json()["id"]  # at 1000: stale at 1002
    set_time(timed.time_file, 1001.5)
    young = challenge(timed, ann, "sleepyeng", game="hula").json()["id"]  # stale at 1003.5
    set_time(timed.time_file, 1003.0)

    async def scenario() -> None:
        await until(lambda: old not in pending(timed, ann), "the old challenge never expired")
        assert young in pending(timed, bot), "a challenge is kept until its time is up"
        set_time(timed.time_file, 1004.0)
        await until(lambda: young not in pending(timed, ann), "the young one never expired")

    asyncio.run(scenario())
    for listener in (ann_events, bot_events):
        listener.thread.join(timeout=30)
        first = listener.canceled()[0]
        assert first["id"] == old and first["status"] == "canceled"
        assert first["reason"] == "expired" and first["reason_text"]
    late = httpx.post(f"{timed.http}/api/challenge/{old}/accept", headers=auth(bot))
    assert late.status_code == 409 and late.json()["code"] == "challenge_settled"
