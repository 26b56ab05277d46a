"""Game options against a real server: a client's options never reach the server's file system or
a game's constructor unchecked. Boards are data: named from what the server offers, or sent."""

from __future__ import annotations

import asyncio
import copy
import errno
import json
import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest

from gamehall.core import GameRecord
from tests.server.conftest import _server
from tests.server.live import Client, Server

RAW: dict[str, Any] = json.loads(
    resources.files("gamehall.games.hotu_matua").joinpath("board.json").read_text())


def island() -> dict[str, Any]:
    """Another valid board: the shipped one with 2 and 3 swapped on every line, renamed."""
    data = copy.deepcopy(RAW)
    data["name"] = "Test island"
    for line in data["lines"]:
        line["number"] = {2: 3, 3: 2}.get(line["number"], line["number"])
    return data


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A hall of its own: before the fix a FIFO froze it, so it must not be the shared one."""
    yield from _server(tmp_path_factory.mktemp("options"), "--rate", "5000", "--burst", "5000")


@pytest.fixture(scope="module")
def boards_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("boards")
    (folder / "island.json").write_text(json.dumps(island()))
    return folder


@pytest.fixture(scope="module")
def offering(tmp_path_factory: pytest.TempPathFactory, boards_dir: Path) -> Iterator[Server]:
    """A hall that offers the boards in `boards_dir` besides the shipped one."""
    yield from _server(tmp_path_factory.mktemp("offering"), "--boards", str(boards_dir))


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(server: Server, token: str, options: dict[str, Any],
            game: str = "hotu_matua") -> httpx.Response:
    return httpx.post(f"{server.http}/api/rooms", json={"game": game, "options": options},
                      headers=_auth(token), timeout=10)


def test_a_client_cannot_make_the_server_open_a_file(hall: Server, tmp_path: Path) -> None:
    """/etc/passwd, a FIFO, a large file, a missing one: one answer for all, nothing opened."""
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"format": "secret-format", "pad": "x" * 5_000_000}))
    paths = ["/etc/passwd", str(fifo), str(big), str(tmp_path / "nowhere.json"),
             "../../../../etc/passwd", "~/.bashrc", "file:///etc/passwd", "default/../x"]
    token = hall.session("fileann")
    room = hall.create_room(token, "hotu_matua")
    messages = set()
    for path in paths:
        for r in (_create(hall, token, {"board": path}),
                  hall.act(token, room, "option", key="board", value=path)):
            assert r.status_code == 400 and r.json()["code"] == "bad_option", (path, r.text)
            messages.add(r.json()["message"])
    assert len(messages) == 1, f"the answers tell paths apart: {messages}"
    (message,) = messages
    assert "secret-format" not in message and "root" not in message and "found" not in message
    # Nobody has the FIFO open for reading: the server never opened it.
    with pytest.raises(OSError) as opened:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert opened.value.errno == errno.ENXIO
    # the typed command and the WebSocket message are refused alike
    async def over_websocket() -> None:
        c = await Client.open(hall, room, token)
        await c.send({"type": "option", "key": "board", "value": str(fifo)})
        assert (await c.error(10))["message"] == message
        await c.command(f"/option board={fifo}")
        assert (await c.error(10))["message"] == message
        await c.close()

    asyncio.run(over_websocket())
    assert httpx.get(f"{hall.http}/api/rooms/{room}").json()["options"]["board"] == ""


def test_odd_option_names_are_bad_options_never_server_errors(hall: Server) -> None:
    token = hall.session("oddann")
    room = hall.create_room(token, "testline")
    for name in ("self", "__class__", "options", "", " ", "size\u0000", "x" * 300):
        r = _create(hall, token, {name: 1}, game="testline")
        assert r.status_code == 400 and r.json()["code"] == "bad_option", (name, r.text)
        r = hall.act(token, room, "option", key=name, value=1)
        assert r.status_code == 400, (name, r.text)
        assert r.json()["code"] in ("bad_option", "bad_message"), (name, r.text)
    r = _create(hall, token, {"self": 1, "board": "/etc/passwd"})
    assert r.status_code == 400 and r.json()["code"] == "bad_option"


def test_boards_are_data_offered_by_name_or_sent(offering: Server, boards_dir: Path) -> None:
    games = {g["name"]: g for g in httpx.get(f"{offering.http}/api/games").json()}
    board = next(o for o in games["hotu_matua"]["options"] if o["name"] == "board")
    assert board["reads_files"] is True and board["max_bytes"] == 65536
    assert [b["value"] for b in board["offered"]] == ["", "island"]
    label = board["offered"][1]["label"]
    assert label.startswith("Test island")

    token = offering.session("boardann")
    r = _create(offering, token, {"board": "Island"})
    assert r.status_code == 201, r.text
    named = r.json()["id"]
    assert r.json()["options"]["board"] == label  # people see a name, not 10 KB of JSON
    sent = copy.deepcopy(island())
    sent["name"] = "Sent by ann"
    r = _create(offering, token, {"board": json.dumps(sent)})
    assert r.status_code == 201, r.text
    assert r.json()["options"]["board"].startswith("Sent by ann")
    sent_room = r.json()["id"]
    # a room switches boards by /option, by name or data, the same way
    other = offering.create_room(token, "hotu_matua")
    st = offering.act(token, other, "option", key="board", value="island").json()["state"]
    assert st["options"]["board"] == label
    st = offering.act(token, other, "option", key="board", value="default").json()["state"]
    assert st["options"]["board"] == ""

    # Too large, not JSON, not a board: refused with the loader's reason.
    sent["note"] = "n" * 70_000
    r = _create(offering, token, {"board": json.dumps(sent)})
    assert r.json()["code"] == "bad_option" and "65536 bytes" in r.json()["message"]
    r = _create(offering, token, {"board": "{oops"})
    assert r.json()["code"] == "bad_option" and "not JSON" in r.json()["message"]
    broken = island()
    broken["pearls"].pop()
    r = _create(offering, token, {"board": json.dumps(broken)})
    assert r.json()["code"] == "bad_option" and "not 5" in r.json()["message"]

    # Bots play the named board to the end; the record holds the board itself.
    for seat in ("north", "south"):
        assert offering.act(token, named, "bot", level="random", seat=seat).status_code == 200
    assert offering.act(token, named, "start").status_code == 200

    async def finished() -> None:
        c = await Client.open(offering, named, None)
        await c.wait(lambda m: m["type"] == "state" and m["status"] == "finished", 60)
        await c.close()

    asyncio.run(finished())
    record = offering.record(named)
    assert json.loads(record["options"]["board"])["name"] == "Test island"
    assert GameRecord.from_dict(record).replay().is_terminal()

    # The operator's file changes; rooms keep the board they were made with.
    (boards_dir / "island.json").unlink()
    offering.stop()
    offering.start()
    for room, name in ((named, "Test island"), (sent_room, "Sent by ann")):
        assert json.loads(offering.record(room)["options"]["board"])["name"] == name
        st = httpx.get(f"{offering.http}/api/rooms/{room}").json()
        assert st["options"]["board"].startswith(name)
    r = _create(offering, token, {"board": "island"})
    assert r.json()["code"] == "bad_option"
