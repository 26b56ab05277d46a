"""The README's own example bot, taken from the README's text, works: two copies of it (two bot
accounts) play each other to the end in each of the five games, all five at once, on a hall
whose per-token rate is low enough that both meet 429s (which they wait out). The one that
challenged sees its own challenge on its event stream too and must not try to accept it."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import ROOT, Server, running
from tests.server.test_live_botapi import CHEAP_HASHES, bot_account, challenge

GAMES: dict[str, dict[str, Any]] = {
    "hula": {"size": 5}, "haugaz": {"size": 5}, "halali": {},
    "hotu_matua": {"turn_limit": 10}, "hau_la": {"players": 2}}
"""Each game with options that keep a game of random moves short (each ends by its rules)."""

POLLS = 6000
"""Looks at the rooms (a quarter second apart) before the games count as stuck: games of random
moves end by their rules after a few hundred moves, so this bounds a hang, not a speed."""


def readme_bot() -> str:
    """The example of the README's "Bring your own bot" section, as its text shows it."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    [bot] = [b for b in blocks if b.startswith('"""A whole bot')]
    return bot


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("readmebot")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                        "--burst", "5000", "--token-rate", "10/second;100000/minute",
                        "--log-level", "info", *CHEAP_HASHES)) as server:
        yield server


def test_the_readme_shows_the_example_file() -> None:
    assert readme_bot() == (ROOT / "examples" / "tiny_bot.py").read_text()


def test_two_copies_of_the_readme_bot_play_each_game_to_the_end(hall: Server,
                                                                 tmp_path: Path) -> None:
    script = tmp_path / "readme_bot.py"
    script.write_text(readme_bot())
    tokens = {name: bot_account(hall, name) for name in ("readmeone", "readmetwo")}
    procs = {name: subprocess.Popen([sys.executable, str(script), hall.http, token],
                                    stdout=subprocess.DEVNULL,
                                    stderr=(tmp_path / f"{name}.err").open("wb"))
             for name, token in tokens.items()}
    try:
        made = {}
        for game, options in GAMES.items():
            # the bot running with this token spends its rate too: wait out 429 as the docs say
            for _ in range(30):
                r = challenge(hall, tokens["readmeone"], "readmetwo", game=game,
                              options=options, seat=0)
                if r.status_code != 429:
                    break
                time.sleep(float(r.headers.get("Retry-After", "1")))
            assert r.status_code == 201, r.text
            made[game] = r.json()["id"]
        rooms = _rooms_when_accepted(hall, made, procs, tmp_path)
        ends = _ends(hall, rooms, procs, tmp_path)
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(10)
    for game, end in ends.items():
        assert end["ended_by"] == "rules", (game, end["ended_by"], end["outcome"])
        assert [s["player"] for s in end["seats"]] == ["readmeone", "readmetwo"], game
        assert all(s["bot_account"] for s in end["seats"]), game
        assert end["version"] > 0, game
    log = hall.log_path.read_text(errors="replace")
    assert re.search(r'"POST /api/challenge/\S+/accept HTTP/1.1" 403', log) is None, \
        "a copy tried to accept a challenge it made"
    assert re.search(r'HTTP/1.1" 429', log), "no 429 met: the rate did not test the waits"


def _alive(procs: dict[str, subprocess.Popen[bytes]], tmp_path: Path) -> None:
    for name, proc in procs.items():
        assert proc.poll() is None, (tmp_path / f"{name}.err").read_text()[-3000:]


def _rooms_when_accepted(hall: Server, made: dict[str, str],
                         procs: dict[str, subprocess.Popen[bytes]],
                         tmp_path: Path) -> dict[str, str]:
    """Each game's room, from the lobby (the bots' tokens are left their whole allowance)."""
    rooms: dict[str, str] = {}
    for _ in range(POLLS):
        _alive(procs, tmp_path)
        for line in httpx.get(f"{hall.http}/api/rooms", params={"limit": 100}).json():
            if line["created_by"] == "readmeone" and line["game"] in made:
                rooms[line["game"]] = line["id"]
        if len(rooms) == len(made):
            return rooms
        time.sleep(0.25)
    raise AssertionError(f"challenges not accepted: {set(made) - set(rooms)}")


def _ends(hall: Server, rooms: dict[str, str], procs: dict[str, subprocess.Popen[bytes]],
          tmp_path: Path) -> dict[str, dict[str, Any]]:
    ends: dict[str, dict[str, Any]] = {}
    for _ in range(POLLS):
        _alive(procs, tmp_path)
        for game, room in rooms.items():
            if game not in ends:
                state = httpx.get(f"{hall.http}/api/rooms/{room}").json()
                if state["status"] == "finished":
                    ends[game] = state
        if len(ends) == len(rooms):
            return ends
        time.sleep(0.25)
    stuck = {g: httpx.get(f"{hall.http}/api/rooms/{r}").json()["version"]
             for g, r in rooms.items() if g not in ends}
    raise AssertionError(f"games that did not end (at these versions): {stuck}")
