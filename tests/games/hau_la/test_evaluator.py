"""The MCTS evaluator shipped with Hau La: exact reachable heights, softmax, no side effects."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gamehall.games.hau_la.evaluator import (
    HauLaEvaluator,
    best_height,
    mix,
    outcome_heights,
    softmax,
    started,
)
from gamehall.games.hau_la.placements import TAG
from gamehall.games.hau_la.rules import HauLaState
from tests.games.hau_la.helpers import Pick, calm, new_state, play, touching


def into_game(players: int, seed: int, placements: int) -> HauLaState:
    """A state after `placements` random placements, at the start of a turn placement."""
    state = new_state(players, seed)
    rng = random.Random(seed)
    while state.table.phase == "extras":  # 3 players: first-turn pieces are chosen
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(placements):
        play(state, lambda row, touch, t: True, at=rng.random())
    while state.table.phase != "place":
        play(state, lambda row, touch, t: True, at=rng.random())
    return state


def expected(heights: list[float | None]) -> list[float]:
    """The default evaluator's estimate for these (already credited) heights."""
    return mix(softmax(heights, 1.5), heights, 0.2)


def test_softmax_prefers_the_higher_tag_and_sums_to_one() -> None:
    scores = softmax([6.0, 2.0, None], 1.5)
    assert math.isclose(sum(scores), 1.0)
    assert scores[0] > scores[1] > scores[2]
    assert softmax([4.0, 4.0], 1.5) == [0.5, 0.5]
    assert softmax([None, None], 1.5) == [0.5, 0.5]


@pytest.mark.parametrize(("players", "seed", "placements"), [(2, 1, 0), (2, 3, 5), (3, 2, 4),
                                                              (4, 5, 6)])
def test_outcome_heights_match_the_placements_once_made(players: int, seed: int,
                                                        placements: int) -> None:
    """Every open placement, actually made: the placer's height is what the evaluator said."""
    state = into_game(players, seed, placements)
    t = state.table
    seat = t.placer
    assert t.placements is not None
    predicted = outcome_heights(t)
    rows = list(t.rows)
    picks = np.linspace(0, len(rows) - 1, num=min(len(rows), 25)).astype(int)
    for k in picks:
        target = rows[k]
        trial = state.clone()
        play(trial, lambda row, touch, table, target=target:
             bool((row == t.placements.rows[target]).all()))
        after = trial.table.heights()[seat]
        assert (-math.inf if after is None else after) == pytest.approx(predicted[k], abs=1e-9)


def test_a_touching_placement_keeps_the_height_before_it() -> None:
    state = into_game(2, 3, 5)
    t = state.table
    assert t.placements is not None
    touch = t.placements.touch[t.rows]
    assert touch.any()
    before = t.heights()[t.placer]
    expected = -math.inf if before is None else before
    assert (outcome_heights(t)[touch] == expected).all()


def test_best_height_narrows_as_the_placement_is_chosen() -> None:
    state = into_game(2, 3, 5)
    t = state.table
    assert t.placements is not None
    best = best_height(t)
    assert best is not None and best == pytest.approx(float(np.nanmax(t.placements.height
                                                                       [t.rows][~t.placements
                                                                                 .touch[t.rows]])))
    rng = random.Random(0)
    mover = state.current_player()
    while state.current_player() == mover and state.table.step() != TAG:
        state.apply_action(rng.choice(state.legal_actions()))
        if state.table.placements is None or state.current_player() != mover:
            break
        narrower = best_height(state.table)
        assert narrower is not None and narrower <= best + 1e-12
        best = narrower


def test_evaluate_changes_nothing_and_is_deterministic() -> None:
    state = into_game(2, 3, 5)
    evaluator = HauLaEvaluator(state.game)
    before = state.to_json()
    history = state.history()
    first = evaluator.evaluate(state, random.Random(1))
    second = evaluator.evaluate(state, random.Random(99))
    assert first == second and first is not None
    assert all(0.0 <= v <= 1.0 for v in first)
    assert state.to_json() == before and state.history() == history


def test_evaluate_credits_the_placer_once_it_has_chosen() -> None:
    state = into_game(2, 3, 5)
    evaluator = HauLaEvaluator(state.game)
    t = state.table
    assert not started(t)  # nothing chosen yet: the heights as they are
    assert evaluator.evaluate(state, random.Random(0)) == pytest.approx(expected(t.heights()))
    state.apply_action(state.legal_actions()[0])
    t = state.table
    assert started(t) and t.placer == state.current_player()
    heights = t.heights()
    heights[t.placer] = best_height(t, 3.0)
    assert heights != t.heights()  # the test means something: the credit changes the estimate
    got = evaluator.evaluate(state, random.Random(0))
    assert got == pytest.approx(expected(heights))


@pytest.mark.parametrize("pick", [calm, touching])
def test_after_a_placement_the_heights_count_as_they_are(pick: Pick) -> None:
    """The position after a placement is valued by the heights now, less the touch penalty for
    a culprit (the hand-over of its piece is under way)."""
    state = into_game(2, 3, 5)
    seat = state.current_player()
    play(state, pick)
    t = state.table
    assert not started(t)
    heights = t.heights()
    if pick is touching:
        assert t.phase == "handover" and t.culprit == seat
        heights[seat] = heights[seat] - 3.0  # type: ignore[operator]
    got = HauLaEvaluator(state.game).evaluate(state, random.Random(0))
    assert got == pytest.approx(expected(heights))


def test_touching_rows_count_with_the_penalty() -> None:
    state = into_game(2, 3, 5)
    t = state.table
    assert t.placements is not None
    touch = t.placements.touch[t.rows]
    before = t.heights()[t.placer]
    assert before is not None and touch.any()
    assert (outcome_heights(t, 3.0)[touch] == before - 3.0).all()
    assert (outcome_heights(t, 3.0)[~touch] == outcome_heights(t)[~touch]).all()


def test_the_own_height_term_breaks_a_saturated_softmax() -> None:
    """Far ahead, 16 and 21 both win for sure by the softmax; the mix still prefers 21."""
    low, high = mix(softmax([16.0, 4.0], 1.5), [16.0, 4.0], 0.2), mix(softmax([21.0, 4.0], 1.5),
                                                                     [21.0, 4.0], 0.2)
    assert high[0] > low[0] + 0.02
    assert all(0.0 <= v <= 1.0 for v in low + high)
    assert mix([0.3, 0.7], [None, 50.0], 0.2) == pytest.approx([0.24, 0.76])


def test_evaluate_at_the_end_gives_the_returns() -> None:
    state = new_state(2, 4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert HauLaEvaluator(state.game).evaluate(state, rng) == state.returns()
