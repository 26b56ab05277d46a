"""Round robins (AbstractPlay's automated ones): players sorted by rating into divisions of at
most ten, and in each division everyone meets everyone: two seats by the circle method (Berger
tables, seats alternating), tables of three or four chosen so that every pair of players meets
at least once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

MAX_DIVISION = 10


def divisions(by_rating: Sequence[int], most: int = MAX_DIVISION) -> list[list[int]]:
    """Players (strongest first) cut into as few divisions of at most `most` as can be, their
    sizes as even as can be (the first ones one larger)."""
    n = len(by_rating)
    if n == 0:
        return []
    count = math.ceil(n / most)
    base, extra = divmod(n, count)
    out, at = [], 0
    for d in range(count):
        size = base + (1 if d < extra else 0)
        out.append(list(by_rating[at : at + size]))
        at += size
    return out


def berger_rounds(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every pair once, in n−1 rounds (n rounded up to even; the odd one out rests), by the
    circle method; seats alternate so that nobody sits first much more than second."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        games = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                continue
            games.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(games)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def covering_tables(players: Sequence[int], seats: int) -> list[tuple[int, ...]]:
    """Tables of `seats` from which every pair of players meets at least once (greedy: the
    table that seats the most pairs not yet met, the first found of equals)."""
    if len(players) <= seats:
        return [tuple(players)] if len(players) >= 2 else []
    unmet = {frozenset(p) for p in itertools.combinations(players, 2)}
    tables: list[tuple[int, ...]] = []
    while unmet:
        best = max(
            itertools.combinations(players, seats),
            key=lambda t: sum(1 for p in itertools.combinations(t, 2) if frozenset(p) in unmet),
        )
        tables.append(best)
        unmet -= {frozenset(p) for p in itertools.combinations(best, 2)}
    return tables


def table_rounds(tables: Sequence[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """Tables put into rounds, nobody at two tables of one round (first fit, in order)."""
    rounds: list[list[tuple[int, ...]]] = []
    busy: list[set[int]] = []
    for table in tables:
        for r, seated in enumerate(busy):
            if not seated & set(table):
                rounds[r].append(table)
                seated |= set(table)
                break
        else:
            rounds.append([table])
            busy.append(set(table))
    return rounds


def schedule(by_rating: Sequence[int], seats: int) -> list[list[tuple[int, ...]]]:
    """The whole round robin, round by round (divisions side by side in each round)."""
    per_division: list[list[list[tuple[int, ...]]]] = []
    for division in divisions(by_rating):
        if seats == 2:
            per_division.append([list(r) for r in berger_rounds(division)])
        else:
            per_division.append(table_rounds(covering_tables(division, seats)))
    depth = max((len(d) for d in per_division), default=0)
    return [[t for d in per_division if r < len(d) for t in d[r]] for r in range(depth)]
