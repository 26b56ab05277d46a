"""Who wins a finished game: the tie-break ladder of stack heights, and the most-stacks variant."""

from __future__ import annotations

from collections.abc import Sequence

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
