"""lichess's analysis formulas as adapted in `gamehall.ai.accuracy`."""

from __future__ import annotations

import math

import pytest

from gamehall.ai.accuracy import (
    AT_STAKE,
    at_stake,
    game_accuracy,
    harmonic_mean,
    mark,
    move_accuracy,
    volatility_weights,
    weighted_mean,
)


@pytest.mark.parametrize("drop, expected", [
    (0.0, None), (0.099, None), (0.1, "inaccuracy"), (0.199, "inaccuracy"), (0.2, "mistake"),
    (0.299, "mistake"), (0.3, "blunder"), (1.0, "blunder"), (-0.5, None)])
def test_marks_at_lichess_thresholds(drop: float, expected: str | None) -> None:
    assert mark(drop) == expected


def test_move_accuracy_is_lichess_curve_plus_one() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(-0.2) == 100.0  # a move that gains is perfect
    # 103.1668·exp(−0.04354·10) − 3.1669 + 1, for a drop of 10 percentage points
    assert math.isclose(move_accuracy(0.1), 103.1668100711649 * math.exp(-0.4354415386753951)
                        - 3.166924740191411 + 1, rel_tol=1e-12)
    assert math.isclose(move_accuracy(0.1), 64.58, abs_tol=0.01)
    assert move_accuracy(0.0001) == 100.0  # the +1 lifts tiny drops past 100: clamped
    assert math.isclose(move_accuracy(0.005), 98.78, abs_tol=0.01)
    assert move_accuracy(1.0) == 0.0  # below 0 after the curve: clamped
    drops = [i / 20 for i in range(21)]
    values = [move_accuracy(d) for d in drops]
    assert values == sorted(values, reverse=True)


def test_volatility_weights_follow_lichess_windows() -> None:
    assert volatility_weights([0.5]) == []
    assert volatility_weights([0.5] * 11) == [0.5] * 10  # calm: the floor of 0.5
    # 4 moves: windows of 2 positions, none repeated (2 - 2 copies of the first)
    series = [0.5, 0.5, 0.9, 0.9, 0.1]
    assert volatility_weights(series) == [0.5, 12.0, 0.5, 12.0]  # 20 and 40 points: capped 12
    # 30 moves: windows of 3, the first window stands for the first move as well
    long = [0.5 + 0.01 * (i % 2) for i in range(31)]
    weights = volatility_weights(long)
    assert len(weights) == 30
    assert weights[0] == weights[1] == max(0.5, math.sqrt(2 / 9))


def test_means() -> None:
    assert weighted_mean([]) is None
    assert weighted_mean([(100.0, 1.0), (50.0, 3.0)]) == 62.5
    assert harmonic_mean([]) is None
    assert harmonic_mean([0.0, 100.0]) == pytest.approx(2 / (1 + 0.01))  # 0 counts as 1
    assert game_accuracy([]) is None
    assert game_accuracy([(100.0, 2.0)]) == 100.0
    mixed = game_accuracy([(100.0, 0.5), (20.0, 12.0)])
    assert mixed is not None
    assert mixed == pytest.approx(((50 + 240) / 12.5 + 2 / (0.01 + 0.05)) / 2)


def test_a_move_counts_where_its_mover_had_an_inaccuracy_to_lose() -> None:
    assert AT_STAKE == 0.1
    assert not at_stake(0.0) and not at_stake(0.099)
    assert at_stake(0.1) and at_stake(0.5) and at_stake(1.0)  # a won position can be thrown


def test_a_loss_spread_over_many_turns_reads_accurate_by_lichess_s_formula() -> None:
    """Why a random player who loses in small steps reads accurate (issue 42, measured by
    ``benchmarks.review_drops``): the harmonic mean and the volatility weights pull a game's
    accuracy down only where single moves lose much. Half the game lost in 30 equal turns reads
    about 94, in 5 turns about 65; lichess's own aggregation, which ours follows, gives the
    same."""
    from benchmarks.review_drops import even_steps_accuracy

    assert even_steps_accuracy(0.5, 30) == pytest.approx(93.8, abs=0.1)
    assert even_steps_accuracy(0.5, 10) == pytest.approx(80.8, abs=0.1)
    assert even_steps_accuracy(0.5, 5) == pytest.approx(64.6, abs=0.1)
    assert even_steps_accuracy(0.0, 30) == pytest.approx(100.0)
