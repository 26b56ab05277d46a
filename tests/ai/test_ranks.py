"""Expected ranks (`gamehall.ai.ranks`) and the `ranks` a review of a 3–4 seat game carries for
the page's graph: each in 1..n, a position's summing to n(n + 1)/2, a certain winner first."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamehall import cli
from gamehall.ai.ranks import ahead, expected_ranks
from gamehall.ai.review import Review, review_record
from gamehall.cli import app
from gamehall.core import CHANCE, GameRecord, load_game


def test_expected_ranks_from_values() -> None:
    assert expected_ranks((1.0, 0.0, 0.0)) == (1.0, 2.5, 2.5)
    assert expected_ranks((0.25,) * 4) == (2.5,) * 4
    assert ahead(0.0, 0.0) == 0.5 and ahead(0.2, 0.6) == pytest.approx(0.75)
    ranks = expected_ranks((0.6, 0.3, 0.1))
    assert ranks[0] < ranks[1] < ranks[2]
    assert sum(ranks) == pytest.approx(6.0)
    assert ranks[0] == pytest.approx(1 + 0.3 / 0.9 + 0.1 / 0.7)


def three_player_hau_la(seed: int) -> GameRecord:
    """A finished random 3-player game of Hau La (its chance steps are actions of the record)."""
    rng = random.Random(seed)
    state = load_game("hau_la", players=3).new_initial_state(seed)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE
                           else rng.choice(state.legal_actions()))
    return GameRecord.from_state(state, ["ann", "bob", "cy"], seed=seed)


def test_a_three_player_review_carries_each_positions_expected_ranks() -> None:
    record = three_player_hau_la(3)
    review = review_record(record, simulations=3, seed=1)
    data = json.loads(json.dumps(review.to_dict()))
    ranks = data["ranks"]
    assert len(ranks) == len(data["steps"]) + 1
    for position, chances in zip(ranks, review.chances(), strict=True):
        assert len(position) == 3 and all(1.0 <= r <= 3.0 for r in position)
        assert sum(position) == pytest.approx(6.0, abs=1e-3)
        assert position == pytest.approx(list(expected_ranks(chances)), abs=1e-3)
    for step in data["steps"]:
        if step["seat"] is not None:
            assert step["rank"] == pytest.approx(
                [expected_ranks(step[k])[step["seat"]] for k in ("before", "after")], abs=1e-3)
    winner = review.final.index(1.0)
    assert ranks[-1][winner] == 1.0
    assert Review.from_dict(data).to_dict() == data  # derived: written again, never read


def test_a_two_seat_review_has_no_ranks() -> None:
    state = load_game("hula").new_initial_state(5)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    review = review_record(GameRecord.from_state(state, seed=5), simulations=4, seed=1)
    assert review.ranks() is None and "ranks" not in review.to_dict()


def test_the_cli_shows_the_movers_expected_rank_in_a_three_player_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(three_player_hau_la(3).to_dict()))
    # The CLI's console takes its width once, at import (CI's COLUMNS=80 wrapped the header):
    monkeypatch.setattr(cli.console, "width", 200)
    out = CliRunner().invoke(app, ["review", str(path), "--level", "2", "--all"])
    assert out.exit_code == 0, out.output
    assert "expected rank" in out.output and "→" in out.output
