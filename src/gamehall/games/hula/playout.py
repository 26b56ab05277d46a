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

from gamehall.games.hula.geometry import Geometry
from gamehall.games.hula.loops import double_loop_winner

Finish = tuple[list[int], list[int], int, int, int, bool, bool]
"""What `random_playout` settled: the actions played (the swap included), the stones per colour,
the neutral stones, the winning colour, the colour to move, whether both closed a loop at once,
and whether a swap was played."""


def random_playout(geo: Geometry, cells: list[int], swap_open: bool, first_stone: bool,
                   turn: int, stones: list[int], inner: list[int], neutral: int, swap_action: int,
                   rng: random.Random) -> Finish:
    """Play uniformly random legal moves from a position to the end of the game.

    The position: the legal actions `cells` (with `swap_action` last when `swap_open`: the pie
    answer is due), `first_stone` when the pie rule is on and the board is empty, the colour to
    move `turn`, and per colour its `stones` and `inner` groups (see `HulaState.inner`).
    The empty cells are ordered uniformly at random (sorted by independent uniform keys) and
    played in that order until the first loop. Where the pie answer is due, `swap` is drawn with
    the probability a uniform choice among the legal actions gives it, 1 / (empty cells + 1);
    it changes who owns which colour, not the order of the stones.
    """
    swap = None  # where in the history a swap goes, if one is drawn
    if swap_open:
        cells = cells[:-1]
        if rng.random() * (len(cells) + 1) < 1:
            swap = 0
    keys = list(map(type(rng).random, repeat(rng, len(geo.bit))))
    order = sorted(cells, key=keys.__getitem__)
    if first_stone and rng.random() * len(order) < 1:
        swap = 1  # the answer to the first stone of `order`
    a = turn  # the colour of moves 0, 2, 4, ... of `order`
    # The neutral rule of one colour depends on that colour's stones only (neutral stones connect
    # nothing), so each colour's stones are settled on their own.
    neutral_cells: set[int] = set()
    sa, lost_a, inner_a = _settle(geo, order[0::2], stones[a], inner[a], neutral_cells)
    sb, lost_b, inner_b = _settle(geo, order[1::2], stones[a ^ 1], inner[a ^ 1], neutral_cells)
    neutral |= lost_a | lost_b
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
    double = end_a == end_b
    if double:
        first, second = (ma, mb) if a == 0 else (mb, ma)
        winner = double_loop_winner(geo, first, second, mn, closing=order[end - 1])
    else:
        winner = a if end_a < end_b else a ^ 1
    moves = order[:end]
    if swap is not None:
        moves.insert(swap, swap_action)
    return (moves, [ma, mb] if a == 0 else [mb, ma], mn, winner, a ^ (end & 1), double,
            swap is not None)


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
