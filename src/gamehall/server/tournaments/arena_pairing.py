"""Arena pairing (lichess's `AntmaPairing`): whoever is waiting is paired at once by a
minimum-cost perfect matching, cost = the rank gap weighted more near the top, plus the rating
gap; the opponent just played is never met again while anybody else waits.

`matching.min_cost_pairs`: as many pairs as the waiting allow, and among those the cheapest.
With an odd number waiting, one waits for the next pairing (the matching's choice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gamehall.server.tournaments.matching import min_cost_pairs
from gamehall.server.tournaments.swiss_pairing import table_sizes

REPEAT_COST = 1_000_000
"""Added to the cost of a pair that just played each other: paired again only when no perfect
matching without it exists (two players alone in the arena)."""


@dataclass(frozen=True)
class Waiting:
    id: int
    rank: int
    """1 for the leader."""
    rating: int
    last_opponent: int | None = None


def pair_cost(a: Waiting, b: Waiting, max_rank: int) -> int:
    """lichess's cost: |rank gap| × (300 + 1700 × (max_rank − better rank) / max_rank) +
    |rating gap|, so the leaders meet leaders and the rest are paired by rating; a rematch of
    the last game costs `REPEAT_COST` more."""
    top = min(a.rank, b.rank)
    factor = 300 + 1700 * (max_rank - top) // max(1, max_rank)
    cost = abs(a.rank - b.rank) * factor + abs(a.rating - b.rating)
    if a.last_opponent == b.id or b.last_opponent == a.id:
        cost += REPEAT_COST
    return cost


def table_arena(
    waiting: Sequence[Waiting], seats: int, firsts: Mapping[int, int]
) -> list[tuple[int, ...]]:
    """Tables of 3–4 (Hau La) of the waiting, grouped by rank (then rating): as many tables
    of `seats` as can be and the rest one seat smaller (`swiss_pairing.table_sizes`); the
    lowest ranked wait for the next pairing where no split exists. At each table the player
    who sat first least often sits first."""
    order = sorted(waiting, key=lambda w: (w.rank, -w.rating, w.id))
    sizes = table_sizes(len(order), seats)
    while sizes is None:
        order = order[:-1]
        sizes = table_sizes(len(order), seats)
    tables: list[tuple[int, ...]] = []
    at = 0
    for size in sizes:
        ids = [w.id for w in order[at : at + size]]
        at += size
        first = min(ids, key=lambda p: firsts.get(p, 0))
        tables.append((first, *(p for p in ids if p != first)))
    return tables


def pair_arena(waiting: Sequence[Waiting]) -> list[tuple[int, int]]:
    """Pairs (ids) of a minimum-cost maximum matching of the waiting (in windows of 50 by
    rank past that, `matching.min_cost_pairs`); the better ranked first, leaders first."""
    if len(waiting) < 2:
        return []
    max_rank = max(w.rank for w in waiting)
    order = sorted(range(len(waiting)), key=lambda i: (waiting[i].rank, waiting[i].id))
    found = min_cost_pairs(order, lambda i, j: pair_cost(waiting[i], waiting[j], max_rank))
    pairs = sorted(found, key=lambda p: order.index(p[0]))
    return [(waiting[a].id, waiting[b].id) for a, b in pairs]
