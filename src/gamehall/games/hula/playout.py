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
from itertools import repeat
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
    keys = list(map(type(rng).random, repeat(rng, len(geo.bit))))
    order = sorted(cells, key=keys.__getitem__)
    if state.pie and state.placed == 0 and rng.random() * len(order) < 1:
        swap = 1  # the answer to the first stone of `order`
    a = state.turn  # the colour of moves 0, 2, 4, ... of `order`
    # The neutral rule of one colour depends on that colour's stones only (neutral stones connect
    # nothing), so each colour's stones are settled on their own.
    neutral_cells: set[int] = set()
    sa, lost_a, inner_a = _settle(geo, order[0::2], state.stones[a], state.inner[a],
                                  neutral_cells)
    sb, lost_b, inner_b = _settle(geo, order[1::2], state.stones[a ^ 1], state.inner[a ^ 1],
                                  neutral_cells)
    neutral = state.neutral | lost_a | lost_b
    end_a, end_b = _loop_times(geo, order, (sb ^ inner_b, inner_b), (sa ^ inner_a, inner_a),
                               neutral_cells)
    end = min(end_a, end_b)
    ma, mb, mn = sa, sb, neutral
    for k in range(end, len(order)):  # take the stones after the end off again
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


def _settle(geo: Geometry, stones: list[int], own: int, inner: int,
            neutral_cells: set[int]) -> tuple[int, int, int]:
    """Place one colour's `stones` in order after its `own` stones, applying the neutral rule.

    Returns the colour's stones and the neutral stones it made (both masks), and its inner
    groups: the stones of its groups holding an inner-ring cell, with the centre (`inner` on
    entry; see `HulaState.inner`). The cells that went neutral are added to `neutral_cells`.
    Only a stone touching the inner groups needs a look; it floods only through the own stones
    outside them (those never reach the edge), its first step being its own neighbourhood.
    """
    bit, nb, edge, W = geo.bit, geo.nb, geo.edge, geo.W
    lost = 0
    for c in stones:
        near = nb[c]
        if near & inner:
            b = bit[c]
            if b & edge:
                lost |= b
                neutral_cells.add(c)
                continue
            rest = own & ~inner
            front = near & rest
            if front:
                group = b | front
                rest ^= front
                while not group & edge:
                    x = front << 1
                    y = front >> 1
                    front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
                    if not front:
                        break
                    rest ^= front
                    group |= front
                else:
                    lost |= b
                    neutral_cells.add(c)
                    continue
                inner |= group
            else:
                inner |= b
        own |= bit[c]
    return own, lost, inner


def _loop_times(geo: Geometry, order: list[int], full_a: tuple[int, int],
                full_b: tuple[int, int], neutral_cells: set[int]) -> tuple[int, int]:
    """For each side, the least t such that it has a loop after the first t moves of `order`.

    Walks the game backwards from the full board, where both sides have a loop, taking stones
    off again: per side, the region reachable from the centre only grows, flooding only from a
    freed cell that touches it, until it reaches the edge. `full_a`, `full_b`: per side, on the
    full board, the other cells than the region and the region itself. A side's region there is
    the centre's component through the other colour's stones: that colour's inner groups.
    """
    bit, nb, edge, W = geo.bit, geo.nb, geo.edge, geo.W
    ends = [0, 0]
    rests = [full_a[0], full_b[0]]
    regions = [full_a[1], full_b[1]]
    todo = 2
    both = (0, 1)
    for k in range(len(order) - 1, -1, -1):
        c = order[k]
        for side in both if c in neutral_cells else (k & 1,):
            if ends[side]:
                continue
            b = bit[c]
            front = nb[c] & regions[side]
            if not front:
                rests[side] |= b
                continue
            region = regions[side] | b
            rest = rests[side]
            front = nb[c] & rest
            rest ^= front
            region |= front
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
