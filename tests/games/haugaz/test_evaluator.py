"""Haugaz's leaf evaluator (`gamehall.games.haugaz.evaluator`, a candidate of
``benchmarks.evaluator_ab``): the owned heights compared softly, after the side to move's best
move step."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from gamehall.core import load_game
from gamehall.games.haugaz import HaugazState
from gamehall.games.haugaz.evaluator import HaugazEvaluator
from tests.games.haugaz.helpers import B, W, position


@pytest.mark.parametrize("options", [{}, {"grow_colour": "mover_opponent"}, {"blocking": True}])
def test_the_best_move_step_is_found_as_playing_every_move_finds_it(
    options: dict[str, Any],
) -> None:
    """`after_best_move` reckons each move's growth without playing it; over the move steps of
    random games it finds the share that playing every move and summing the stacks finds."""
    game = load_game("haugaz", **options)
    evaluator = HaugazEvaluator(game)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            assert isinstance(state, HaugazState)
            if state.placed >= 0:
                sign = 1.0 if state.to_move == 0 else -1.0
                shares = []
                for action in state.legal_actions():
                    after = state.clone()
                    after.apply_action(action)
                    lead, total = evaluator.sums(after)
                    shares.append(lead / total)
                best = max(shares, key=lambda s: sign * s)
                assert math.isclose(
                    evaluator.after_best_move(state, *evaluator.sums(state)), best, abs_tol=1e-12
                )
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100


def test_the_value_is_the_side_to_move_s_best_flip_and_zero_sum() -> None:
    """White to move can grow Black's tall stack on d4 (two points from d6, where White's
    2-stack from d8 lands), which turns it White's: the value reads that move, not the
    standing."""
    state = position({"d4": [B, W, B], "d8": [B, W]}, to_move=W)
    evaluator = HaugazEvaluator(state.game)
    lead, total = evaluator.sums(state)
    assert lead > 0  # Black owns the tallest stack now
    value = evaluator.evaluate(state, random.Random(1))
    assert value is not None and value[0] < 0 < value[1] and value[0] == -value[1]
    standing = HaugazEvaluator(state.game, reply=False).evaluate(state, random.Random(1))
    assert standing is not None and standing[0] > 0


def test_no_colour_no_value_and_the_end_is_the_result() -> None:
    game = load_game("haugaz")
    state = game.new_initial_state(1)
    evaluator = HaugazEvaluator(game)
    assert evaluator.evaluate(state, random.Random(1)) == [0.0, 0.0]  # cake set-up
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert evaluator.evaluate(state, rng) == state.returns()
