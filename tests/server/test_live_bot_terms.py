"""The bot API as docs/bot-api.md states it, tried from outside: the answers of the game actions,
who may answer a challenge whatever its status, a clock on every game of a challenge (so a bot
that stays connected and never moves cannot hold a game for ever), and `rated` telling the truth
on a table that waits for more players. Time is the hall's clock, moved by the test
(tests/server/fake_time.py): nothing waits for real time to pass."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live import TimedServer, auth, running
from tests.server.test_live_botapi import (
    CHEAP_HASHES,
    account,
    bot_account,
    challenge,
    state_of,
    wait_for,
)

DAY = 86_400.0


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TimedServer]:
    with running(TimedServer(tmp_path_factory.mktemp("terms"), *CHEAP_HASHES)) as server:
        yield server


def accepted(server: TimedServer, challenger: str, dest: str, dest_token: str,
             **body: Any) -> dict[str, Any]:
    """`challenger` challenges `dest`, who accepts: the accept's answer."""
    r = challenge(server, challenger, dest, **body)
    assert r.status_code == 201, r.text
    a = httpx.post(f"{server.http}/api/challenge/{r.json()['id']}/accept",
                   headers=auth(dest_token))
    assert a.status_code == 200, a.text
    return {**a.json(), "challenge": r.json()}


def test_a_bot_move_and_resignation_answer_exactly_as_documented(timed: TimedServer) -> None:
    """``200 {"ok": true, "replies": []}``: nothing else (an internal marker once leaked)."""
    bot = bot_account(timed, "exacteng1", ["hula"])
    ann = account(timed, "annexact")
    room = accepted(timed, ann, "exacteng1", bot, game="hula", options={"size": 5},
                    seat=1)["room"]
    state = state_of(timed, bot, room)
    assert state["to_move"] == state["seat"] == 0
    move = state["legal_moves"][0]
    r = httpx.post(f"{timed.http}/api/bot/game/{room}/move/{move}",
                   params={"version": state["version"]}, headers=auth(bot))
    assert r.status_code == 200 and r.json() == {"ok": True, "replies": []}, r.text
    r = httpx.post(f"{timed.http}/api/bot/game/{room}/resign", headers=auth(bot))
    assert r.status_code == 200 and r.json() == {"ok": True, "replies": []}, r.text
    assert state_of(timed, ann, room)["status"] == "finished"


def test_a_stranger_gets_not_your_challenge_whatever_its_status(timed: TimedServer) -> None:
    """Whose a challenge is comes before its status, for every answer as for reading it; only
    its own side then learns it is settled (409 ``challenge_settled``)."""
    bot = bot_account(timed, "settledeng", ["hula"])
    ann, eve = account(timed, "annsettled"), account(timed, "evestranger")
    other = bot_account(timed, "othereng9", ["hula"])

    def answer(token: str, cid: str, verb: str) -> tuple[int, str]:
        r = httpx.post(f"{timed.http}/api/challenge/{cid}/{verb}", headers=auth(token),
                       json={"reason": "later"} if verb == "decline" else None)
        return r.status_code, r.json().get("code", "ok")

    pending = challenge(timed, ann, "settledeng", game="hula").json()["id"]
    done = accepted(timed, ann, "settledeng", bot, game="hula")["challenge"]["id"]
    declined = challenge(timed, ann, "settledeng", game="hula").json()["id"]
    r = httpx.post(f"{timed.http}/api/challenge/{declined}/decline", json={"reason": "later"},
                   headers=auth(bot))
    assert r.status_code == 200 and r.json() == {"ok": True, "reason": "later"}  # as documented
    refused = (403, "not_your_challenge")
    for cid in (pending, done, declined):
        r = httpx.get(f"{timed.http}/api/challenge/{cid}", headers=auth(eve))
        assert (r.status_code, r.json()["code"]) == refused
        for stranger in (eve, other):
            for verb in ("accept", "decline", "cancel"):
                assert answer(stranger, cid, verb) == refused, (cid, verb)
        assert answer(ann, cid, "decline") == refused  # the challenger never declines
        assert answer(ann, cid, "accept") == refused
        assert answer(bot, cid, "cancel") == refused  # nor the challenged cancels
    for cid in (done, declined):
        assert answer(bot, cid, "decline") == (409, "challenge_settled")
        assert answer(ann, cid, "cancel") == (409, "challenge_settled")
    r = httpx.post(f"{timed.http}/api/challenge/{pending}/cancel", headers=auth(ann))
    assert r.status_code == 200 and r.json() == {"ok": True}  # as documented


class GameStream:
    """A bot's game stream held open in a thread (the bot counts as connected), read to its
    end: the last line that is not a keep-alive."""

    def __init__(self, server: TimedServer, token: str, room: str) -> None:
        self.lines: list[dict[str, Any]] = []
        self.open = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(server, token, room),
                                       daemon=True)
        self.thread.start()
        assert self.open.wait(30), "the game stream did not open"

    def _read(self, server: TimedServer, token: str, room: str) -> None:
        with httpx.stream("GET", f"{server.http}/api/bot/game/stream/{room}",
                          headers=auth(token), timeout=120) as r:
            for line in r.iter_lines():
                if line.strip():
                    self.lines.append(json.loads(line))
                    self.open.set()


def test_no_bot_game_hangs_on_a_bot_that_stays_connected_and_never_moves(
        timed: TimedServer) -> None:
    """Two bot accounts, a challenge asked for untimed: the challenge and its game carry a
    days-per-move clock. Both bots keep their game streams open and neither moves; once a day
    has passed on the hall's clock the seat to move has lost on time, and both streams end."""
    one, two = bot_account(timed, "silenteng1", ["hula"]), bot_account(timed, "silenteng2",
                                                                       ["hula"])
    got = accepted(timed, one, "silenteng2", two, game="hula", options={"size": 5}, seat=0)
    assert got["challenge"]["clock"] == "1d" and got["game"]["clock"] == "1d", got
    room = got["room"]
    streams = [GameStream(timed, token, room) for token in (one, two)]
    state = state_of(timed, one, room)
    assert state["status"] == "playing" and state["clock"]["control"] == "1d"
    assert all(s["connected"] for s in state["seats"])
    timed.at(1000.0 + DAY / 2)
    assert state_of(timed, one, room)["status"] == "playing"
    timed.at(1000.0 + DAY + 60)
    end = wait_for(lambda: (s := state_of(timed, one, room))["status"] == "finished" and s,
                   "the silent bot's time to run out")
    assert end["ended_by"] == "time" and end["result"] == [-1.0, 1.0], end
    for stream in streams:
        stream.thread.join(30)
        assert not stream.thread.is_alive(), "a game stream did not end with the game"
        assert stream.lines[-1]["status"] == "finished"


def test_a_person_challenging_a_bot_untimed_gets_the_days_clock_too(
        timed: TimedServer) -> None:
    """A person cannot claim against a bot that stays connected, so the clock decides there
    too: the challenge says so before anyone accepts it (a bot may decline ``timeControl``)."""
    bot_account(timed, "patienteng", ["hula"])
    ann = account(timed, "annpatient")
    for asked in (None, "off", ""):
        r = challenge(timed, ann, "patienteng", game="hula", clock=asked)
        assert r.status_code == 201 and r.json()["clock"] == "1d", r.text
    r = challenge(timed, ann, "patienteng", game="hula", clock="5+3")
    assert r.json()["clock"] == "5+3"


def test_rated_tells_the_truth_on_a_table_that_waits_for_more_players(
        timed: TimedServer) -> None:
    """An accepted challenge to a table of three: two accounts seated, the game not started.
    The accept's game line says what the room says: rated (every person seated has an
    account), not ``false`` because nothing was fixed yet."""
    bot = bot_account(timed, "threeeng", ["hau_la"])
    ann = account(timed, "annthree")
    got = accepted(timed, ann, "threeeng", bot, game="hau_la", options={"players": 3}, seat=0)
    room = state_of(timed, ann, got["room"])
    assert room["status"] == "waiting" and room["rated"] is True
    assert got["game"]["status"] == "waiting" and got["game"]["rated"] is True, got["game"]
    casual = accepted(timed, ann, "threeeng", bot, game="hau_la", options={"players": 3},
                      rated=False)
    assert casual["game"]["rated"] is False
    assert state_of(timed, ann, casual["room"])["rated"] is False

