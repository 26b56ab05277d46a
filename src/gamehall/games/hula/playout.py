"""Random playouts at full speed, by settling the whole game at once instead of move by move.

A uniformly random playout places the empty cells in a uniformly random order, the colours taking
turns; a swap changes who owns which colour, never which colour places next. So the playout
draws the whole order up front and runs the neutral rule along it (that rule depends on the
past only: cheap to run past the end). Loops only grow: once a colour has one it keeps it. So the
move that ends the game is found afterwards by a galloping then binary search over "has this
colour a loop after t moves?", a flood fill per question, instead of a check per move.

The result is move for move what `apply_action` gives (a test replays playouts through it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gamehall.games.hula.loops import double_loop_winner

if TYPE_CHECKING:
    from gamehall.games.hula.geometry import Geometry
    from gamehall.games.hula.rules import HulaState


def random_playout(state: HulaState, rng: random.Random) -> int:
    """Play uniformly random legal moves to the end of the game; return how many were played.

    The empty cells are ordered uniformly at random (sorted by independent uniform keys) and
    played in that order until the first loop. Where the pie answer is due, `swap` is drawn with
    the probability a uniform choice among the legal actions gives it, 1 / (empty cells + 1);
    it changes who owns which colour, not the order of the stones.
    """
    if state.winner is not None:
        return 0
    geo = state.geo
    cells = state._legal
    swap = None  # where in the history a swap goes, if one is drawn
    if state.swap_open:
        cells = cells[:-1]
        if rng.random() * (len(cells) + 1) < 1:
            swap = 0
    rnd = rng.random
    keys = [rnd() for _ in geo.bit]
    order = sorted(cells, key=keys.__getitem__)
    if state.pie and state.placed == 0 and rnd() * len(order) < 1:
        swap = 1  # the answer to the first stone of `order`
    a = state.turn  # the colour of moves 0, 2, 4, ... of `order`
    sa, sb, neutral, neutral_cells = _neutral_rule(state, order, a)
    end_a, end_b = _loop_times(geo, order, sa | neutral, sb | neutral, neutral_cells)
    end = min(end_a, end_b)
    ma, mb, mn = sa, sb, neutral
    for k in range(end, len(order)):
        c = order[k]
        if c in neutral_cells:
            mn ^= geo.bit[c]
        elif k & 1:
            mb ^= geo.bit[c]
        else:
            ma ^= geo.bit[c]
    if end_a == end_b:
        first, second = (ma, mb) if a == 0 else (mb, ma)
        state.double = True
        winner = double_loop_winner(geo, first, second, mn, closing=order[end - 1])
    else:
        winner = a if end_a < end_b else a ^ 1
    moves = order[:end]
    state.stones = [ma, mb] if a == 0 else [mb, ma]
    state.neutral = mn
    state.winner = winner
    state.turn = a ^ (end & 1)
    state._legal = []
    state.swap_open = state.pie_pending = False
    if swap is not None:
        state.swapped = True
        moves.insert(swap, state.swap)
    state._history.extend(moves)
    return len(moves)


def _loop_times(geo: Geometry, order: list[int], block_a: int, block_b: int,
                neutral_cells: set[int]) -> tuple[int, int]:
    """For each side, the least t such that it has a loop after the first t moves of `order`.

    Walks the game backwards from the full board, where both sides have a loop, taking stones
    off again: per side, the region reachable from the centre only grows, flooding only from a
    freed cell that touches it, until it reaches the edge.
    """
    bit, nb, edge, W = geo.bit, geo.nb, geo.edge, geo.W
    ends = [0, 0]
    regions = []
    rests = []
    for block in (block_a, block_b):
        rest = geo.playable & ~block
        region = front = geo.centre_bit
        while front:
            x = front << 1
            y = front >> 1
            front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
            rest ^= front
            region |= front
        if region & edge:
            raise AssertionError("the board is full and a side has no loop: impossible in Hula")
        regions.append(region)
        rests.append(rest)
    todo = 2
    for k in range(len(order) - 1, -1, -1):
        c = order[k]
        sides = (0, 1) if c in neutral_cells else (k & 1,)
        for side in sides:
            if ends[side]:
                continue
            b = bit[c]
            if not nb[c] & regions[side]:
                rests[side] |= b
                continue
            region, rest, front = regions[side] | b, rests[side], b
            while front and not region & edge:
                x = front << 1
                y = front >> 1
                front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
                rest ^= front
                region |= front
            regions[side], rests[side] = region, rest
            if region & edge:
                ends[side] = k + 1
                todo -= 1
        if not todo:
            break
    return ends[0], ends[1]


def _neutral_rule(state: HulaState, order: list[int], a: int) -> tuple[int, int, int, set[int]]:
    """Place every cell of `order`, colours alternating from `a`, applying the neutral rule.

    Returns the stones of colour `a`, of the other colour, the neutral stones, and the set of
    cells of `order` that became neutral. Only the groups holding an inner-ring cell are tracked
    (`ina`, `inb`); a stone floods only when it joins such a group to other stones, and only
    through the stones outside the inner groups (those never reach the edge).
    """
    geo = state.geo
    bit, nb, edge, W = geo.bit, geo.nb, geo.edge, geo.W
    sa, sb = state.stones[a], state.stones[a ^ 1]
    ina, inb = state.inner[a], state.inner[a ^ 1]  # with the centre: see `HulaState.inner`
    neutral = state.neutral
    neutral_cells: set[int] = set()
    if len(order) & 1:
        order = [*order, -1]
    for ca, cb in zip(order[0::2], order[1::2], strict=True):
        b = bit[ca]
        if nb[ca] & ina:
            group = front = b
            rest = (sa | ina) ^ ina  # own stones outside the inner groups
            if nb[ca] & rest:
                while front and not group & edge:
                    x = front << 1
                    y = front >> 1
                    front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
                    rest ^= front
                    group |= front
            if group & edge:
                neutral |= b
                neutral_cells.add(ca)
            else:
                ina |= group
                sa |= b
        else:
            sa |= b
        if cb < 0:
            break
        b = bit[cb]
        if nb[cb] & inb:
            group = front = b
            rest = (sb | inb) ^ inb  # own stones outside the inner groups
            if nb[cb] & rest:
                while front and not group & edge:
                    x = front << 1
                    y = front >> 1
                    front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
                    rest ^= front
                    group |= front
            if group & edge:
                neutral |= b
                neutral_cells.add(cb)
            else:
                inb |= group
                sb |= b
        else:
            sb |= b
    return sa, sb, neutral, neutral_cells
