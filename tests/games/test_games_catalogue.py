"""The catalogue part ``games.json`` (the games' and the room's end sentences) holds no key that
nothing says: each key is written in the code, whole, or (Hau La's events, logged by their last
part) as the name its table logs it by."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gamehall.core.messages import CATALOGUES, LANGUAGES, catalogue

SRC = Path(__file__).resolve().parents[2] / "src" / "gamehall"
EVENT = "game.hau_la.event."


def _code() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(SRC.rglob("*.py")))


def test_every_key_of_games_json_is_used() -> None:
    code = _code()
    turns = (SRC / "games" / "hau_la" / "turns.py").read_text("utf-8")
    keys = json.loads((CATALOGUES / "en" / "games.json").read_text("utf-8"))
    unused = [k for k in keys if f'"{k}"' not in code
              and not (k.startswith(EVENT) and f'"{k[len(EVENT):]}"' in turns)]
    assert unused == []


def test_every_games_key_the_code_names_is_in_every_catalogue() -> None:
    named = set(re.findall(r'"((?:game|room)\.[a-z_]+\.[a-z_.]+)"', _code()))
    assert named, "the scan finds the keys"
    for language in LANGUAGES:
        assert sorted(named - set(catalogue(language))) == []


def test_the_german_part_says_every_sentence_in_german() -> None:
    english = json.loads((CATALOGUES / "en" / "games.json").read_text("utf-8"))
    german = json.loads((CATALOGUES / "de" / "games.json").read_text("utf-8"))
    assert set(german) == set(english)
    same = {k: english[k] for k in english if german[k] == english[k]}
    # only sentences whose words are all arguments (or "in", German too) may read the same
    words = {k: set(re.findall(r"[a-z]+", re.sub(r"\{[^{}]*\}", "", text), re.I)) - {"in"}
             for k, text in same.items()}
    assert {k: w for k, w in words.items() if w} == {}
