"""`GET /api/games` and the rooms send the games' texts for people with their catalogue keys
beside the English (descriptions, options' labels, docs and words, seats' names), so the page
says them in its reader's language; the English stays as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.core.messages import LANGUAGES, catalogue
from gamehall.server.api.app import create_app

GAMES = ("halali", "hau_la", "haugaz", "hotu_matua", "hula")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('keys') / 'h.db'}",
                     web_dir=Path("/nonexistent"))
    with TestClient(app) as c:
        yield c


def _keys(game: dict[str, Any]) -> list[str]:
    """Every key one game's listing carries."""
    out = [game["description_key"], *game["seat_keys"].values()]
    for opt in game["options"]:
        out += [opt["label_key"], opt["doc_key"], *(w["word_key"] for w in opt["words"])]
        out += [b["label_key"] for b in opt.get("offered", []) if "label_key" in b]
    return out


def test_the_game_listing_carries_a_key_beside_each_text(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    halali = games["halali"]
    assert halali["description"].startswith("Humans against beasts")
    assert halali["description_key"] == "game.halali.description"
    assert halali["seats"] == ["humans", "beasts"]
    assert halali["seat_keys"] == {"humans": "game.halali.seat.humans",
                                   "beasts": "game.halali.seat.beasts",
                                   "first": "game.halali.seat.first",
                                   "second": "game.halali.seat.second"}
    rifles = halali["options"][0]
    assert (rifles["label"], rifles["label_key"]) == ("rifles", "game.halali.option.rifles.label")
    assert rifles["words"][0] == {"value": "two_each", "word": "two per direction",
                                  "word_key": "game.halali.option.rifles.word.two_each"}
    assert set(games["hau_la"]["seat_keys"]) == {"red", "blue", "yellow", "orange"}
    # every seat name has the colour its board draws it in (the review's graph takes it)
    assert halali["seat_colours"]["beasts"] == "#1d4e8f"
    for name in GAMES:
        assert set(games[name]["seat_colours"]) == set(games[name]["seat_keys"]), name
    for language in LANGUAGES:
        for name in GAMES:
            missing = [k for k in _keys(games[name]) if k not in catalogue(language)]
            assert not missing, (language, name, missing)


def test_the_rooms_seats_carry_their_names_keys(client: TestClient) -> None:
    token = client.post("/api/session", json={"nickname": "keya"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    room = client.post("/api/rooms", json={"game": "halali", "options": {"match": True}},
                       headers=headers).json()
    line = next(r for r in client.get("/api/rooms").json() if r["id"] == room["id"])
    assert [(s["name"], s["name_key"]) for s in line["seats"]] == [
        ("first", "game.halali.seat.first"), ("second", "game.halali.seat.second")]
