"""Standings: each player's points, tiebreaks and rank, from the games of a tournament.

The tiebreaks are named (`TIEBREAKS`, with a sentence that explains each, shown beside the
standings) and applied in the system's order (`ORDER`): Sonneborn–Berger then Buchholz in a
Swiss, Sonneborn–Berger then wins in a round robin, performance in an arena. A table of three
or four counts each opponent as a game of 1/(n−1), as its points by place do
(`scoring.place_points`). Players level on points and every tiebreak share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from gamehall.server.tournaments.scoring import (
    BYE_POINTS,
    WIN,
    ArenaGame,
    arena_score,
    head_to_head,
    outcome,
    place_points,
)

ARENA, SWISS, ROUND_ROBIN = "arena", "swiss", "round_robin"
SYSTEMS = (ARENA, SWISS, ROUND_ROBIN)

TIEBREAKS: dict[str, tuple[str, str]] = {
    "sonneborn_berger": (
        "Sonneborn–Berger",
        "the points of the opponents you beat, plus half the points of those you drew with: "
        "wins against strong players count most",
    ),
    "buchholz": ("Buchholz", "the sum of your opponents' points: how hard your pairings were"),
    "wins": ("Wins", "how many games you won"),
    "performance": (
        "Performance",
        "your opponents' average rating, plus 500 for each win and minus 500 for each loss, "
        "per game",
    ),
}
"""Each tiebreak's name and what it measures (the page says them in its language)."""

ORDER: dict[str, tuple[str, ...]] = {
    SWISS: ("sonneborn_berger", "buchholz"),
    ROUND_ROBIN: ("sonneborn_berger", "wins"),
    ARENA: ("performance",),
}


@dataclass(frozen=True)
class Entrant:
    id: int
    name: str
    rating: int = 1500
    withdrawn: bool = False


@dataclass(frozen=True)
class Played:
    """A finished game: the players by seat, the room's result by seat (higher is better), how
    many moves it lasted and which seats went berserk (arena)."""

    seats: tuple[int, ...]
    result: tuple[float, ...]
    moves: int = 10
    berserk: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Entrant
    points: Fraction
    tiebreaks: dict[str, Fraction]
    games: int
    on_fire: bool = False


def _points(
    system: str, entrants: Sequence[Entrant], games: Sequence[Played], byes: Iterable[int]
) -> tuple[dict[int, Fraction], dict[int, bool]]:
    points: dict[int, Fraction] = {e.id: Fraction(0) for e in entrants}
    fire: dict[int, bool] = {}
    if system == ARENA:
        sheets: dict[int, list[ArenaGame]] = defaultdict(list)
        for g in games:
            for seat, pid in enumerate(g.seats):
                share = place_points(g.result, seat) if len(g.seats) > 2 else None
                sheets[pid].append(
                    ArenaGame(outcome(g.result, seat), g.moves, seat in g.berserk, share)
                )
        for pid, sheet in sheets.items():
            score = arena_score(sheet)
            points[pid], fire[pid] = Fraction(score.points), score.on_fire
        return points, fire
    for g in games:
        for seat, pid in enumerate(g.seats):
            points[pid] = points.get(pid, Fraction(0)) + place_points(g.result, seat)
    for pid in byes:
        points[pid] = points.get(pid, Fraction(0)) + BYE_POINTS
    return points, fire


def _tiebreaks(
    entrants: Sequence[Entrant], games: Sequence[Played], points: dict[int, Fraction]
) -> dict[int, dict[str, Fraction]]:
    rating = {e.id: e.rating for e in entrants}
    out: dict[int, dict[str, Fraction]] = {
        e.id: {
            "sonneborn_berger": Fraction(0),
            "buchholz": Fraction(0),
            "wins": Fraction(0),
            "performance": Fraction(0),
        }
        for e in entrants
    }
    played: dict[int, int] = defaultdict(int)
    for g in games:
        n = len(g.seats)
        for seat, pid in enumerate(g.seats):
            tb = out[pid]
            played[pid] += 1
            opponents = [(o, q) for o, q in enumerate(g.seats) if o != seat]
            for o, q in opponents:
                tb["sonneborn_berger"] += head_to_head(g.result, seat, o) * points[q] / (n - 1)
                tb["buchholz"] += points[q] / (n - 1)
            tb["wins"] += 1 if outcome(g.result, seat) == WIN else 0
            mean_rating = Fraction(sum(rating[q] for _, q in opponents), n - 1)
            tb["performance"] += mean_rating + 500 * (2 * place_points(g.result, seat) - 1)
    for pid, tb in out.items():
        tb["performance"] = (
            Fraction(round(tb["performance"] / played[pid])) if played[pid] else Fraction(0)
        )
    return out


def standings(
    system: str, entrants: Sequence[Entrant], games: Sequence[Played], byes: Iterable[int] = ()
) -> list[Standing]:
    """The standings, best first: points, then the system's tiebreaks in order (then rating and
    name to list level players steadily; they share the rank)."""
    points, fire = _points(system, entrants, games, byes)
    breaks = _tiebreaks(entrants, games, points)
    order = ORDER[system]
    count: dict[int, int] = defaultdict(int)
    for g in games:
        for pid in g.seats:
            count[pid] += 1

    def key(e: Entrant) -> tuple[Fraction, ...]:
        return (points[e.id], *(breaks[e.id][name] for name in order))

    ranked = sorted(entrants, key=lambda e: (tuple(-x for x in key(e)), -e.rating, e.name.lower()))
    out: list[Standing] = []
    for i, e in enumerate(ranked):
        rank = out[-1].rank if out and key(out[-1].player) == key(e) else i + 1
        out.append(
            Standing(
                rank,
                e,
                points[e.id],
                {name: breaks[e.id][name] for name in order},
                count[e.id],
                fire.get(e.id, False),
            )
        )
    return out


def number(x: Fraction) -> int | float:
    """A point count for JSON: an int where whole, else rounded to 3 places (⅓ of a table)."""
    return int(x) if x.denominator == 1 else round(float(x), 3)
