"""Both colours closing a loop with one neutral stone: the three-step tie-break, and the exact,
polynomial shortest-loop computation behind it (checked against a brute force)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.core import load_game
from gamehall.games.hula.escape import has_loop
from gamehall.games.hula.geometry import Geometry, geometry
from gamehall.games.hula.loops import (
    double_loop_winner,
    loop_length,
    shortest_loop,
    shortest_loop_cells,
)
from tests.games.hula.helpers import position

FIRST, SECOND = 0, 1

# Step 1, the mover's loop is shorter. First (X) to move has the inner ring but e6, and a line
# from e7 to the edge: X on e6 would join them, so e6 is neutral. That closes X's inner ring
# (6 stones) and second's ring two cells out (12 stones, e7 missing, e6 instead).
STEP1_MOVER_SHORTER = """
    . . . . .
   . . . . . .
  . . O O O . .
 . . O X X O . .
. . O X * . X X X
 . . O X X O . .
  . . O O O . .
   . . . . . .
    X . X . X
"""

# Step 1, the opponent's loop is shorter. Second (O) has the inner ring but e6; first's ring two
# cells out lacks e7 and reaches the edge along row e. X on e6 joins that ring (edge) to e6 (an
# inner-ring cell): neutral. Second's loop has 6 stones, first's 12.
STEP1_OPPONENT_SHORTER = """
    . . . . .
   . . . . . .
  O . X X X . n
 . . X O O X . .
X X X O * . . . O
 . . X O O X . .
  O . X X X . O
   . . . . . .
    O . O . O
"""

# Steps 2 and 3: mirror images. First's loop runs two cells out above row e and three below,
# second's the other way round; both pass through the neutral e3 and, after the move, e7.
# Mirrored top to bottom with colours exchanged the position is the same, so both loops are
# equally long (15) with equally many neutrals (2): step 3, second wins. The extra neutral on e1
# changes who is to move (stones in all: odd, second moves; even, first moves).
SYMMETRIC = """
    O . . . .
   . O O O O .
  . O X X X O .
 . O X . X X O .
. . n . * . . . .
 . X O . O O X .
  . X O O O X .
   . X X X X .
    X . . . .
"""
EXTRA_NEUTRAL = ("\n. . n . * . . . .", "\nn . n . * . . . .")
# Step 2: one stone of a loop replaced by a neutral: same lengths, that loop has 3 neutrals.
FIRST_LOOP_NEUTRAL = ("  . O X X X O .", "  . O X n X O .")
SECOND_LOOP_NEUTRAL = ("  . X O O O X .", "  . X O n O X .")


def variant(*changes: tuple[str, str]) -> str:
    picture = SYMMETRIC
    for old, new in changes:
        assert old in picture
        picture = picture.replace(old, new, 1)
    return picture


CASES = [
    # (name, picture, move, mover colour, first's loop, second's loop, winning colour)
    ("1: mover shorter", STEP1_MOVER_SHORTER, "e6", FIRST, (6, 1), (12, 1), FIRST),
    ("1: opponent shorter", STEP1_OPPONENT_SHORTER, "e6", FIRST, (12, 1), (6, 1), SECOND),
    ("2: mover fewer neutrals", variant(FIRST_LOOP_NEUTRAL), "e7", SECOND, (15, 3), (15, 2),
     SECOND),
    ("2: opponent fewer neutrals", variant(SECOND_LOOP_NEUTRAL), "e7", SECOND, (15, 2), (15, 3),
     FIRST),
    ("2: first to move, fewer", variant(EXTRA_NEUTRAL, SECOND_LOOP_NEUTRAL), "e7", FIRST,
     (15, 2), (15, 3), FIRST),
    ("2: first to move, more", variant(EXTRA_NEUTRAL, FIRST_LOOP_NEUTRAL), "e7", FIRST,
     (15, 3), (15, 2), SECOND),
    ("3: second moves and wins", SYMMETRIC, "e7", SECOND, (15, 2), (15, 2), SECOND),
    ("3: first moves, second wins", variant(EXTRA_NEUTRAL), "e7", FIRST, (15, 2), (15, 2),
     SECOND),
]


@pytest.mark.parametrize("swapped", [False, True], ids=["no swap", "swapped"])
@pytest.mark.parametrize(("name", "picture", "move", "mover", "first_loop", "second_loop",
                          "winner"), CASES, ids=[c[0] for c in CASES])
def test_tie_break_ladder(name: str, picture: str, move: str, mover: int,
                          first_loop: tuple[int, int], second_loop: tuple[int, int], winner: int,
                          swapped: bool) -> None:
    state = position(5, picture, swapped=swapped)
    assert not state.is_terminal()
    assert state.turn == mover
    seat = state.current_player()
    assert seat == mover ^ swapped  # each case runs once with each seat as the mover
    state.apply_action(state.string_to_action(move))
    assert state.to_json()["board"][move] == "neutral"
    assert state.double and state.is_terminal()
    geo = state.geo
    assert shortest_loop(geo, state.stones[FIRST], state.neutral) == first_loop
    assert shortest_loop(geo, state.stones[SECOND], state.neutral) == second_loop
    assert state.winner == winner
    winning_seat = winner ^ swapped
    assert state.returns()[winning_seat] == 1.0 and state.returns()[1 - winning_seat] == -1.0
    view = state.view(seat)
    assert view["winner"] == ("first", "second")[winning_seat]
    assert len(view["loop"]) == (first_loop, second_loop)[winner][0]
    assert "both closed a loop at once" in state.outcome_text()


# --- the shortest loop is exact: a brute force over all simple cycles on small boards ------------


def brute_force(size: int, own: int, neutral: int) -> tuple[int, int] | None:
    """Every simple cycle of stones that cuts the centre off from the edge; the best one.

    Plain enumeration of the cycles (each from its smallest cell) of length 6, then 7, ...: a
    path that cannot close within the current length is dropped. The first length with such a
    cycle is the shortest; among its cycles, the fewest neutrals.
    """
    geo = geometry(size)
    if not has_loop(geo, own | neutral):  # a flood fill: no cycle can surround the centre
        return None
    cells = [c for c in range(geo.num_cells) if geo.bit[c] & (own | neutral)]
    backs = {start: _distances(geo, start, {c for c in cells if c >= start}) for start in cells}
    for length in range(6, len(cells) + 1):
        best: int | None = None
        for start in cells:
            back = backs[start]
            stack: list[list[int]] = [[start]]
            while stack:
                path = stack.pop()
                for nxt in geo.neighbours[path[-1]]:
                    if nxt == start and len(path) == length:
                        if has_loop(geo, geo.mask_of(path)):
                            n = sum(1 for c in path if geo.bit[c] & neutral)
                            best = n if best is None else min(best, n)
                    elif (nxt in back and nxt > start and nxt not in path
                          and len(path) + back[nxt] <= length):
                        stack.append([*path, nxt])
        if best is not None:
            return length, best
    return None


def _distances(geo: Geometry, start: int, cells: set[int]) -> dict[int, int]:
    """Steps from `start` to each of `cells` through `cells` (for pruning only)."""
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for c in frontier:
            for n in geo.neighbours[c]:
                if n in cells and n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def band(size: int, low: int, high: int) -> list[int]:
    geo = geometry(size)
    return [c for c in range(geo.num_cells) if low <= geo.distance_from_centre(c) <= high]


BAND = band(5, 1, 3)


def check_against_brute_force(own: int, neutral: int) -> None:
    geo = geometry(5)
    expected = brute_force(5, own, neutral)
    assert shortest_loop(geo, own, neutral) == expected
    assert loop_length(geo, own, neutral) == (None if expected is None else expected[0])
    assert (expected is not None) == has_loop(geo, own | neutral)
    cells = shortest_loop_cells(geo, own, neutral)
    if expected is None:
        assert cells == []
    else:
        assert len(cells) == expected[0] == len(set(cells))
        assert sum(1 for c in cells if geo.bit[c] & neutral) == expected[1]
        assert all(b in geo.neighbours[a] for a, b in itertools.pairwise([*cells, cells[0]]))
        assert has_loop(geo, geo.mask_of(cells))


def masks_of(kinds: list[int]) -> tuple[int, int]:
    """Cells of BAND: kind < 10 own stone, < 13 neutral, else empty (50%, 15%, 35% on average)."""
    geo = geometry(5)
    own = geo.mask_of([c for c, k in zip(BAND, kinds, strict=True) if k < 10])
    neutral = geo.mask_of([c for c, k in zip(BAND, kinds, strict=True) if 10 <= k < 13])
    return own, neutral


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 19), min_size=len(BAND), max_size=len(BAND)))
def test_shortest_loop_matches_brute_force(kinds: list[int]) -> None:
    check_against_brute_force(*masks_of(kinds))


@pytest.mark.parametrize(("low", "high", "count"), [(1, 3, 60), (2, 4, 30)])
def test_shortest_loop_matches_brute_force_on_seeded_positions(low: int, high: int,
                                                               count: int) -> None:
    """Random stones in rings `low`..`high` (50% own, 15% neutral); rings 2-4 give long loops."""
    geo = geometry(5)
    rng = random.Random(low)
    lengths = set()
    for _ in range(count):
        own = neutral = 0
        for c in band(5, low, high):
            x = rng.random()
            if x < 0.5:
                own |= geo.bit[c]
            elif x < 0.65:
                neutral |= geo.bit[c]
        check_against_brute_force(own, neutral)
        found = shortest_loop(geo, own, neutral)
        lengths.add(found[0] if found else None)
    assert len(lengths) >= 4  # the sample does exercise several loop lengths


def test_shortest_loop_on_hand_made_shapes() -> None:
    geo = geometry(6)
    ring1 = geo.inner
    assert shortest_loop(geo, ring1, 0) == (6, 0)
    ring3 = geo.mask_of(band(6, 3, 3))
    assert shortest_loop(geo, ring3 | ring1, 0) == (6, 0)
    assert shortest_loop(geo, ring3, ring1) == (6, 6)
    assert shortest_loop(geo, ring1 ^ geo.bit[geo.index_of_name["e5"]], 0) is None
    assert loop_length(geo, ring3, 0, max_len=17) is None
    assert loop_length(geo, ring3, 0, max_len=18) == 18
    # A full band two cells wide: the inner ring of the band (12) is the shortest.
    assert shortest_loop(geo, geo.mask_of(band(6, 2, 3)), 0) == (12, 0)


def test_double_loop_winner_is_the_ladder() -> None:
    geo = geometry(6)
    ring1, ring2 = geo.inner, geo.mask_of(band(6, 2, 2))
    e5 = geo.bit[geo.index_of_name["e5"]]
    assert double_loop_winner(geo, ring1 ^ e5, ring2, e5) == FIRST  # 6 against 12
    assert double_loop_winner(geo, ring2, ring1 ^ e5, e5) == SECOND
    assert double_loop_winner(geo, ring1 ^ e5, ring1 ^ e5, e5) == SECOND  # equal: second wins


def test_searching_from_the_closing_stone_gives_the_same_ladder() -> None:
    """After a double loop every loop goes through the closing neutral: starting there agrees
    with the general search."""
    seen = 0
    for size in (5, 6, 7):
        game = load_game("hula", size=size)
        rng = random.Random(size)
        while seen < 12 * (size - 4):
            state = game.new_initial_state()
            state.random_playout(rng)
            if not state.double:
                continue
            seen += 1
            closing = state.history()[-1]
            geo, neutral = state.geo, state.neutral
            for colour in (FIRST, SECOND):
                own = state.stones[colour]
                assert shortest_loop(geo, own, neutral, through=closing) == shortest_loop(
                    geo, own, neutral)
            assert double_loop_winner(geo, state.stones[0], state.stones[1], neutral) == (
                state.winner)
