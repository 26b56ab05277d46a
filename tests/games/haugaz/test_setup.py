"""The two-stack cake rule (distance, side choice, Black first) and the cake-off opening."""

from __future__ import annotations

import pytest

from gamehall.core import IllegalActionError, InvalidOptionError, NotationError, load_game
from gamehall.games.haugaz import HaugazState
from tests.games.haugaz.helpers import play, texts


def new(**options: object) -> HaugazState:
    state = load_game("haugaz", **options).new_initial_state()
    assert isinstance(state, HaugazState)
    return state


def test_first_places_black_then_white_then_second_chooses() -> None:
    state = new()
    assert state.current_player() == 0
    assert "black d4" in texts(state) and all(t.startswith("black ") for t in texts(state))
    play(state, "black d4")
    assert state.current_player() == 0
    assert all(t.startswith("white ") for t in texts(state))
    play(state, "white g7")
    assert state.current_player() == 1
    assert texts(state) == {"play black", "play white"}
    assert state.string_to_action("White") == state.lay.play_white


def test_white_cake_stack_keeps_the_king_move_distance() -> None:
    state = play(new(), "black d4")
    allowed = {t.split()[1] for t in texts(state)}
    geo = state.geo
    d4 = geo.index["d4"]
    expected = {geo.names[p] for p in range(64) if geo.distance(p, d4) >= 3}
    assert allowed == expected
    assert "g7" in allowed and "a1" in allowed and "d7" in allowed and "g4" in allowed
    for near in ("e5", "f6", "b2", "d6", "d4"):
        assert near not in allowed
    with pytest.raises(NotationError, match="at least 3 points from the black one on d4"):
        state.string_to_action("white f6")
    with pytest.raises(NotationError, match="d4 is occupied"):
        state.string_to_action("white d4")


def test_cake_distance_option_and_its_bound() -> None:
    state = play(new(size=5, cake_distance=4), "black a1")
    assert {t.split()[1] for t in texts(state)} == {"e1", "e2", "e3", "e4", "e5",
                                                   "a5", "b5", "c5", "d5"}
    close = play(new(size=5, cake_distance=1), "black c3")
    assert "white c4" in texts(close)
    with pytest.raises(InvalidOptionError, match="at most 4"):
        load_game("haugaz", size=5, cake_distance=5)


def test_black_cake_stack_only_where_the_white_one_still_fits() -> None:
    # On 5x5 with distance 3 the centre c3 is at most 2 from every point.
    state = new(size=5)
    assert "black c3" not in texts(state) and "black c2" in texts(state)
    with pytest.raises(IllegalActionError, match="white stack would not fit"):
        state.apply_action(state.lay.cake_black + state.geo.index["c3"])


@pytest.mark.parametrize(("choice", "black_seat"), [("play black", 1), ("play white", 0)])
def test_side_choice_and_black_moves_first(choice: str, black_seat: int) -> None:
    state = play(new(), "black d4", "white g7", choice)
    assert state.black_seat == black_seat
    assert state.current_player() == black_seat  # Black takes the first turn
    assert state.to_json()["to_move"] == "black"
    play(state, "a1", "d4-d5")  # Black's turn: place, then move Black's stack
    assert state.current_player() == 1 - black_seat
    assert state.to_json()["stacks"]["d5"] == ["black"]


def test_seats_get_the_result_of_their_colour() -> None:
    state = play(new(), "black d4", "white g7", "play black", "pass", "pass")
    assert state.is_terminal()
    # One stack each, of height 1: identical lists, a draw.
    assert state.returns() == [0.0, 0.0]
    state = play(new(), "black d4", "white g7", "play black", "a1", "d4-d5", "pass", "pass")
    assert state.is_terminal() and state.heights(0) == [1, 1]
    assert state.returns() == [-1.0, 1.0]  # second plays Black and wins
    assert "Black (second) wins" in state.outcome_text()


def test_without_cake_each_first_turn_is_a_placement_alone() -> None:
    state = new(cake=False, size=6)
    assert state.current_player() == 0 and state.black_seat == 0
    assert texts(state) == {state.geo.names[p] for p in range(36)} | {"pass"}
    play(state, "c3")
    assert state.current_player() == 1  # the placement was the whole turn
    play(state, "e5")
    assert state.current_player() == 0
    play(state, "a1")  # from the second turn on: place, then move
    assert state.current_player() == 0 and texts(state) == {
        "c3-c4", "c3-d4", "c3-d3", "c3-d2", "c3-c2", "c3-b2", "c3-b3", "c3-b4"}


def test_without_cake_a_passed_first_turn_is_spent() -> None:
    state = play(new(cake=False, size=6), "pass", "e5")
    # Black passed its first turn and owns nothing to move: no possible turn, the game ends.
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert "Black (first) has no possible turn" in state.outcome_text()
