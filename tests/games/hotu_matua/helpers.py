"""Constructed Hotu Matua positions for the tests (through the JSON form, as a table would)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gamehall.core import load_game
from gamehall.games.hotu_matua import HotuMatuaGame
from gamehall.games.hotu_matua.rules import HotuMatuaState

GAME = load_game("hotu_matua")
assert isinstance(GAME, HotuMatuaGame)
BOARD = GAME.board
COLS = 5


def cell(row: int, col: int) -> str:
    """The default board's field id at grid (row, col): f1 is the north-west corner."""
    return f"f{row * COLS + col + 1}"


def number(a: str, b: str) -> int:
    """The number on the line between fields a and b of the default board."""
    ia, ib = BOARD.field_index(a), BOARD.field_index(b)
    for line, pair in enumerate(BOARD.line_fields):
        if set(pair) == {ia, ib}:
            return BOARD.line_number[line]
    raise AssertionError(f"{a} and {b} share no line")


def position(ships: Mapping[str, str] | None = None, *, to_move: str = "north",
             unused: Iterable[int] = (), to_roll: int = 0, carried_over: int = 0,
             pearls: Iterable[str] | None = None, owned: Mapping[str, int] | None = None,
             crossed: Mapping[str, list[str]] | None = None, turn: int = 0,
             game: HotuMatuaGame = GAME) -> HotuMatuaState:
    """A position: ships not named stay on their start fields; dice already used are 1s."""
    data = game.new_initial_state().to_json()
    data["ships"].update(ships or {})
    data["to_move"] = to_move
    data["turn"] = turn
    unused_list = sorted(unused)
    total = 5 + carried_over
    rolled = unused_list + [1] * (total - to_roll - len(unused_list))
    data["dice"] = {"carried_over": carried_over, "to_roll": to_roll, "rolled": rolled,
                    "unused": unused_list}
    if pearls is not None:
        data["pearls"] = list(pearls)
    data["owned"] = dict(owned or {"north": 0, "south": 5 - len(data["pearls"])})
    data["crossed"] = dict(crossed or {})
    state = game.state_from_json(data)
    assert isinstance(state, HotuMatuaState)
    return state


def moves(state: HotuMatuaState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: HotuMatuaState, *notation: str) -> HotuMatuaState:
    for text in notation:
        state.apply_action(state.string_to_action(text))
    return state
