"""Expected ranks for games of three or four seats: what a review's graph shows there (issue 30).

With more than two seats a winning chance alone hides where a seat stands among the others, so
a review also gives every position each seat's **expected rank** (1: first, n: last):

    rank_i = 1 + Σ_{j ≠ i} P(j finishes ahead of i),   P(j ahead of i) = v_j / (v_i + v_j)

where v is the position's per-seat value from the MCTS root (each seat's expected normalised
return, 0..1; in Hau La, which pays only the winner, each seat's winning chance), and ½ where
both values are 0. That pairwise chance is the one of the Plackett–Luce (Bradley–Terry) model
whose strengths are the seats' values — the model under which each seat's chance of finishing
first is its value, as the search estimates it. Why not the playouts' own ranks: the search
backs up returns only, and a winner-takes-all game's returns do not order the losers, so its
playouts say no more than the values do.

Properties the page relies on: each rank lies in 1..n; a position's ranks sum to n(n + 1)/2
(each pair of seats shares one place), so an even game sits on the middle rank; a certain
winner is 1, and seats with no chance share the last places. Marks are not taken from ranks:
they stay the drop in the mover's winning chance (`accuracy.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

RANKED_SEATS = 3
"""The fewest seats whose reviews carry expected ranks (two seats: the chance says it all)."""


def ahead(mine: float, theirs: float) -> float:
    """The chance that a seat of value `theirs` finishes ahead of one of value `mine`."""
    total = mine + theirs
    return 0.5 if total <= 0.0 else theirs / total


def expected_ranks(values: Sequence[float]) -> tuple[float, ...]:
    """Each seat's expected rank (1..n) from the seats' values (see the module's docstring)."""
    return tuple(1.0 + sum(ahead(v, w) for j, w in enumerate(values) if j != i)
                 for i, v in enumerate(values))
