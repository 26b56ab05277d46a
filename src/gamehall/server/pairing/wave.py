"""One wave of a pool: who plays whom among those waiting. Pure: no I/O, no clock.

Two seats (lichess's pools, `MatchMaking.scala`): each player is linked to their nearest
`NEIGHBOURS` by rating; a link costs the rating gap, less `WAVE_BONUS` for each wave either
player has already waited (capped at `MAX_BONUS_WAVES`), plus `REPEAT_COST` if the two played
each other last; a link that a player's rating range excludes, or whose gap is past
`max_gap` (which grows with the waves waited), is no link. A minimum-cost matching of the
most pairs (`networkx.min_weight_matching`) is the wave's pairing: so the same two meet twice
in a row only when neither has another choice.

Three or four seats (Hau La): tables filled in rating order, highest first: the best-rated
player waiting with the nearest of the next `NEIGHBOURS` who all admit each other (the first
such set in rating order); a player nobody fits waits for the next wave.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

NEIGHBOURS = 8
"""Links per player: the nearest by rating on either side (keeps a wave of 1,000 cheap)."""
CHUNK = 64
"""Players matched at once (`pair_two`)."""
WAVE_BONUS = 12.0
"""Rating points a pairing's cost drops for each wave a player has already waited."""
MAX_BONUS_WAVES = 20
REPEAT_COST = 5000.0
"""Added to the cost of two who played each other last: paired only without another choice."""
BASE_GAP = 400.0
GAP_PER_WAVE = 150.0
"""The widest gap a pair may have: `BASE_GAP`, wider by `GAP_PER_WAVE` for each wave the
longer waiter of the two has waited (a rare game's few players meet in the end)."""


@dataclass(frozen=True)
class Candidate:
    """One player waiting: their entry, rating, the range of ratings they accept (None: any),
    the waves they missed, and whom they played last (player ids)."""

    entry: str
    player: int
    rating: float
    range: tuple[float, float] | None = None
    waves: int = 0
    last: frozenset[int] = field(default_factory=frozenset)

    def accepts(self, other: Candidate) -> bool:
        return self.range is None or self.range[0] <= other.rating <= self.range[1]


def max_gap(a: Candidate, b: Candidate) -> float:
    return BASE_GAP + GAP_PER_WAVE * max(a.waves, b.waves)


def compatible(a: Candidate, b: Candidate) -> bool:
    """Whether `a` and `b` may play: different players, each in the other's range, near
    enough."""
    return a.player != b.player and a.accepts(b) and b.accepts(a) \
        and abs(a.rating - b.rating) <= max_gap(a, b)


def cost(a: Candidate, b: Candidate) -> float:
    """What pairing `a` with `b` costs (lower is better; see the module's docstring)."""
    bonus = WAVE_BONUS * (min(a.waves, MAX_BONUS_WAVES) + min(b.waves, MAX_BONUS_WAVES))
    repeat = REPEAT_COST if b.player in a.last or a.player in b.last else 0.0
    return abs(a.rating - b.rating) - bonus + repeat


def _match(ordered: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """The minimum-cost matching of the most pairs among `ordered` (sorted by rating)."""
    ratings = [c.rating for c in ordered]
    graph = nx.Graph()
    for i, a in enumerate(ordered):
        lo = max(0, i - NEIGHBOURS)
        hi = min(len(ordered), bisect.bisect_right(ratings, a.rating) + NEIGHBOURS)
        for j in range(lo, hi):
            b = ordered[j]
            if j > i and compatible(a, b):
                graph.add_edge(i, j, weight=cost(a, b))
    pairs = []
    for i, j in nx.min_weight_matching(graph):
        a, b = ordered[i], ordered[j]
        pairs.append((a, b) if a.rating >= b.rating else (b, a))
    return pairs


def pair_two(waiting: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """The wave's pairs of two (each pair in rating order, higher first). Matched `CHUNK`
    players at a time in rating order, those left unmatched carried into the next chunk (at
    most `CHUNK` of them): the matching's cost grows with the cube of its players (1,000 at
    once took half a minute), and each player's links reach only their rating neighbours
    anyway."""
    ordered = sorted(waiting, key=lambda c: (c.rating, c.entry))
    pairs: list[tuple[Candidate, Candidate]] = []
    carry: list[Candidate] = []
    for start in range(0, len(ordered), CHUNK):
        part = carry + ordered[start:start + CHUNK]
        got = _match(part)
        pairs += got
        matched = {c.entry for p in got for c in p}
        carry = [c for c in part if c.entry not in matched][-CHUNK:]
    return sorted(pairs, key=lambda p: -p[0].rating)


def pair_tables(waiting: Sequence[Candidate], seats: int) -> list[tuple[Candidate, ...]]:
    """The wave's tables of `seats` (3 or 4), filled in rating order, highest first."""
    left = sorted(waiting, key=lambda c: (-c.rating, c.entry))
    tables: list[tuple[Candidate, ...]] = []
    while len(left) >= seats:
        top = left[0]
        table = next((t for t in itertools.combinations(left[1:1 + NEIGHBOURS], seats - 1)
                      if all(compatible(a, b) for a, b in
                             itertools.combinations((top, *t), 2))), None)
        if table is not None:
            tables.append((top, *table))
            left = [c for c in left[1:] if c not in table]
        else:
            left = left[1:]  # nobody fits with the best: they wait for the next wave
    return tables


def pair_wave(waiting: Sequence[Candidate], seats: int) -> list[tuple[Candidate, ...]]:
    """The wave's tables (pairs when `seats` is 2), each in its seat order."""
    if seats == 2:
        return [tuple(p) for p in pair_two(waiting)]
    return pair_tables(waiting, seats)
