"""The two no-reversal rules."""

from __future__ import annotations

import pytest

from gamehall.core import NotationError
from tests.games.halali.helpers import board, moves, play, position

HID = {"g7": "?", "a7": "?"}


def test_no_moving_a_tile_straight_back_on_the_next_turn() -> None:
    state = position(board(c3="H^", e1="F", **HID), unrevealed={"tree": 2})
    play(state, "c3-c5", "e1-e2")
    legal = moves(state)
    assert "c5-c3" not in legal
    assert {"c5-c4", "c5-c6", "c5-a5"} <= legal  # shorter, further, sideways: all fine
    with pytest.raises(NotationError, match="straight back to c3"):
        state.string_to_action("c5-c3")
    play(state, "c5-c4", "e2-e3")
    assert "c4-c5" not in moves(state) and "c4-c3" in moves(state)


def test_the_ban_lasts_one_turn_and_a_flip_lifts_it() -> None:
    state = position(board(c3="L", e1="F", **HID), unrevealed={"tree": 2})
    play(state, "c3-c4", "e1-e2")
    assert "c4-c3" not in moves(state)
    play(state, "flip g7", "tree", "e2-e3")
    assert "c4-c3" in moves(state)


def test_no_capturing_back_onto_the_square_just_left() -> None:
    # The hunter steps up from c3; a fox then comes to c3. Shooting it there would put the
    # hunter straight back where it started, which the rule forbids.
    state = position(board(c3="Hv", a3="F", **HID), unrevealed={"tree": 2})
    play(state, "c3-c4", "a3-c3")
    assert "c4xc3" not in moves(state)
    other = position(board(c4="Hv", c3="F", **HID), unrevealed={"tree": 2},
                     previous={"humans": "d4-c4", "beasts": "a3-c3"})
    assert "c4xc3" in moves(other)  # the hunter came from d4 this time


def test_the_reversal_ban_covers_green_tiles_too() -> None:
    state = position(board(a1="D", e1="F", **HID), unrevealed={"tree": 2})
    play(state, "a1-a4", "e1-e2")
    assert "a4-a1" not in moves(state) and "a4-a2" in moves(state)


def test_opponents_just_moved_duck_or_pheasant_is_off_limits() -> None:
    state = position(board(a1="D", b1="P", e1="F", c7="H^", **HID), to_move="beasts",
                     unrevealed={"tree": 2})
    play(state, "a1-a3")
    legal = moves(state)
    assert not any(m.startswith("a3") for m in legal)  # humans may not move that duck
    assert "b1-b3" in legal  # the other green tile is free
    with pytest.raises(NotationError, match="just turned up or moved the duck on a3"):
        state.string_to_action("a3-a4")
    play(state, "c7-c6")
    assert "a3-a1" not in moves(state)  # beasts: no reversing their own last move ...
    assert "a3-a5" in moves(state)  # ... but they may move it again
    play(state, "e1-e2")
    assert "a3-a4" in moves(state)  # humans: the lock lasted one turn


def test_opponents_just_flipped_pheasant_is_off_limits_but_may_be_shot() -> None:
    state = position(board(d6="?", d2="H^", e1="F", **HID), unrevealed={"pheasant": 1, "tree": 2},
                     to_move="beasts")
    play(state, "flip d6", "pheasant")
    legal = moves(state)
    assert not any(m.startswith("d6") for m in legal)
    assert "d2xd6" in legal  # shooting it is not moving it
    assert state.view(0)["locked"] == "d6"


def test_own_flip_does_not_lock_the_tile_for_oneself() -> None:
    state = position(board(d6="?", d2="H^", e1="F", **HID), unrevealed={"duck": 1, "tree": 2})
    play(state, "flip d6", "duck", "e1-e2")
    assert "d6-d7" in moves(state)
