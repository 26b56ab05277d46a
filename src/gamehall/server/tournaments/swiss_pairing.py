"""Swiss pairing: two seats by the FIDE Dutch system (`caissify-pairings`, checked by its
authors against bbpPairings; a field past `DUTCH_MAX` by a matching on score groups), tables
of three or four grouped by standing (Board Game Arena's way); a bye never goes twice to one
player while somebody else can take it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from caissify_pairings import generate_pairings

from gamehall.server.tournaments.matching import min_cost_pairs

WHITE, BLACK = "white", "black"
"""What the Dutch system calls the two seats: the first seat is white."""


@dataclass(frozen=True)
class SwissPlayer:
    """A player as the pairing sees them: points so far, rating, the order they joined in
    (1-based), the seat they had each round (white, black, or None for a bye or a table of
    more), which way they floated each round (up, down, none), byes had, opponents met, and
    how often they sat first at a table."""

    id: int
    score: Fraction
    rating: int
    start: int
    colours: tuple[str | None, ...] = ()
    floats: tuple[str, ...] = ()
    byes: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    firsts: int = 0


@dataclass(frozen=True)
class SwissRound:
    tables: list[tuple[int, ...]]
    """The players of each table in seat order (the first seat first)."""
    byes: list[int]


DUTCH_MAX = 64
"""The most players `caissify-pairings`' Dutch engine pairs here: its time grows steeply with
the field in later rounds (on this project's machine a round 4: 60 players 0.6 s, 120 players
8 s, 500 players 38 minutes; benchmarks/README.md). A larger field is paired by
`pair_by_matching`."""
REPEAT = 10_000_000
"""What a rematch costs in `pair_by_matching`: chosen only where no other pairing exists."""


def pair_swiss(players: Sequence[SwissPlayer], round_no: int, rounds: int) -> SwissRound:
    """Two-player games: the FIDE Dutch system up to `DUTCH_MAX` players, past it a
    minimum-cost matching by score groups."""
    if len(players) <= DUTCH_MAX:
        return pair_dutch(players, round_no, rounds)
    return pair_by_matching(players)


def pair_by_matching(players: Sequence[SwissPlayer]) -> SwissRound:
    """A large Swiss round: the bye to `bye_order`'s first (with an odd count), then a
    minimum-cost matching in standing order (`matching.min_cost_pairs`), cost = the score gap
    (in half points) squared × 1000 + the gap in standing, a rematch `REPEAT` more; the first
    seat to whoever had it less often."""
    rest = list(players)
    byes: list[int] = []
    if len(rest) % 2:
        out = bye_order(rest)[0]
        byes.append(out.id)
        rest.remove(out)
    order = sorted(range(len(rest)), key=lambda i: (-rest[i].score, -rest[i].rating, rest[i].start))
    place = {i: n for n, i in enumerate(order)}

    def cost(i: int, j: int) -> int:
        a, b = rest[i], rest[j]
        gap = int(abs(a.score - b.score) * 2)
        return gap * gap * 1000 + abs(place[i] - place[j]) + (REPEAT if b.id in a.opponents else 0)

    def whites(p: SwissPlayer) -> int:
        return sum(1 for c in p.colours if c == WHITE) - sum(1 for c in p.colours if c == BLACK)

    tables: list[tuple[int, ...]] = []
    for i, j in min_cost_pairs(order, cost):
        a, b = rest[i], rest[j]
        tables.append((a.id, b.id) if whites(a) <= whites(b) else (b.id, a.id))
    return SwissRound(tables, byes)


def pair_dutch(players: Sequence[SwissPlayer], round_no: int, rounds: int) -> SwissRound:
    """One round of two-player games by the FIDE Dutch system (at most one bye each)."""
    if len(players) < 2:
        return SwissRound([], [p.id for p in players])
    given = [
        {
            "id": p.id,
            "name": str(p.id),
            "score": float(p.score),
            "rating": p.rating,
            "starting_number": p.start,
            "color_hist": [c for c in p.colours if c is not None],
            "float_history": list(p.floats),
            "bye_count": p.byes,
        }
        for p in players
    ]
    previous = {(p.id, o) for p in players for o in p.opponents}
    found = generate_pairings(
        "dutch", given, previous, round_no, max(rounds, round_no), max_byes_per_player=1
    )
    tables: list[tuple[int, ...]] = [
        (int(t["white_id"]), int(t["black_id"])) for t in found if t.get("black_id") is not None
    ]
    byes = [int(t["white_id"]) for t in found if t.get("black_id") is None]
    return SwissRound(tables, byes)


def table_sizes(n: int, seats: int) -> list[int] | None:
    """Tables for `n` players: as many of `seats` as can be, the rest one seat smaller (never
    under three); None where no such split exists (a bye then)."""
    smaller = seats - 1 if seats > 3 else seats
    for big in range(n // seats, -1, -1):
        rest = n - big * seats
        if rest % smaller == 0:
            return [seats] * big + [smaller] * (rest // smaller)
    return None


def bye_order(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Who takes a bye first: fewest byes so far, then the fewest points, then the lowest
    rating, the latest to join."""
    return sorted(players, key=lambda p: (p.byes, p.score, p.rating, -p.start))


def _repeats(table: Sequence[SwissPlayer]) -> int:
    return sum(1 for a, b in itertools.combinations(table, 2) if b.id in a.opponents)


def _untangle(tables: list[list[SwissPlayer]]) -> None:
    """Swap players between neighbouring tables where that makes fewer pairs meet again."""
    improved = True
    while improved:
        improved = False
        for t, u in itertools.pairwise(range(len(tables))):
            a, b = tables[t], tables[u]
            before = _repeats(a) + _repeats(b)
            if before == 0:
                continue
            for i, j in itertools.product(range(len(a)), range(len(b))):
                a2 = [*a[:i], b[j], *a[i + 1 :]]
                b2 = [*b[:j], a[i], *b[j + 1 :]]
                if _repeats(a2) + _repeats(b2) < before:
                    tables[t], tables[u] = a, b = a2, b2
                    improved = True
                    break


def pair_tables(players: Sequence[SwissPlayer], seats: int) -> SwissRound:
    """One round of tables of `seats` (and `seats` − 1) grouped by standing: the leaders at the
    first table, and so on; neighbouring tables swap players to avoid repeated meetings. Who
    sat first least often sits first."""
    ranked = sorted(players, key=lambda p: (-p.score, -p.rating, p.start))
    byes: list[int] = []
    while ranked and table_sizes(len(ranked), seats) is None:
        out = bye_order(ranked)[0]
        byes.append(out.id)
        ranked.remove(out)
    sizes = table_sizes(len(ranked), seats) or []
    tables: list[list[SwissPlayer]] = []
    at = 0
    for size in sizes:
        tables.append(ranked[at : at + size])
        at += size
    _untangle(tables)
    return SwissRound(
        [tuple(p.id for p in sorted(t, key=lambda p: (p.firsts, p.start))) for t in tables], byes
    )
