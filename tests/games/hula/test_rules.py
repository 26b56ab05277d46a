"""The rules that decide a Hula game: the neutral rule, loops, the pie rule, seats and colours."""

from __future__ import annotations

import random

import pytest

from gamehall.core import IllegalActionError, load_game
from gamehall.games.hula import HulaState
from gamehall.games.hula.escape import has_loop
from gamehall.games.hula.geometry import geometry
from gamehall.games.hula.loops import shortest_loop
from tests.games.hula.helpers import board_of, picture_of, position

FIRST, SECOND = 0, 1


def play(state: HulaState, *moves: str) -> HulaState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def stone(state: HulaState, cell: str) -> str | None:
    return state.to_json()["board"].get(cell)


# --- the neutral rule ----------------------------------------------------------------------------

# First (X) has three groups round c3: d3-e4 (holds the inner-ring cell e4), a1-b2 (on the edge)
# and c4 alone. A stone on c3 would join all three into one group touching both: it is neutral.
MERGE = """
    . . . O O
   . . . . . O
  . . . . . . O
 . . . . . . . O
. . . X * . . . .
 . . X . . . . .
  . . . X . . .
   . X . . . .
    X . . . .
"""


def test_neutral_when_a_stone_merges_several_groups_from_inner_ring_to_edge() -> None:
    state = play(position(5, MERGE), "c3")
    assert stone(state, "c3") == "neutral"
    assert state.current_player() == SECOND and not state.is_terminal()


def test_own_stone_when_the_merged_group_misses_the_edge_then_neutral_later() -> None:
    picture = MERGE.replace("    X . . . .", "    . . . . .").replace(". . . O O", ". . . O .")
    state = play(position(5, picture), "c3")
    assert stone(state, "c3") == "first"  # d3-e4, c4 and b2 now one group, not on the edge
    play(state, "i5")
    assert stone(state, "i5") == "second"
    play(state, "a1")  # a1 joins that group (it holds e4) to the edge
    assert stone(state, "a1") == "neutral"


def test_a_single_group_reaching_the_edge_from_the_inner_ring_makes_a_neutral() -> None:
    state = play(load_game("hula", size=5, pie=False).new_initial_state(),
                 "d4", "i1", "c3", "i2", "b2", "i3")
    play(state, "a1")
    assert stone(state, "a1") == "neutral"
    assert [stone(state, c) for c in ("d4", "c3", "b2")] == ["first"] * 3


def test_no_group_of_one_colour_ever_joins_inner_ring_and_edge() -> None:
    rng = random.Random(3)
    game = load_game("hula", size=5)
    geo = geometry(5)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            for colour in (FIRST, SECOND):
                own = state.stones[colour]
                group = own & geo.inner
                while True:
                    grown = geo.dilater()(group) & own
                    if grown == group:
                        break
                    group = grown
                assert not group & geo.edge


# --- loops ---------------------------------------------------------------------------------------

# First's ring two cells out, with two neutral stones in it, lacks e7.
NEUTRAL_LOOP = """
    . . . . .
   . . . . . .
  . . n X X . O
 . . X . . X . O
. . X . * . . . O
 . . X . . X . O
  . . n X X . O
   . . . . . O
    O . O . O
"""


def test_a_loop_through_neutral_stones_wins_at_once() -> None:
    state = position(5, NEUTRAL_LOOP)
    assert not state.is_terminal()
    play(state, "e7")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert not state.double
    assert shortest_loop(state.geo, state.stones[FIRST], state.neutral) == (12, 2)
    assert {"g3", "c3", "e7"} <= set(state.view(None)["loop"])


# First holds the edge but a1, with neutrals in it; second's stones inside leave a channel.
EDGE_LOOP = """
    X X X X X
   X . . . . X
  X . O O O . n
 X . O . . . . n
X . O . * . . . n
 X . O . . O . n
  X O O O O . n
   X O O O O n
    . X n X n
"""


def test_a_loop_along_the_edge() -> None:
    state = position(5, EDGE_LOOP)
    assert not state.is_terminal()
    play(state, "a1")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert shortest_loop(state.geo, state.stones[FIRST], state.neutral) == (24, 8)
    assert len(state.view(None)["loop"]) == 24


@pytest.mark.parametrize(("size", "radius"), [(5, 1), (5, 3), (6, 2), (7, 1), (7, 4)])
def test_a_ring_closes_a_loop_on_every_size(size: int, radius: int) -> None:
    geo = geometry(size)
    ring = [c for c in range(geo.num_cells) if geo.distance_from_centre(c) == radius]
    last = ring.pop()
    # Second's stones outside the ring, off the row to the right of the centre (so no loop).
    outside = [c for c in range(geo.num_cells)
               if geo.distance_from_centre(c) > radius and geo.coords[c][1] != 0]
    fillers = outside[:len(ring)]
    board = {geo.names[c]: "first" for c in ring} | {geo.names[c]: "second" for c in fillers}
    assert len(fillers) == len(ring)
    state = load_game("hula", size=size).state_from_json(
        {"game": "hula", "options": {"size": size, "pie": True}, "board": board,
         "to_move": "first", "swapped": False})
    assert not state.is_terminal()
    state.apply_action(last)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert len(state.view(None)["loop"]) == 6 * radius


# Second's ring two cells out lacks f6. First's f6 would join f5 (inner ring) to f7-f8 (edge):
# it is neutral, and closes second's ring only.
OPPONENT_LOOP = """
    . . . . .
   . . . . . .
  . . O O O . .
 X . O . X . X X
X . O . * . O . X
 X . O . . O . X
  X . O O O . X
   . . . . . X
    . . . . .
"""


def test_a_neutral_stone_can_give_the_loop_to_the_opponent_alone() -> None:
    state = play(position(5, OPPONENT_LOOP), "f6")
    assert stone(state, "f6") == "neutral"
    assert state.is_terminal() and not state.double
    assert state.returns() == [-1.0, 1.0]
    assert not has_loop(state.geo, state.stones[FIRST] | state.neutral)


def test_every_random_game_ends_with_one_winner_on_its_loop_move() -> None:
    """No draws: the game ends at the latest with the placement that fills the board."""
    rng = random.Random(11)
    for size in (5, 6, 7):
        game = load_game("hula", size=size)
        geo = geometry(size)
        for _ in range(60):
            state = game.new_initial_state()
            before = state
            while not state.is_terminal():
                before = state.clone()
                state.apply_action(rng.choice(state.legal_actions()))
            assert sorted(state.returns()) == [-1.0, 1.0]
            loops = [has_loop(geo, state.stones[c] | state.neutral) for c in (FIRST, SECOND)]
            assert loops[state.winner]
            assert state.double == all(loops)
            assert not any(has_loop(geo, before.stones[c] | before.neutral) for c in (0, 1))
            assert len(state.history()) <= game.max_game_length


# --- the pie rule, seats and colours ---------------------------------------------------------


def test_swap_gives_the_first_stone_and_colour_to_the_answering_seat() -> None:
    state = play(load_game("hula").new_initial_state(), "c3")
    assert state.current_player() == 1
    play(state, "swap")
    assert stone(state, "c3") == "first"
    assert state.swapped and state.colour_of_seat(1) == FIRST and state.colour_of_seat(0) == SECOND
    assert state.current_player() == 0  # the seat that placed c3 now plays the second colour
    play(state, "d3")
    assert stone(state, "d3") == "second"
    assert state.current_player() == 1
    assert state.to_json()["to_move"] == "second"


def test_swap_only_as_the_answer_to_the_first_stone_and_only_with_pie() -> None:
    game = load_game("hula")
    swap = game.geo.num_cells
    state = game.new_initial_state()
    assert swap not in state.legal_actions()
    play(state, "c3")
    assert state.legal_actions()[-1] == swap
    play(state, "d3")
    assert swap not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="only possible as the answer"):
        state.apply_action(swap)
    no_pie = play(load_game("hula", pie=False).new_initial_state(), "c3")
    with pytest.raises(IllegalActionError, match="pie rule is off"):
        no_pie.apply_action(swap)
    swapped = play(game.new_initial_state(), "c3", "swap")
    with pytest.raises(IllegalActionError):
        swapped.apply_action(swap)


@pytest.mark.parametrize("swapped", [False, True])
def test_returns_follow_the_seat_that_owns_the_winning_colour(swapped: bool) -> None:
    state = position(5, NEUTRAL_LOOP, swapped=swapped)
    mover = state.current_player()
    assert mover == (1 if swapped else 0) and state.colour_of_seat(mover) == FIRST
    play(state, "e7")
    expected = [-1.0, -1.0]
    expected[mover] = 1.0
    assert state.returns() == expected
    assert state.to_json()["winner"] == ("second" if swapped else "first")


def test_pictures_round_trip() -> None:
    assert board_of(5, picture_of(position(5, MERGE))) == board_of(5, MERGE)
