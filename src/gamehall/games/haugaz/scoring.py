"""Who wins a finished game: the tie-break ladder of stack heights, and the most-stacks variant."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BLACK = 0
WHITE = 1


def heights_by_owner(heights: Sequence[int], owners: Sequence[int], colour: int) -> list[int]:
    """The heights of `colour`'s stacks, tallest first."""
    return sorted((h for h, o in zip(heights, owners, strict=True) if h and o == colour),
                  reverse=True)


def compare_tallest(black: list[int], white: list[int]) -> int:
    """+1 if Black wins, -1 if White wins, 0 for a draw, by the standard ladder.

    Both lists are sorted tallest first; the first difference decides (taller wins); when one
    list is a prefix of the other, the player with more stacks wins; equal lists draw. This is
    exactly Python's list ordering.
    """
    return (black > white) - (black < white)


def winner(black: list[int], white: list[int], objective: str) -> int:
    """+1 Black, -1 White, 0 draw, for `objective` ``tallest`` or ``most_stacks``."""
    if objective == "most_stacks" and len(black) != len(white):
        return 1 if len(black) > len(white) else -1
    return compare_tallest(black, white)


@dataclass(frozen=True)
class Decision:
    """The comparison that decided a finished game, as a player tells it: not every height of
    both sides, only those that broke the tie.

    `kind`: ``count`` (most_stacks: more stacks), ``taller`` (the first height that differs),
    ``more`` (one side's heights end where the other's go on: more stacks), ``same`` (identical
    heights: a draw). `alike`: the tallest heights both sides share before the decision. `won`
    and `lost`: the winner's and the loser's height (``taller``) or number of stacks (``count``,
    ``more``; for ``same`` each side's number of stacks)."""

    kind: str
    alike: tuple[int, ...]
    won: int
    lost: int


def deciding(black: list[int], white: list[int], objective: str) -> Decision:
    """What `winner` compared last to decide between these heights (each tallest first)."""
    if objective == "most_stacks" and len(black) != len(white):
        return Decision("count", (), max(len(black), len(white)), min(len(black), len(white)))
    for at, (b, w) in enumerate(zip(black, white, strict=False)):  # to the shorter one
        if b != w:
            return Decision("taller", tuple(black[:at]), max(b, w), min(b, w))
    shared = min(len(black), len(white))
    if len(black) != len(white):
        return Decision("more", tuple(black[:shared]), max(len(black), len(white)), shared)
    return Decision("same", tuple(black), shared, shared)
