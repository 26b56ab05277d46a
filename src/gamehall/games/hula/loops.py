"""The exact shortest loop around the centre and the double-loop tie-break.

The shortest loop (tie-break step 1, with fewest neutrals as step 2) is found exactly in polynomial
time on the two-sheeted cover of the board: cut the board along a half-line from the centre
(`Geometry.rays`); a closed walk of stones surrounds the centre an odd number of times exactly when
it crosses the cut an odd number of times. So the shortest surrounding cycle through a stone ``u``
is the shortest path from ``(u, sheet 0)`` to ``(u, sheet 1)``, where crossing the cut changes
sheet. A shortest such walk never repeats a cell (cutting it at a repeated cell leaves a shorter
odd walk), so it is a real cycle. Both sheets live in one Python int (sheet 1 shifted by `off`),
so one breadth-first layer of the search costs a handful of shifts and ors, and the fewest-neutrals
refinement keeps one mask per neutral count in each layer.
"""

from __future__ import annotations

from functools import cache

from gamehall.games.hula.geometry import Geometry, geometry

Score = tuple[int, int]
"""A loop's (length, neutral stones): compared lexicographically, smaller is better."""


class _Cover:
    """The two-sheeted cover of the board for the cut along one direction (masks, both sheets)."""

    def __init__(self, geo: Geometry, direction: int) -> None:
        self.off = off = (geo.num_rows + 1) * geo.W
        self.low = (1 << off) - 1
        r, a = geo.rays[direction]
        self.r = r | r << off
        self.a = a | a << off
        self.ra = self.r | self.a
        self.plain = ~self.ra
        self.not_r = ~self.r
        self.not_a = ~self.a


@cache
def _covers(size: int) -> tuple[_Cover, ...]:
    geo = geometry(size)
    return tuple(_Cover(geo, d) for d in range(6))


def _cover(geo: Geometry, direction: int) -> _Cover:
    return _covers(geo.size)[direction]


def _best_cut(geo: Geometry, stones: int) -> tuple[int, int]:
    """(direction, start cells): the side of a cut with the fewest stones; every loop uses one."""
    best_d, best_mask, best_n = 0, 0, 1 << 30
    for d, (r, a) in enumerate(geo.rays):
        for side in (r, a):
            m = stones & side
            n = m.bit_count()
            if n < best_n:
                best_d, best_mask, best_n = d, m, n
    return best_d, best_mask


def _search(geo: Geometry, cover: _Cover, allowed: int, neutral: int, start: int,
            max_len: int, layers: list[dict[int, int]] | None = None) -> Score | None:
    """The best (length, neutrals) of a loop through the cell `start` (a bit) within `allowed`.

    Breadth-first on the cover from `start` on sheet 0 to `start` on sheet 1, at most `max_len`
    steps. Each layer maps a neutral count to the mask of states first reached with that count;
    counts are processed in increasing order so each state keeps its fewest neutrals.
    """
    W = geo.W
    off, low, rr, aa, ra = cover.off, cover.low, cover.r, cover.a, cover.ra
    allowed2 = allowed | allowed << off
    neutral2 = neutral | neutral << off
    target = start << off
    layer: dict[int, int] = {0: start}
    seen = start
    if layers is not None:
        layers.append(layer)
    for depth in range(1, max_len + 1):
        new: dict[int, int] = {}
        taken = 0
        for k in sorted(layer):
            m = layer[k]
            plain = m & ~ra
            a = plain << 1
            b = plain >> 1
            nxt = a | b | ((plain | a) >> W) | ((plain | b) << W)
            cross = m & ra
            if cross:
                mr = cross & rr
                ma = cross & aa
                a, b = mr << 1, mr >> 1
                dr = a | b | ((mr | a) >> W) | ((mr | b) << W)
                a, b = ma << 1, ma >> 1
                da = a | b | ((ma | a) >> W) | ((ma | b) << W)
                flip = (dr & aa) | (da & rr)
                nxt |= (dr & ~aa) | (da & ~rr) | (flip >> off) | ((flip & low) << off)
            nxt &= allowed2 & ~seen & ~taken
            if nxt:
                taken |= nxt
                plain_part = nxt & ~neutral2
                if plain_part:
                    new[k] = new.get(k, 0) | plain_part
                neutral_part = nxt & neutral2
                if neutral_part:
                    new[k + 1] = new.get(k + 1, 0) | neutral_part
        if not taken:
            return None
        if layers is not None:
            layers.append(new)
        if taken & target:
            return depth, min(k for k, m in new.items() if m & target)
        seen |= taken
        layer = new
    return None


def _starts(geo: Geometry, allowed: int, through: int | None) -> tuple[_Cover, int]:
    """The cover to search and the cells to start from: the one cell every loop goes through,
    when the caller knows it, else the emptiest side of a cut."""
    if through is not None:
        return _cover(geo, 0), geo.bit[through] & allowed
    d, starts = _best_cut(geo, allowed)
    return _cover(geo, d), starts


def shortest_loop(geo: Geometry, own: int, neutral: int, max_len: int = 1 << 30,
                  through: int | None = None) -> Score | None:
    """The smallest (length, neutrals) over the loops of `own` stones plus `neutral` stones.

    None when there is no loop of length at most `max_len`. Polynomial: at most ``size - 1``
    breadth-first searches over ``2 · cells`` states. `through`: a cell that every loop is known
    to use (the stone that just closed them), searched from alone.
    """
    allowed = own | neutral
    cover, starts = _starts(geo, allowed, through)
    best: Score | None = None
    limit = max_len
    for u in geo.cells_of(starts):
        bit = geo.bit[u]
        found = _search(geo, cover, allowed, neutral, bit, limit)
        if found is not None and (best is None or found < best):
            best = found
            limit = found[0]
        allowed &= ~bit  # later loops through u were already seen
    return best


def shortest_loop_cells(geo: Geometry, own: int, neutral: int) -> list[int]:
    """The cells of one best loop (fewest cells, then fewest neutrals), in order; [] if none."""
    best = shortest_loop(geo, own, neutral)
    if best is None:
        return []
    allowed = own | neutral
    d, starts = _best_cut(geo, allowed)
    cover = _cover(geo, d)
    for u in geo.cells_of(starts):
        layers: list[dict[int, int]] = []
        bit = geo.bit[u]
        if _search(geo, cover, allowed, neutral, bit, best[0], layers) == best:
            return _trace(geo, cover, layers, u, best[1], neutral)
        allowed &= ~bit
    raise AssertionError("the best loop was found once and must be found again")


def _trace(geo: Geometry, cover: _Cover, layers: list[dict[int, int]], start: int, k: int,
           neutral: int) -> list[int]:
    """Walk back through the search layers from (start, sheet 1) to (start, sheet 0)."""
    off = cover.off
    r_side, a_side = cover.r & cover.low, cover.a & cover.low
    cell, sheet = start, 1
    cycle: list[int] = []
    for depth in range(len(layers) - 1, 0, -1):
        cycle.append(cell)
        k -= 1 if neutral & geo.bit[cell] else 0
        prev = layers[depth - 1].get(k, 0)
        for v in geo.neighbours[cell]:
            crossing = bool((geo.bit[v] & r_side and geo.bit[cell] & a_side)
                            or (geo.bit[v] & a_side and geo.bit[cell] & r_side))
            v_sheet = sheet ^ crossing
            if prev & (geo.bit[v] << (off * v_sheet)):
                cell, sheet = v, v_sheet
                break
        else:
            raise AssertionError("broken search layers")
    cycle.reverse()
    return cycle


def _walk_length(geo: Geometry, cover: _Cover, allowed: int, start: int,
                 max_len: int) -> int | None:
    """The length of a shortest loop through the cell `start` (a bit), if at most `max_len`.

    Meet in the middle on the cover: a loop of length L through `start` has a cell reached on
    both sheets within ceil(L / 2) steps, and a cell reached on sheet s at depth t and on the
    other sheet at depth t' closes a loop of length t + t'. So the search stops at the first depth
    where some cell is reached on both sheets, taking the smallest t' there.
    """
    W = geo.W
    off, low, rr, aa, ra, plain_mask = cover.off, cover.low, cover.r, cover.a, cover.ra, cover.plain
    unseen = (allowed | allowed << off) ^ start
    front = start
    layers = [start]
    for depth in range(1, (max_len + 3) // 2):
        plain = front & plain_mask
        a = plain << 1
        b = plain >> 1
        nxt = a | b | ((plain | a) >> W) | ((plain | b) << W)
        cross = front & ra
        if cross:
            mr = cross & rr
            ma = cross & aa
            a, b = mr << 1, mr >> 1
            dr = a | b | ((mr | a) >> W) | ((mr | b) << W)
            a, b = ma << 1, ma >> 1
            da = a | b | ((ma | a) >> W) | ((ma | b) << W)
            flip = (dr & aa) | (da & rr)
            nxt |= (dr & cover.not_a) | (da & cover.not_r) | (flip >> off) | ((flip & low) << off)
        nxt &= unseen
        if not nxt:
            return None
        unseen ^= nxt
        layers.append(nxt)
        mirror = (nxt >> off) | ((nxt & low) << off)
        hit = mirror ^ (mirror & unseen)
        if hit:
            for earlier, layer in enumerate(layers):
                if layer & hit:
                    length = depth + earlier
                    return length if length <= max_len else None
        front = nxt
    return None


def loop_length(geo: Geometry, own: int, neutral: int, max_len: int = 1 << 30,
                through: int | None = None) -> int | None:
    """The length of the shortest loop of `own` plus `neutral` stones, if at most `max_len`
    (`through`: as for `shortest_loop`)."""
    allowed = own | neutral
    cover, starts = _starts(geo, allowed, through)
    best = None
    for u in geo.cells_of(starts):
        bit = geo.bit[u]
        found = _walk_length(geo, cover, allowed, bit, max_len)
        if found is not None:
            best = max_len = found
            max_len -= 1
        allowed ^= bit  # later loops through u were already seen
    return best


def double_loop_winner(geo: Geometry, first: int, second: int, neutral: int,
                       closing: int | None = None) -> int:
    """The colour (0 first, 1 second) that wins when both have a loop: the tie-break ladder.

    1. the shorter shortest loop wins; 2. on equal length, the loop with fewer neutrals (each
    player's best among their shortest loops); 3. otherwise the second colour. `closing`: the
    neutral stone that gave both their loops at once, if known; every loop then goes through it
    (a loop without it would have ended the game before), so the searches start there.
    """
    length_first = loop_length(geo, first, neutral, through=closing)
    if length_first is None:
        return 1
    length_second = loop_length(geo, second, neutral, length_first, through=closing)
    if length_second is None:
        return 0
    if length_second < length_first:
        return 1
    best_first = shortest_loop(geo, first, neutral, through=closing)
    best_second = shortest_loop(geo, second, neutral, through=closing)
    assert best_first is not None and best_second is not None
    return 0 if best_first < best_second else 1
