"""Ratings per game: OpenSkill's Plackett–Luce model on the familiar 1500 scale. Pure logic.

Why OpenSkill and not Glicko-2: Hau La seats two to four players and its winners may share the
win, and OpenSkill rates any number of players with ties in one update (Glicko-2 is defined
for two players; a four-player game would have to be cut into pairs, which double-counts it).
One model for all five games keeps every rating on one scale. The `openskill` package is
maintained, typed, MIT licensed and fast (compiled); its Weng–Lin models are published work.

The model's defaults (mu 25, sigma 25/3) are scaled by 60 to mu 1500, sigma 500, so ratings
look like the Elo and Glicko numbers players know. `rating` is mu (it moves the way results
go: a win never lowers it); leaderboards order by the conservative estimate mu − 3·sigma, so
one lucky first win does not top the list.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from openskill.models import PlackettLuce

MU = 1500.0
SIGMA = 500.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)
"""OpenSkill's default parameters, every one scaled by the same factor 60."""

K = TypeVar("K", bound=Hashable)

PROVISIONAL_SIGMA = 250.0
"""A rating whose deviation is above this (about the first 15 games) is marked provisional."""

RATED_ENDINGS = frozenset({"rules", "resign", "time", "claim"})
"""How a rated game may end and count: by the rules, a resignation, a flag fall, or a claim
against an absent player. An abandoned game (`abandon`) changes no rating."""


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game: the model's mu and sigma, and how many games made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The number players see."""
        return round(self.mu)

    @property
    def conservative(self) -> float:
        """mu − 3·sigma: the rating the player is very likely above (leaderboard order)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def to_json(self) -> dict[str, int | bool]:
        return {"rating": self.shown, "deviation": round(self.sigma), "games": self.games,
                "provisional": self.provisional}


def ranks(result: Sequence[float]) -> list[int]:
    """Places from a result (higher is better): 1 for the best, equal results share a place."""
    best = sorted(set(result), reverse=True)
    return [best.index(r) + 1 for r in result]


def rate(table: Sequence[tuple[K, Rating]], result: Sequence[float]) -> dict[K, Rating]:
    """The new rating of every identity at the table after a game with `result` (one score per
    seat, in seat order; higher is better, equal scores are a shared place).

    An identity may hold several seats (two `mcts:hard` bots in one Hau La game): each seat is
    rated from the identity's rating before the game, and its new rating is the mean of its
    seats' results, counting one game."""
    if len(table) != len(result) or len(table) < 2:
        raise ValueError("a rated game needs one result per seat and at least two seats")
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for _, r in table]
    rated = MODEL.rate(teams, ranks=[float(p) for p in ranks(result)])
    posts: dict[K, list[tuple[float, float]]] = {}
    for (key, _), [new] in zip(table, rated, strict=True):
        posts.setdefault(key, []).append((new.mu, new.sigma))
    before = dict(table)
    out: dict[K, Rating] = {}
    for key, seats in posts.items():
        mu = sum(m for m, _ in seats) / len(seats)
        sigma = sum(s for _, s in seats) / len(seats)
        out[key] = Rating(mu, sigma, before[key].games + 1)
    return out


def outcome_word(result: Sequence[float], seat: int) -> str:
    """How the game went for one seat: win, loss or draw (a shared win is a win)."""
    if max(result) == min(result):
        return "draw"
    return "win" if result[seat] == max(result) else "loss"
