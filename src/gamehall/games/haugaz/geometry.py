"""The board's geometry: point names and the eight straight lines out of every point.

A point's index is ``row * size + column`` with row 0 on Black's side (rank ``1``) and column 0
on the left (file ``a``). Every table is built once per board size and shared by all states.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1),
)
"""(column step, row step) for north, north-east, east, south-east, south, south-west, west,
north-west — the order of a move's direction in its action number."""

DIRECTION_NAMES = ("north", "north-east", "east", "south-east",
                   "south", "south-west", "west", "north-west")


@dataclass(frozen=True)
class Geometry:
    """Names and lines of one board size."""

    size: int
    names: tuple[str, ...]
    """Point index -> name such as ``d4``."""
    index: dict[str, int]
    """Name -> point index."""
    lines: tuple[tuple[int, ...], ...]
    """``lines[p * 8 + d]``: the points from `p` outwards along direction `d`, nearest first, up
    to the board's edge (so the point `k` steps away is ``lines[p * 8 + d][k - 1]``)."""
    jumps: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]
    """``jumps[p * size + h]`` (1 <= h < size): (direction, target, points jumped over) of every
    jump of length `h` from `p` that stays on the board — the move generator's table."""

    @property
    def points(self) -> int:
        return self.size * self.size

    def distance(self, a: int, b: int) -> int:
        """King-move (Chebyshev) distance between two points."""
        ra, ca = divmod(a, self.size)
        rb, cb = divmod(b, self.size)
        return max(abs(ra - rb), abs(ca - cb))

    def direction_between(self, a: int, b: int) -> tuple[int, int] | None:
        """(direction, steps) of the straight line from `a` to `b`, or None if there is none."""
        ra, ca = divmod(a, self.size)
        rb, cb = divmod(b, self.size)
        dr, dc = rb - ra, cb - ca
        steps = max(abs(dr), abs(dc))
        if steps == 0 or (dr and dc and abs(dr) != abs(dc)):
            return None
        unit = (_sign(dc), _sign(dr))
        return DIRECTIONS.index(unit), steps


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def column_letter(col: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[col]


@cache
def geometry(size: int) -> Geometry:
    """The geometry of a `size` x `size` board (cached)."""
    names = tuple(f"{column_letter(p % size)}{p // size + 1}" for p in range(size * size))
    lines: list[tuple[int, ...]] = []
    for p in range(size * size):
        row, col = divmod(p, size)
        for dc, dr in DIRECTIONS:
            line: list[int] = []
            r, c = row + dr, col + dc
            while 0 <= r < size and 0 <= c < size:
                line.append(r * size + c)
                r, c = r + dr, c + dc
            lines.append(tuple(line))
    jumps = []
    for p in range(size * size):
        for h in range(size):
            jumps.append(tuple((d, line[h - 1], line[:h - 1])
                               for d, line in enumerate(lines[p * 8:p * 8 + 8])
                               if 0 < h <= len(line)))
    return Geometry(size, names, {n: i for i, n in enumerate(names)}, tuple(lines),
                    tuple(jumps))
