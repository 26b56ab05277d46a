"""Tournament statistics: scores with 95% confidence intervals, and Elo estimates.

A seat's *score* in one game is its return scaled to 0..1 (win 1, draw ½, loss 0 in 2-player
games; in Hau La the winner's 1, a shared first place split). Elo comes from pairwise comparisons
of the seats of different bots in each game, fitted as a Bradley–Terry model with one virtual draw
per pair of bots so that a clean sweep gives a large but finite figure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion `score` observed over `n` trials."""
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denom
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_from_score(score: float) -> float:
    """The Elo difference that makes `score` the expected score (±inf at 1 and 0)."""
    if score >= 1.0 - 1e-9:
        return math.inf
    if score <= 1e-9:  # Wilson bounds of 0 or 1 come back with rounding noise
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class BotTally:
    """One bot's results over a tournament (a game counts once per seat it held)."""

    label: str
    seat_games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_sum: float = 0.0

    @property
    def score(self) -> float:
        return self.score_sum / self.seat_games if self.seat_games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    def interval(self) -> tuple[float, float]:
        """95% interval for the score (Wilson; draws count as half a win)."""
        return wilson_interval(self.score, self.seat_games)


@dataclass
class Standings:
    """Tallies per bot and pairwise scores between bots, built game by game."""

    labels: list[str]
    lo: float = -1.0
    hi: float = 1.0
    tallies: list[BotTally] = field(default_factory=list)
    pair_score: dict[tuple[int, int], float] = field(default_factory=dict)
    pair_count: dict[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.tallies:
            self.tallies = [BotTally(label) for label in self.labels]

    def add_game(self, seat_bots: Sequence[int], returns: Sequence[float]) -> None:
        """Count a finished game: `seat_bots[s]` is the bot index that held seat `s`."""
        span = self.hi - self.lo or 1.0
        top = max(returns)
        leaders = sum(1 for r in returns if r == top)
        for seat, bot in enumerate(seat_bots):
            tally = self.tallies[bot]
            tally.seat_games += 1
            tally.score_sum += (returns[seat] - self.lo) / span
            if returns[seat] < top:
                tally.losses += 1
            elif leaders == 1:
                tally.wins += 1
            else:
                tally.draws += 1
        for i, bi in enumerate(seat_bots):
            for j, bj in enumerate(seat_bots):
                if bi == bj or i == j:
                    continue
                ri, rj = returns[i], returns[j]
                s = 1.0 if ri > rj else 0.5 if ri == rj else 0.0
                self.pair_score[bi, bj] = self.pair_score.get((bi, bj), 0.0) + s
                self.pair_count[bi, bj] = self.pair_count.get((bi, bj), 0) + 1

    def elo(self, anchor: int | None = None, iterations: int = 500) -> list[float]:
        """Elo ratings (Bradley–Terry fit); `anchor` is fixed at 0, else the mean is 0."""
        k = len(self.labels)
        pairs = {(i, j) for (i, j) in self.pair_count}
        played = {frozenset(p) for p in pairs}
        wins = [0.0] * k
        count: dict[tuple[int, int], float] = {}
        for i in range(k):
            for j in range(k):
                if i == j or frozenset((i, j)) not in played:
                    continue
                w = self.pair_score.get((i, j), 0.0) + 0.5  # one virtual draw per pair
                n = self.pair_count.get((i, j), 0) + 1
                wins[i] += w
                count[i, j] = n
        gamma = [1.0] * k
        for _ in range(iterations):
            new = []
            for i in range(k):
                denom = sum(n / (gamma[i] + gamma[j]) for (a, j), n in count.items() if a == i)
                new.append(wins[i] / denom if denom > 0 else gamma[i])
            mean_log = sum(math.log(g) for g in new) / k
            gamma = [g / math.exp(mean_log) for g in new]
        ratings = [400.0 * math.log10(g) for g in gamma]
        base = ratings[anchor] if anchor is not None else 0.0
        return [r - base for r in ratings]

    def pair_interval(self, a: int, b: int) -> tuple[float, float, float] | None:
        """Score of bot a against bot b with its 95% interval, as (low, score, high)."""
        n = self.pair_count.get((a, b), 0)
        if not n:
            return None
        s = self.pair_score[a, b] / n
        low, high = wilson_interval(s, n)
        return (low, s, high)
