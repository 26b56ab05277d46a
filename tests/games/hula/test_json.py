"""Hula's documented JSON form: written by to_json, read back (also when written by hand)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gamehall.core import GamehallError, StateFormatError, load_game, state_from_json
from tests.games.hula.helpers import position

DOCUMENTED = {
    "game": "hula",
    "options": {"size": 6, "pie": True},
    "board": {"g5": "first", "d5": "neutral", "c3": "second", "h2": "second"},
    "to_move": "first",
    "swapped": False,
}


def test_the_documented_form_is_read_and_written() -> None:
    state = state_from_json(DOCUMENTED)
    data = state.to_json()
    assert list(data)[:5] == ["game", "options", "board", "to_move", "swapped"]
    assert data["board"] == {"c3": "second", "d5": "neutral", "g5": "first", "h2": "second"}
    assert data["to_move"] == "first" and data["swapped"] is False
    assert data["winner"] is None and data["last_move"] is None
    assert state.current_player() == 0
    assert state.game.options == {"size": 6, "pie": True}


def test_hand_written_input_is_forgiving_about_case_and_spaces() -> None:
    data = {**DOCUMENTED, "board": {"G5": "First", " d 5": "NEUTRAL", "c3": "second",
                                    "H2": "Second"}}
    assert state_from_json(data).to_json()["board"] == state_from_json(DOCUMENTED).to_json()[
        "board"]


def test_round_trip_at_every_step_of_random_games() -> None:
    rng = random.Random(5)
    for size, pie in ((5, True), (6, False), (7, True)):
        game = load_game("hula", size=size, pie=pie)
        for _ in range(5):
            state = game.new_initial_state()
            while True:
                data = json.loads(json.dumps(state.to_json()))
                again = game.state_from_json(data)
                assert again.to_json() == data
                assert again.legal_actions() == state.legal_actions()
                assert again.current_player() == state.current_player()
                assert again.returns() == state.returns()
                if state.is_terminal():
                    break
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                again.apply_action(action)
                assert again.to_json() == state.to_json()


def test_a_position_read_from_json_plays_on_like_the_original() -> None:
    rng = random.Random(8)
    game = load_game("hula", size=5)
    for _ in range(30):
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        copy = game.state_from_json(state.to_json())
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            copy.apply_action(action)
            assert copy.to_json() == state.to_json()
        assert copy.returns() == state.returns()


def test_swap_pending_and_swapped_positions() -> None:
    one = {**DOCUMENTED, "board": {"c3": "first"}, "to_move": "second"}
    state = state_from_json(one)
    assert state.action_to_string(state.legal_actions()[-1]) == "swap"
    state.apply_action(state.string_to_action("swap"))
    data = state.to_json()
    assert data["swapped"] is True and data["to_move"] == "first" and data["last_move"] == "swap"
    assert state_from_json(data).to_json() == data


def test_a_finished_game_reads_back_with_its_winner() -> None:
    state = position(5, """
        . . . . .
       . . . . . .
      . . . . . . .
     . . . X . . . .
    . . . X * X . . .
     . . . X X . . .
      . . . . . . .
       O O O O . .
        O . . . .
    """)
    state.apply_action(state.string_to_action("f5"))
    data = state.to_json()
    assert data["winner"] == "first" and data["to_move"] is None and data["last_move"] == "f5"
    again = state_from_json(data)
    assert again.is_terminal() and again.returns() == [1.0, -1.0]
    assert again.to_json() == data


def bad(**changes: Any) -> dict[str, Any]:
    return {**DOCUMENTED, **changes}


@pytest.mark.parametrize(("data", "message"), [
    (bad(board={"f6": "first"}), "f6 is the centre"),
    (bad(board={"z1": "first"}), "no row z"),
    (bad(board={"e11": "first"}), "row e has cells 1–10"),
    (bad(board={"e5": "black"}), "a stone is \"first\", \"second\" or \"neutral\""),
    (bad(board={"e5": "first", "E5": "second"}), "e5 is given twice"),
    (bad(board=["e5"]), "'board' is an object"),
    (bad(to_move="second"), "the first colour moves, and that is seat first"),
    (bad(to_move="third"), "'to_move' is a seat"),
    (bad(to_move=None), "'to_move' is missing"),
    (bad(swapped="no"), "'swapped' is true or false"),
    (bad(swapped=True, options={"size": 6, "pie": False}), "pie rule is off"),
    (bad(board={}, swapped=True, to_move="second"), "nothing to swap"),
    (bad(board={"e5": "first", "e6": "first", "e4": "first", "a1": "second"}, to_move="first"),
     "has placed 2, but it has 3"),
    (bad(board={"f5": "first", "f4": "first", "f3": "first", "f2": "first", "f1": "first",
                "a1": "second", "a2": "second", "a3": "second", "a4": "second",
                "a5": "second"}, to_move="first"), "joining the inner ring to the edge"),
    (bad(colour="red"), "unknown key 'colour'"),
    (bad(winner="first"), "'winner' says first, but nobody has a loop"),
    (bad(last_move="a1"), "not a stone on the board"),
    (bad(last_move="swap"), "does not show a swap"),
])
def test_hand_written_mistakes_get_clear_errors(data: dict[str, Any], message: str) -> None:
    with pytest.raises(StateFormatError, match=message):
        state_from_json(data)


def test_a_state_of_another_game_is_refused() -> None:
    with pytest.raises(StateFormatError, match="not 'hula'"):
        load_game("hula").state_from_json(bad(game="halali"))


def test_impossible_options_are_refused() -> None:
    with pytest.raises(GamehallError, match="size must be one of 5, 6, 7"):
        state_from_json(bad(options={"size": 8}))


def test_options_in_the_state_must_match_the_game() -> None:
    with pytest.raises(StateFormatError, match="options differ"):
        load_game("hula", size=5).state_from_json(DOCUMENTED)
