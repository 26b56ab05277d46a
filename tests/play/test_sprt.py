"""The SPRT's arithmetic against values worked out by hand and against the binomial SPRT."""

from __future__ import annotations

import math

import pytest

from gamehall.core import GamehallError
from gamehall.play.sprt import H0, H1, SPRT, parse_sprt


def test_wald_bounds_at_five_percent() -> None:
    test = SPRT(0.5, 0.7)
    assert test.upper == pytest.approx(math.log(19)) == pytest.approx(2.944, abs=1e-3)
    assert test.lower == pytest.approx(-math.log(19))
    assert SPRT(0.5, 0.7, alpha=0.1, beta=0.2).upper == pytest.approx(math.log(8))
    assert SPRT(0.5, 0.7, alpha=0.1, beta=0.2).lower == pytest.approx(math.log(0.2 / 0.9))


def test_a_value_worked_by_hand() -> None:
    # 60 wins, 20 draws, 20 losses: r0 = .6·.25 + .2·0 + .2·.25 = .2, r1 (s1 = .6) = .6·.16 +
    # .2·.01 + .2·.36 = .17; LLR = 100/2 · ln(.2/.17) = 8.1259
    assert SPRT(0.5, 0.6).llr(60, 20, 20) == pytest.approx(50 * math.log(0.2 / 0.17))
    assert SPRT(0.5, 0.6).llr(60, 20, 20) == pytest.approx(8.1259, abs=1e-4)


def test_without_draws_close_hypotheses_match_the_binomial_sprt() -> None:
    for wins, losses in ((520, 480), (530, 470), (490, 510)):
        exact = wins * math.log(0.52 / 0.5) + losses * math.log(0.48 / 0.5)
        approx = SPRT(0.5, 0.52).llr(wins, 0, losses)
        assert approx == pytest.approx(exact, rel=0.02, abs=0.02)
    assert SPRT(0.5, 0.52).llr(520, 0, 480) == pytest.approx(0.80, abs=0.01)


def test_symmetries() -> None:
    test = SPRT(0.5, 0.7)
    assert test.llr(0, 0, 0) == 0.0
    assert test.llr(10, 4, 6) == pytest.approx(0.0, abs=1e-12)  # score 0.6: halfway
    mirror = SPRT(0.3, 0.5)
    for wins, draws, losses in ((7, 2, 3), (1, 0, 9), (12, 5, 0)):
        assert mirror.llr(losses, draws, wins) == pytest.approx(-test.llr(wins, draws, losses))


def test_verdicts_and_a_clean_sweep_stays_finite() -> None:
    test = SPRT(0.5, 0.7)
    sweep = [test.llr(n, 0, 0) for n in range(1, 12)]
    assert all(math.isfinite(v) for v in sweep) and sweep == sorted(sweep)
    # one win: r0 ≈ .25, r1 ≈ .09 (regularised), LLR ≈ ½ ln(.25/.09) = 0.51
    assert sweep[0] == pytest.approx(0.5 * math.log(0.25 / 0.09), abs=0.01)
    first = next(n for n in range(1, 12) if test.verdict(n, 0, 0) == H1)
    assert first == 6  # 6 · 0.51 = 3.07 ≥ 2.94
    assert test.verdict(5, 0, 0) is None
    assert test.verdict(10, 0, 10) is None  # 20 · ½ ln(.25/.29) = −1.48
    assert test.verdict(20, 0, 20) == H0  # −2.97
    assert test.verdict(3, 4, 3) is None


def test_parse_and_bad_bounds() -> None:
    assert parse_sprt("0.5,0.7") == SPRT(0.5, 0.7)
    assert parse_sprt(" 0.45 , 0.55 ") == SPRT(0.45, 0.55)
    for text in ("0.7,0.5", "0,0.5", "0.5,1", "0.5", "a,b", "1.2.3,4", ""):
        with pytest.raises(GamehallError, match="--sprt"):
            parse_sprt(text)
