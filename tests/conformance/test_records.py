"""Seeded records made before a change replay and play again exactly the same after it.

The records in ``records/`` (see `records.py`) fix, for every game, a few option sets, random and
MCTS bots and chance: each action and its notation, the result, the outcome line, the final JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamehall.core import GameRecord
from tests.conformance.records import DIRECTORY, SPECS, dump, play, spec_name

PATHS = sorted(DIRECTORY.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_every_spec_has_its_record() -> None:
    assert sorted(f"{spec_name(s)}.json" for s in SPECS) == [p.name for p in PATHS]
    games = {s["game"] for s in SPECS}
    assert games == {"hula", "haugaz", "halali", "hotu_matua", "hau_la"}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_record_replays_exactly(path: Path) -> None:
    stored = _load(path)
    record = GameRecord.from_dict(stored["record"])
    state = record.replay()
    assert state.to_json() == stored["final"]
    assert state.current_player() == stored["current_player"]
    assert state.returns() == stored["returns"]
    assert (state.outcome_text() if state.is_terminal() else None) == stored["outcome"]
    again = GameRecord.from_state(state, players=record.players, seed=record.seed)
    assert again.to_dict() == stored["record"], "the notation of some action changed"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_record_plays_again_from_its_seeds(path: Path) -> None:
    """The same bots and seeds choose the same actions: legal actions, their order, chance
    outcomes and the fast playouts (MCTS games) are unchanged."""
    stored = _load(path)
    assert dump(play(stored["spec"])) == path.read_text()
