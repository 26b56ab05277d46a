"""The sequential probability ratio test of a pairing: stop as soon as the games decide.

The hypotheses are on the expected score s of the first bot against the second (win 1, draw ½,
loss 0): H0 s = s0 against H1 s = s1, with s0 < s1 given as scores (``--sprt 0.5,0.7``; an Elo
difference e is the score 1 / (1 + 10^(−e/400)): 0.7 is about +147 Elo). A game's result is
trinomial (loss, draw, win), and the log-likelihood ratio is the GSPRT approximation that
fishtest uses (M. Van den Bergh, "A GSPRT approximation"): with the observed frequencies p_x of
the results x in {0, ½, 1} over N games,

    LLR = N/2 · ln( Σ p_x (x − s0)² / Σ p_x (x − s1)² ),

the ratio of the fitted variances under each hypothesis (exact in the limit of close s0, s1;
without draws it tends to the binomial SPRT's LLR). A frequency of zero counts as 1e-3, as
fishtest regularises, so that a first game or a clean sweep gives a finite figure. Wald's bounds
decide: H1 is accepted when LLR ≥ ln((1 − β)/α), H0 when LLR ≤ ln(β/(1 − α)); α = β = 0.05
gives ±2.94.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gamehall.core import GamehallError

REGULARISE = 1e-3
"""The count given to a result never seen (fishtest's epsilon)."""

H1 = "H1"
H0 = "H0"


@dataclass(frozen=True)
class SPRT:
    """A test of s = s0 against s = s1 at error rates alpha (false H1) and beta (false H0)."""

    s0: float
    s1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0.0 < self.s0 < self.s1 < 1.0:
            raise GamehallError(f"--sprt needs two scores 0 < s0 < s1 < 1, not "
                                f"{self.s0:g},{self.s1:g}")
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise GamehallError("SPRT error rates must lie between 0 and 0.5")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of H1 over H0 after these results (0 before any game)."""
        n = wins + draws + losses
        if n == 0:
            return 0.0
        counts = [(0.0, losses), (0.5, draws), (1.0, wins)]
        total = sum(c if c else REGULARISE for _, c in counts)
        freqs = [(x, (c if c else REGULARISE) / total) for x, c in counts]
        r0 = sum(p * (x - self.s0) ** 2 for x, p in freqs)
        r1 = sum(p * (x - self.s1) ** 2 for x, p in freqs)
        return 0.5 * n * math.log(r0 / r1)

    def verdict(self, wins: int, draws: int, losses: int) -> str | None:
        """`H1` (the first bot scores s1: stronger), `H0` (it scores s0), or None: play on."""
        value = self.llr(wins, draws, losses)
        if value >= self.upper:
            return H1
        if value <= self.lower:
            return H0
        return None


def parse_sprt(text: str) -> SPRT:
    """``S0,S1`` (scores, e.g. ``0.5,0.7``) as a test at alpha = beta = 0.05."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*,\s*([0-9.]+)\s*", text or "")
    if not match:
        raise GamehallError(f"--sprt takes two scores S0,S1 like 0.5,0.7, not {text!r}")
    try:
        s0, s1 = float(match.group(1)), float(match.group(2))
    except ValueError:
        raise GamehallError(f"--sprt takes two scores S0,S1 like 0.5,0.7, not {text!r}") from None
    return SPRT(s0, s1)
