"""Escape paths: the cheap certificate that a colour has no loop yet.

A colour has a loop when its stones and the neutral stones cut the centre off from the edge. The
engine keeps, per colour, one *escape path* — cells from the centre to an edge cell, none of them
that colour's or neutral — and the mask of its empty cells. Only a stone put on one of those cells
can close a loop, so every other move costs nothing. When the path is hit it is mended: first by a
detour round the filled cell through its ring of neighbours, else by a breadth-first search from
the nearer end (the centre, or all free edge cells) that stops at the old path's other side of
the filled cell. Only when that search fails has the colour a loop.

The hot functions are closures over one board's constants (`Escaper`), built once per size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from gamehall.games.hula.geometry import Geometry, geometry

Search = Callable[[int, int, int], tuple[list[int], int, int] | None]
Mend = Callable[[list[int], int, int, int, int], int]


@dataclass(frozen=True)
class Escaper:
    """The hot functions for one size: `search(block, empty, target)`,
    `mend(path, esc, cell, block, empty)` and `looped(block)`."""

    search: Search
    mend: Mend
    looped: Callable[[int], bool]


def escape_path(geo: Geometry, block: int, empty: int) -> tuple[list[int], int] | None:
    """A shortest path from the centre to an edge cell avoiding `block`: (cells, empty cells).

    The cells run from the centre (included) out to the edge; the mask holds the path's empty
    cells. None when there is no such path: the stones of `block` form a loop.
    """
    found = escaper(geo.size).search(block, empty, geo.edge)
    return None if found is None else (found[0], found[1])


def has_loop(geo: Geometry, block: int) -> bool:
    """True when the stones of `block` cut the centre off from every edge cell."""
    return escaper(geo.size).looped(block)


def mend_escape(geo: Geometry, path: list[int], esc: int, cell: int, block: int,
                empty: int) -> int:
    """See `Escaper.mend` (this form takes the geometry; the playout uses the closure)."""
    return escaper(geo.size).mend(path, esc, cell, block, empty)


@cache
def escaper(size: int) -> Escaper:
    """The escape-path functions for the board of side `size`."""
    geo = geometry(size)
    W, playable, edge, inner = geo.W, geo.playable, geo.edge, geo.inner
    centre, centre_bit = geo.centre, geo.centre_bit
    bit, cell_at, nb_at = geo.bit, geo.cell_at_pos, geo.nb_at_pos
    ring_pos, detours = geo.ring_pos, geo.detours

    def bfs(front: int, unseen: int, target: int, empty: int) -> tuple[list[int], int] | None:
        """Breadth-first from the cells of `front` through `unseen` to a cell of `target`.

        Returns (cells from the target cell back to a start cell, their mask), or None when no
        target cell can be reached. Walking back, the opponent's stones (occupied cells that are
        not in `empty`) are preferred: they can never block a path later.
        """
        hit = front & target
        layers: list[int] = []
        while not hit:
            layers.append(front)
            a = front << 1
            b = front >> 1
            front = (a | b | ((front | a) >> W) | ((front | b) << W)) & unseen
            if not front:
                return None
            unseen ^= front
            hit = front & target
        taken = hit ^ (hit & empty)
        if taken:
            hit = taken
        cur = hit & -hit
        pos = cur.bit_length() - 1
        cells = [cell_at[pos]]
        mask = cur
        for layer in reversed(layers):
            cand = nb_at[pos] & layer
            taken = cand ^ (cand & empty)
            if taken:
                cand = taken
            cur = cand & -cand
            pos = cur.bit_length() - 1
            cells.append(cell_at[pos])
            mask |= cur
        return cells, mask

    def search(block: int, empty: int, target: int) -> tuple[list[int], int, int] | None:
        """A shortest path from the centre through cells outside `block` to a cell of `target`:
        (its cells from the centre, its empty cells, the target cell's bit), or None."""
        found = bfs(centre_bit, playable & ~block, target, empty)
        if found is None:
            return None
        cells, mask = found
        end = bit[cells[0]]
        cells.reverse()
        return cells, mask & empty, end

    def mend(path: list[int], esc: int, cell: int, block: int, empty: int) -> int:
        """`cell` on an escape path (`path`, its empty cells `esc`) was just filled.

        `block` is the path owner's stones with the neutrals, `empty` the empty cells now. Mends
        `path` in place and returns the new mask of its empty cells, or -1 when no path is left:
        the owner has a loop. A detour round the cell first; else a search from the nearer end
        of the path (centre or edge) to the part of the path beyond the cell.
        """
        passable = playable & ~block
        i = path.index(cell)
        where = ring_pos[cell]
        n = len(path)
        ways = detours[cell][7 * where[path[i - 1]] + (6 if i + 1 == n else where[path[i + 1]])]
        for mask, way in ways:
            if mask & passable == mask:
                path[i:i + 1] = way
                for x in way:
                    if path.count(x) > 1:
                        _shortcut(path)
                        whole = 0
                        for y in path:
                            whole |= bit[y]
                        return whole & empty
                return (esc ^ bit[cell]) | (mask & empty)
        if 2 * i < n:  # search outwards from the centre to the rest of the path or the edge
            suffix = path[i + 1:]
            tail = 0
            for x in suffix:
                tail |= bit[x]
            found = bfs(centre_bit, passable, edge | tail, empty)
            if found is None:
                return -1
            cells, mask = found
            cells.reverse()
            if bit[cells[-1]] & tail:
                rest = suffix[suffix.index(cells[-1]) + 1:]
                for x in rest:
                    mask |= bit[x]
                cells.extend(rest)
        else:  # search inwards from the free edge cells to the start of the path
            head = 0
            for x in path[1:i]:
                head |= bit[x]
            front = edge & passable
            found = bfs(front, passable ^ front, head | inner, empty)
            if found is None:
                return -1
            cells, mask = found
            keep = path[:path.index(cells[0])] if bit[cells[0]] & head else [centre]
            for x in keep:
                mask |= bit[x]
            cells[:0] = keep
        path[:] = cells
        return mask & empty

    def looped(block: int) -> bool:
        """True when `block` cuts the centre off from the edge (a flood fill, no path kept)."""
        unseen = playable & ~block
        front = centre_bit
        while True:
            a = front << 1
            b = front >> 1
            front = (a | b | ((front | a) >> W) | ((front | b) << W)) & unseen
            if not front:
                return True
            if front & edge:
                return False
            unseen ^= front

    return Escaper(search, mend, looped)


def _shortcut(path: list[int]) -> None:
    """Cut the loops out of a walk that visits some cell twice, in place."""
    out: list[int] = []
    index: dict[int, int] = {}
    for x in path:
        j = index.get(x)
        if j is not None and j < len(out) and out[j] == x:
            del out[j + 1:]
        else:
            index[x] = len(out)
            out.append(x)
    path[:] = out
