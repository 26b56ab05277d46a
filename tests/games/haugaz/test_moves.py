"""Moving: a stack jumps exactly its height along one of the eight lines, onto an empty point on
the board; the stack just placed stays; the blocking option; no half-turns."""

from __future__ import annotations

import pytest

from gamehall.core import IllegalActionError, NotationError
from tests.games.haugaz.helpers import B, W, move_targets, play, position, texts

TALL = [B, W, B]  # height 3, owned by Black


def test_height_three_jumps_exactly_three_in_each_of_eight_directions() -> None:
    state = play(position({"d4": TALL, "h8": [W]}), "h1")
    assert move_targets(state, "d4") == {"d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"}


def test_never_onto_an_occupied_point() -> None:
    state = play(position({"d4": TALL, "g7": [W], "a4": [B, W]}), "h1")
    assert move_targets(state, "d4") == {"d7", "g4", "g1", "d1", "a1", "a7"}
    with pytest.raises(NotationError, match="g7 is occupied"):
        state.string_to_action("d4-g7")


def test_never_off_the_board() -> None:
    state = play(position({"b2": TALL, "h8": [W]}), "h1")
    assert move_targets(state, "b2") == {"b5", "e5", "e2"}
    north_west = state.lay.move + 8 * state.geo.index["b2"] + 7
    with pytest.raises(IllegalActionError, match="it would leave the board"):
        state.apply_action(north_west)


def test_only_exact_height_and_straight_lines_read() -> None:
    state = play(position({"d4": TALL, "h8": [W]}), "h1")
    with pytest.raises(NotationError, match="moves exactly 3 points, not 2"):
        state.string_to_action("d4-d6")
    with pytest.raises(NotationError, match="not a straight line"):
        state.string_to_action("d4-e6")


def test_the_just_placed_stack_cannot_move() -> None:
    state = play(position({"d4": TALL, "h8": [W]}), "e5")
    assert state.placed == state.geo.index["e5"]
    assert move_targets(state, "e5") == set()
    assert all(t.startswith("d4-") for t in texts(state))
    with pytest.raises(IllegalActionError, match="just placed on e5 cannot move"):
        state.apply_action(state.lay.move + 8 * state.geo.index["e5"])


def test_only_own_stacks_move_and_jumps_pass_over_stacks() -> None:
    state = play(position({"d4": TALL, "d5": [W], "d6": [B, W], "e5": [W, B, W]}), "a8")
    assert move_targets(state, "e5") == set()  # White's
    assert "d7" in move_targets(state, "d4")  # over d5 and d6


def test_blocking_option_needs_an_empty_path() -> None:
    state = play(position({"d4": TALL, "d5": [W], "f6": [W]}, blocking=True), "a8")
    assert move_targets(state, "d4") == {"g4", "g1", "d1", "a1", "a4", "a7"}
    with pytest.raises(NotationError, match="blocked at d5"):
        state.string_to_action("d4-d7")


def test_a_placement_that_would_leave_no_move_is_not_offered() -> None:
    # Black's only stack can go to b2 alone (a1 corner, height 1; a2 and b1 taken).
    state = position({"a1": [B], "a2": [W], "b1": [W], "h8": [W]}, size=8)
    places = texts(state) - {"pass"}
    assert "b2" not in places and "c3" in places
    with pytest.raises(IllegalActionError, match="none of your stacks could move"):
        state.apply_action(state.geo.index["b2"])


def test_with_blocking_a_placement_on_the_only_path_is_not_offered() -> None:
    # a1 (height 3) has one move, north-east over b2 and c3 to d4; placing on any of the three
    # would leave no move.
    state = position({"a1": [B, W, B], "a4": [W], "d1": [W], "h8": [W]}, blocking=True)
    places = texts(state) - {"pass"}
    assert {"b2", "c3", "d4"}.isdisjoint(places) and "e5" in places
    state = position({"a1": [B, W, B], "a4": [W], "d1": [W], "h8": [W]})
    places = texts(state) - {"pass"}
    assert "d4" not in places and {"b2", "c3"} <= places  # without blocking only d4 is needed


def test_place_only_offers_every_empty_point_and_may_end_the_turn_there() -> None:
    state = position({"a1": [B], "a2": [W], "b1": [W], "h8": [W]}, stuck="place_only")
    assert "b2" in texts(state)
    play(state, "b2")  # no move is left: the placement is the whole turn
    assert state.to_json()["to_move"] == "white" and state.placed == -1
    state = position({"a1": [B], "a2": [W], "b1": [W], "h8": [W]}, stuck="place_only")
    play(state, "e5")  # a move is possible: it must follow
    assert state.to_json()["to_move"] == "black" and texts(state) == {"a1-b2"}


def test_move_mid_turn_offers_no_pass_and_no_second_placement() -> None:
    state = play(position({"d4": TALL, "h8": [W]}), "h1")
    assert "pass" not in texts(state)
    with pytest.raises(IllegalActionError, match="now move one of your other stacks"):
        state.apply_action(state.geo.index["c3"])
