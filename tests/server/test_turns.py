"""A turn composed, then sent: the steps of one turn previewed without committing (`preview`)
and played all together or not at all (`turn`), over HTTP as a page or a script sends them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.server.api.app import create_app
from gamehall.server.ops.settings import Settings


class Table:
    """A hall in process, one visitor (ann) against a house bot that waits."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.token = client.post("/api/session", json={"nickname": "ann"}).json()["token"]

    def act(self, room: str, kind: str, **body: Any) -> Any:
        return self.client.post(f"/api/rooms/{room}/{kind}", json=body,
                                headers={"X-Gamehall-Token": self.token})

    def state(self, room: str) -> dict[str, Any]:
        return dict(self.client.get(f"/api/rooms/{room}",
                                    headers={"X-Gamehall-Token": self.token}).json())

    def haugaz(self) -> str:
        """A started Haugaz game (6×6, the cake): ann places it, the bot then chooses a side."""
        room = self.client.post("/api/rooms", json={"game": "haugaz", "options": {"size": 6}},
                                headers={"X-Gamehall-Token": self.token}).json()["id"]
        assert self.act(room, "join", seat=0).status_code == 200
        assert self.act(room, "bot", level="random", seat=1).status_code == 200
        assert self.act(room, "start").status_code == 200
        return str(room)


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    settings = Settings(bot_delay=60.0, rate=1000, burst=1000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", settings)) as client:
        yield Table(client)


def test_the_cake_is_one_turn_sent_whole_and_listed_as_one(table: Table) -> None:
    room = table.haugaz()
    answer = table.act(room, "turn", moves=["black a1", "white f6"], version=0)
    assert answer.status_code == 200, answer.text
    st = answer.json()["state"]
    assert st["to_move"] == 1 and st["version"] == 2  # the bot chooses a side next (it waits)
    assert [(m["move"], m["turn"], m["seat"]) for m in st["moves"]] == [
        ("black a1", 1, 0), ("white f6", 1, 0)]


def test_an_illegal_last_step_refuses_the_whole_turn_and_changes_nothing(table: Table) -> None:
    room = table.haugaz()
    before = table.state(room)
    # a1 for black, then white at b2: too close to the black stack (the cake distance)
    answer = table.act(room, "turn", moves=["black a1", "white b2"], version=before["version"])
    assert answer.status_code == 409, answer.text
    error = answer.json()
    assert error["code"] == "illegal_move"
    assert error["key"] == "error.turn.step" and error["args"]["n"] == 2
    assert error["args"]["move"] == "white b2"
    assert error["message"].startswith("step 2 (white b2): ")
    after = table.state(room)
    assert after["version"] == before["version"]
    assert after["moves"] == before["moves"] and after["view"] == before["view"]
    assert after["legal_moves"] == before["legal_moves"]


def test_a_preview_shows_the_steps_and_the_next_ones_without_committing(table: Table) -> None:
    room = table.haugaz()
    before = table.state(room)
    answer = table.act(room, "preview", moves=["black a1"], version=before["version"], id="p1")
    assert answer.status_code == 200, answer.text
    (preview,) = answer.json()["replies"]
    assert preview["type"] == "preview" and preview["id"] == "p1"
    assert preview["open"] is True and preview["version"] == before["version"] + 1
    assert [s["move"] for s in preview["steps"]] == ["black a1"]
    assert preview["steps"][0]["kind"] == "cake"
    assert preview["legal_moves"] and all(m.startswith("white ") for m in preview["legal_moves"])
    assert "b2" not in {e["cell"] for e in preview["legal"]}  # too close to a1
    # the whole turn: closed (the other seat chooses a side next), nothing to choose further
    answer = table.act(room, "preview", moves=["black a1", "white f6"],
                       version=before["version"])
    (preview,) = answer.json()["replies"]
    assert preview["open"] is False and preview["legal"] == [] and preview["to_move"] == 1
    after = table.state(room)
    assert after["version"] == before["version"] and after["moves"] == before["moves"]
    # a step that is illegal after the others is named, and the preview answers nothing else
    answer = table.act(room, "preview", moves=["black a1", "black a2"],
                       version=before["version"])
    assert answer.status_code == 409 and answer.json()["args"]["n"] == 2


def test_a_turn_names_its_version_and_may_not_be_empty(table: Table) -> None:
    room = table.haugaz()
    answer = table.act(room, "turn", moves=["black a1", "white f6"], version=5)
    assert answer.status_code == 409 and answer.json()["code"] == "stale_version"
    answer = table.act(room, "turn", moves=[], version=0)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_message"
    answer = table.act(room, "turn", moves=["black a1", 3], version=0)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_message"
    assert table.state(room)["version"] == 0


def test_bot_with_an_unknown_level_names_the_levels(table: Table) -> None:
    """``/bot superhard`` was meant as a level: the refusal lists the levels, not the seats
    alone."""
    room = table.client.post("/api/rooms", json={"game": "hula"},
                             headers={"X-Gamehall-Token": table.token}).json()["id"]
    assert table.act(room, "join", seat=0).status_code == 200
    answer = table.act(room, "chat", text="/bot superhard")
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["code"] == "bad_bot" and error["key"] == "error.bot.unknown_word"
    assert "superhard" in error["message"] and "easy, medium, hard" in error["message"]
    assert table.act(room, "chat", text="/bot easy second").status_code == 200
