"""Hula's board for one size: cells, names, and bit masks on a padded grid.

Cells use axial coordinates ``(q, r)`` with the centre at ``(0, 0)``; ``r`` grows upwards (row
``a`` is ``r = -(size - 1)``) and ``q`` grows to the right within a row. Each cell is one bit of a
Python int: row ``r + size - 1``, column ``q + size - 1``, on rows ``W = 2 * size`` bits wide. The
spare column on the right of every row keeps shifts from wrapping into the next row, so the six
neighbours of every cell of a mask ``m`` are ``m << 1``, ``m >> 1``, ``m << W``, ``m >> W``,
``m << (W - 1)`` and ``m >> (W - 1)`` — see `dilate`.

Actions are cell indices in notation order (``a1, a2, …`` row by row from the bottom), so the
action space is dense; the swap is the action after the last cell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache

#: The six axial directions, counter-clockwise from "right" (as drawn: x = q + r/2, y = r·√3/2).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

SIZES = (5, 6, 7)


class Geometry:
    """Everything about the board of one size that never changes during a game."""

    def __init__(self, size: int) -> None:
        s = size
        self.size = s
        self.W = W = 2 * s
        self.num_rows = 2 * s - 1
        coords: list[tuple[int, int]] = []
        row_of: list[int] = []
        number_of: list[int] = []
        for i in range(self.num_rows):
            r = i - (s - 1)
            q_lo, q_hi = max(-(s - 1), -(s - 1) - r), min(s - 1, s - 1 - r)
            for n, q in enumerate(range(q_lo, q_hi + 1), start=1):
                coords.append((q, r))
                row_of.append(i)
                number_of.append(n)
        self.coords = coords
        self.row_of = row_of
        self.number_of = number_of
        self.num_cells = len(coords)
        self.row_lengths = [sum(1 for i in row_of if i == row) for row in range(self.num_rows)]
        self.index_of: dict[tuple[int, int], int] = {c: k for k, c in enumerate(coords)}
        self.names = [f"{chr(ord('a') + row_of[k])}{number_of[k]}" for k in range(len(coords))]
        self.index_of_name = {name: k for k, name in enumerate(self.names)}
        self.pos = [(r + s - 1) * W + q + s - 1 for q, r in coords]
        self.bit = [1 << p for p in self.pos]
        grid = self.num_rows * W
        self.cell_at_pos = [-1] * grid
        for k, p in enumerate(self.pos):
            self.cell_at_pos[p] = k
        self.centre = self.index_of[(0, 0)]
        self.centre_bit = self.bit[self.centre]
        self.board = sum(self.bit)
        self.playable = self.board & ~self.centre_bit
        self.neighbours: list[list[int]] = [
            [self.index_of[(q + dq, r + dr)] for dq, dr in DIRECTIONS
             if (q + dq, r + dr) in self.index_of]
            for q, r in coords
        ]
        self.nb = [sum(self.bit[j] for j in ns) for ns in self.neighbours]
        # The six neighbours of each cell in turning order; off the board: the centre, which a
        # path never passes through (see `loops.reroute`).
        self.ring = [
            tuple(self.index_of.get((q + dq, r + dr), self.centre) for dq, dr in DIRECTIONS)
            for q, r in coords
        ]
        self.ring_pos = [
            {self.index_of[(q + dq, r + dr)]: k for k, (dq, dr) in enumerate(DIRECTIONS)
             if (q + dq, r + dr) in self.index_of}
            for q, r in coords
        ]
        self.nb_at_pos = [0] * grid
        for k, p in enumerate(self.pos):
            self.nb_at_pos[p] = self.nb[k]
        self.edge = sum(self.bit[k] for k in range(len(coords)) if len(self.neighbours[k]) < 6)
        self.detours = [self._detours(k) for k in range(len(coords))]
        self.inner = self.nb[self.centre]
        self.rays = [self._ray(d) for d in range(6)]

    def _detours(self, cell: int) -> list[list[tuple[int, tuple[int, ...]]]]:
        """Ways round `cell` between two of its neighbours, for mending a path through it.

        Entry ``7 * k0 + k1`` lists, shorter first, the (mask, cells) of the two arcs of the ring
        of neighbours from ring position `k0` to `k1` (both excluded), each in walking order. For
        an edge cell, entry ``7 * k0 + 6`` lists the walks from `k0` to the nearest edge cell
        (included) either way. Arcs leaving the board contain the centre, which is never free.
        """
        ring = self.ring[cell]
        out: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(42)]
        for k0 in range(6):
            for k1 in range(6):
                if k0 != k1:
                    ways = [tuple(ring[(k0 + t) % 6] for t in range(1, (k1 - k0) % 6)),
                            tuple(ring[(k0 - t) % 6] for t in range(1, (k0 - k1) % 6))]
                    ways.sort(key=len)
                    out[7 * k0 + k1] = [(self.mask_of(w), w) for w in ways]
            if self.edge & self.bit[cell]:
                for step in (1, -1):
                    walk: list[int] = []
                    for t in range(1, 6):
                        x = ring[(k0 + step * t) % 6]
                        if x == self.centre:
                            break
                        walk.append(x)
                        if self.edge & self.bit[x]:
                            out[7 * k0 + 6].append((self.mask_of(walk), tuple(walk)))
                            break
                out[7 * k0 + 6].sort(key=lambda way: len(way[1]))
        return out

    def _ray(self, d: int) -> tuple[int, int]:
        """The two sides of the cut along direction `d`, as masks ``(R, A)``.

        A half-line from the centre's midpoint, turned a hair counter-clockwise from direction
        `d`, passes just beside the cells ``R = {k·e_d : k ≥ 1}`` and crosses exactly the links
        between ``R`` and ``A = {k·e_d + e_(d+1) : k ≥ 0}``: a cycle of cells winds around the
        centre an odd number of times if and only if it uses an odd number of those links.
        """
        (dq, dr), (eq, er) = DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]
        side_r = [self.index_of.get((k * dq, k * dr)) for k in range(1, self.size)]
        side_a = [self.index_of.get((k * dq + eq, k * dr + er)) for k in range(self.size - 1)]
        return (sum(self.bit[k] for k in side_r if k is not None),
                sum(self.bit[k] for k in side_a if k is not None))

    def cells_of(self, mask: int) -> Iterator[int]:
        """The cell indices whose bits are set in `mask`, in increasing bit order."""
        cell_at = self.cell_at_pos
        while mask:
            low = mask & -mask
            yield cell_at[low.bit_length() - 1]
            mask ^= low

    def mask_of(self, cells: Iterable[int]) -> int:
        """The mask of `cells` (repeats allowed)."""
        mask = 0
        for c in cells:
            mask |= self.bit[c]
        return mask

    def distance_from_centre(self, cell: int) -> int:
        q, r = self.coords[cell]
        return max(abs(q), abs(r), abs(q + r))

    def dilater(self) -> Callable[[int], int]:
        """`dilate(m)`: `m` and every neighbour of its cells (unmasked: AND with a board mask)."""
        W = self.W

        def dilate(m: int) -> int:
            a = m << 1
            b = m >> 1
            return m | a | b | ((m | a) >> W) | ((m | b) << W)

        return dilate


@cache
def geometry(size: int) -> Geometry:
    """The (shared, read-only) geometry of the board of side `size`."""
    return Geometry(size)
