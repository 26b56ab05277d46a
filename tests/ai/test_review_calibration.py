"""A review reads its values as winning chances (issue 42): per game a slope fitted to games
played out (`review_levels.REVIEW_CALIBRATION`, benchmarks.review_calibration) stretches the
timid middle of the value scale, so a move that gives up 0.1 of value in Hula is the 0.2 of the
games it is; the noise allowance is taken before, on the values' own scale, so calibration never
turns noise into a mark; exact results stay exact; and the slope is the one the results fit."""

from __future__ import annotations

import math
import random

import pytest
from benchmarks.review_calibration import fit_slope, log_loss

from gamehall.ai.review import Estimate, PositionSearch, _assemble, _judged, _Position
from gamehall.ai.review_levels import REVIEW_CALIBRATION, calibrated_chance, review_calibration
from gamehall.core import load_game


def test_a_calibrated_chance_is_symmetric_and_leaves_results_and_slope_one_alone() -> None:
    for v in (0.0, 0.1, 0.35, 0.5, 0.8, 1.0):
        assert calibrated_chance(v, 1.0) == v
        assert calibrated_chance(v, 2.4) == pytest.approx(1.0 - calibrated_chance(1.0 - v, 2.4))
    assert (calibrated_chance(0.0, 3.0), calibrated_chance(1.0, 3.0)) == (0.0, 1.0)
    assert calibrated_chance(0.6, 2.0) > 0.6 and calibrated_chance(0.4, 2.0) < 0.4
    assert review_calibration("haugaz") == 1.0 and review_calibration("a_plugin") == 1.0
    assert review_calibration("hula") == REVIEW_CALIBRATION["hula"] > 1.0


def test_the_allowance_is_taken_before_the_values_are_read_as_chances() -> None:
    before, after = Estimate((0.55, 0.45), 400, False), Estimate((0.45, 0.55), 400, False)
    sd = math.sqrt(2 * 0.45**2 / 400)
    plain = _judged(before, after, 0, 0.45)
    assert plain == pytest.approx(0.10 - sd)  # slope 1: the drop less one deviation, as before
    stretched = _judged(before, after, 0, 0.45, 2.4)
    high, low = 0.55 - sd / 2, 0.45 + sd / 2
    assert stretched == pytest.approx(calibrated_chance(high, 2.4) - calibrated_chance(low, 2.4))
    assert stretched > 2 * plain
    noise = Estimate((0.47, 0.53), 400, False)  # a difference within the noise stays none
    assert _judged(noise, after, 0, 0.45, 2.4) == 0.0 == _judged(noise, after, 0, 0.45)
    lost = Estimate((0.0, 1.0), 0, True)  # exact: no allowance on its side
    assert _judged(before, lost, 0, 0.45, 2.4) == pytest.approx(
        calibrated_chance(0.55 - math.sqrt(0.45**2 / 400), 2.4))


def test_a_step_shows_and_judges_calibrated_chances() -> None:
    final = load_game("t_tictactoe").new_initial_state()
    root = Estimate((0.62, 0.38), 500, False)
    search = PositionSearch(best=1, root=root, children={})
    reference = Estimate((0.6, 0.4), 500, False)
    after = Estimate((0.48, 0.52), 500, False)
    pos = _Position(0, 1, 0, 2, "a", "move", True, 1, search, "b", reference, False)
    plain = _assemble([pos], after, final, 10, 0.02)[0]
    stretched = _assemble([pos], after, final, 10, 0.02, 2.4)[0]
    assert plain.before == (0.6, 0.4) and plain.mark == "inaccuracy"
    assert stretched.before == pytest.approx((calibrated_chance(0.6, 2.4),
                                              calibrated_chance(0.4, 2.4)))
    assert stretched.after[0] == pytest.approx(calibrated_chance(0.48, 2.4))
    assert stretched.mark == "mistake" and stretched.accuracy is not None
    assert plain.accuracy is not None and stretched.accuracy < plain.accuracy


def test_the_fitted_slope_is_the_one_the_results_were_drawn_with() -> None:
    rng = random.Random(7)
    pairs = []
    for _ in range(4000):
        v = rng.uniform(0.05, 0.95)
        pairs.append((v, 1.0 if rng.random() < calibrated_chance(v, 2.0) else 0.0))
    a = fit_slope(pairs)
    assert a == pytest.approx(2.0, abs=0.25)
    assert log_loss(pairs, a) < log_loss(pairs, 1.0)
