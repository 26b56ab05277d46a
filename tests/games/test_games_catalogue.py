"""The catalogue part ``games.json`` (the games' and the room's end sentences, and a hint's words
for each kind of step) holds no key that nothing says: each key is written in the code, whole, or
(Hau La's events, logged by their last part) as the name its table logs it by, or (a hint's words,
``game.<game>.hint.<kind>``) as a kind of step the game offers a seat in play."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from gamehall.core import load_game
from gamehall.core.messages import CATALOGUES, LANGUAGES, arguments, catalogue, parse
from gamehall.games.halali.notation import PASS

SRC = Path(__file__).resolve().parents[2] / "src" / "gamehall"
EVENT = "game.hau_la.event."
HINT = re.compile(r"game\.([a-z_]+)\.hint\.([a-z_]+)")


def _code() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(SRC.rglob("*.py")))


def test_every_key_of_games_json_is_used() -> None:
    code = _code()
    turns = (SRC / "games" / "hau_la" / "turns.py").read_text("utf-8")
    keys = json.loads((CATALOGUES / "en" / "games.json").read_text("utf-8"))
    unused = [k for k in keys if f'"{k}"' not in code and not HINT.fullmatch(k)
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


OPTIONS: dict[str, list[dict[str, Any]]] = {
    "hula": [{}], "haugaz": [{}], "halali": [{}, {"match": True}], "hotu_matua": [{}],
    "hau_la": [{}, {"players": 3}, {"players": 4}],
}
# Steps random play does not reach, found by the action they are: Halali!'s pass (only when a
# seat has no flip, move, capture or exit at all).
RARE: dict[str, list[int]] = {"halali": [PASS]}


def _steps_offered(name: str, seeds: int = 8) -> dict[str, set[str]]:
    """Each kind of step seeded random games of `name` (under each option set) offer the seat to
    move, never chance, with the parts its steps name: what a hint may have to say in words."""
    kinds: dict[str, set[str]] = {}

    def offer(parts: dict[str, Any]) -> None:
        kinds.setdefault(parts["kind"], set()).update(set(parts) - {"kind"})

    for options in OPTIONS[name]:
        game = load_game(name, **options)
        for action in RARE.get(name, []):
            offer(game.new_initial_state(seed=0).action_parts(action))
        for seed in range(seeds):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance(rng))
                    continue
                legal = state.legal_actions()
                for action in legal:
                    offer(state.action_parts(action))
                state.apply_action(rng.choice(legal))
    return kinds


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_hint_has_words_for_every_kind_of_step_the_game_offers(name: str) -> None:
    """Played, not read: the kinds of step random games offer are exactly the kinds the
    catalogue has hint words for, and the words name only parts such a step has."""
    offered = _steps_offered(name)
    english = catalogue("en")
    words = {m[2]: english[m[0]] for m in (HINT.fullmatch(k) for k in english)
             if m and m[1] == name}
    assert sorted(words) == sorted(offered)
    for kind, text in words.items():
        assert arguments(parse(text)) <= offered[kind], kind
