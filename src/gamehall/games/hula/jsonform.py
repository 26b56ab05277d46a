"""Hula's JSON form, written and read (with clear errors for hand-written positions).

    {"game": "hula", "options": {"size": 6, "pie": true},
     "board": {"g5": "first", "d5": "neutral", ...}, "to_move": "first", "swapped": false,
     "last_move": "d5", "winner": null}

`board` maps cells to *colours* (``first``, ``second``, ``neutral``); `to_move` and `winner` name
*seats* (``null`` once the game is over / while it goes on). Colour = seat, unless `swapped`.
`last_move` and `winner` are optional on input (`winner`, if given, must agree with the board).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, GamehallError, StateFormatError
from gamehall.games.hula.notation import (
    SEATS,
    STONE_NAMES,
    action_name,
    parse_action,
    parse_cell,
)
from gamehall.games.hula.rules import HulaState

KEYS = {"game", "options", "board", "to_move", "swapped", "last_move", "winner"}


def state_to_json(state: HulaState) -> dict[str, Any]:
    geo = state.geo
    placed: list[tuple[int, str]] = []
    masks = (state.stones[0], state.stones[1], state.neutral)
    for name, mask in zip(STONE_NAMES, masks, strict=True):
        while mask:  # only the stones there are, not every cell (the hall renders this often)
            low = mask & -mask
            placed.append((geo.cell_at_pos[low.bit_length() - 1], name))
            mask ^= low
    placed.sort()  # cells in board order, as a reader of the JSON expects
    board = {geo.names[cell]: name for cell, name in placed}
    winner = state.winner
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "board": board,
        "to_move": None if winner is not None else SEATS[state.current_player()],
        "swapped": state.swapped,
        "last_move": None if state.last is None else action_name(geo, state.last),
        "winner": None if winner is None else SEATS[state.seat_of_colour(winner)],
    }


def state_from_json(game: Game, data: Mapping[str, Any]) -> HulaState:
    """Rebuild a state from `state_to_json` output or a hand-written position; validate it."""
    game.check_json_header(data)
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise StateFormatError(f"unknown key {unknown[0]!r} in a Hula state "
                               f"(keys: {', '.join(sorted(KEYS))})")
    state = HulaState(game)
    masks = _read_board(state, data.get("board"))
    swapped = data.get("swapped", False)
    if not isinstance(swapped, bool):
        raise StateFormatError("'swapped' is true or false")
    placed = sum(m.bit_count() for m in masks)
    if swapped and not state.pie:
        raise StateFormatError("'swapped' is true but the pie rule is off")
    if swapped and placed == 0:
        raise StateFormatError("'swapped' is true on an empty board: nothing to swap yet")
    for colour in (0, 1):
        turns = (placed + 1 - colour) // 2
        if masks[colour].bit_count() > turns:
            raise StateFormatError(
                f"{placed} stones in all, so the {STONE_NAMES[colour]} colour has placed "
                f"{turns}, but it has {masks[colour].bit_count()} stones on the board")
    state.set_position((masks[0], masks[1]), masks[2], swapped)
    _check_to_move(state, data.get("to_move"))
    _check_winner(state, data.get("winner"))
    state.last_before = _read_last(state, data.get("last_move"))
    return state


def _read_board(state: HulaState, board: object) -> list[int]:
    geo = state.geo
    if not isinstance(board, Mapping):
        raise StateFormatError("'board' is an object mapping cells (like \"e5\") to "
                               "\"first\", \"second\" or \"neutral\"")
    masks = [0, 0, 0]
    seen: dict[int, str] = {}
    for key, value in board.items():
        try:
            cell = parse_cell(geo, str(key))
        except GamehallError as exc:
            raise StateFormatError(f"board: {exc}") from None
        if cell == geo.centre:
            raise StateFormatError(f"board: {geo.names[cell]} is the centre and stays empty")
        if cell in seen:
            raise StateFormatError(f"board: {geo.names[cell]} is given twice "
                                   f"({seen[cell]!r} and {key!r})")
        seen[cell] = str(key)
        kind = value.strip().lower() if isinstance(value, str) else value
        if kind not in STONE_NAMES:
            raise StateFormatError(f"board: {key} holds {value!r}; a stone is \"first\", "
                                   "\"second\" or \"neutral\"")
        masks[STONE_NAMES.index(kind)] |= geo.bit[cell]
    return masks


def _seat(value: object, key: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in SEATS:
        raise StateFormatError(f"'{key}' is a seat, \"first\" or \"second\", not {value!r}")
    return SEATS.index(value.strip().lower())


def _check_to_move(state: HulaState, value: object) -> None:
    seat = _seat(value, "to_move")
    if state.winner is not None:
        return  # the game is over: whoever was written as next to move plays no more
    expected = state.turn ^ state.swapped
    if seat is None:
        raise StateFormatError(f"'to_move' is missing; it is {SEATS[expected]} to move "
                               "(the game is not over)")
    if seat != expected:
        colour = STONE_NAMES[state.turn]
        raise StateFormatError(
            f"'to_move' says {SEATS[seat]}, but with {state.placed} stones on the board the "
            f"{colour} colour moves, and that is seat {SEATS[expected]}"
            f"{' (colours swapped)' if state.swapped else ''}")


def _check_winner(state: HulaState, value: object) -> None:
    seat = _seat(value, "winner")
    actual = None if state.winner is None else state.seat_of_colour(state.winner)
    if seat != actual:
        said = "nobody" if seat is None else SEATS[seat]
        real = "nobody has a loop" if actual is None else f"the board says {SEATS[actual]}"
        raise StateFormatError(f"'winner' says {said}, but {real}")


def _read_last(state: HulaState, value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise StateFormatError(f"'last_move' is a move like \"e5\" or \"swap\", not {value!r}")
    try:
        action = parse_action(state.geo, value)
    except GamehallError as exc:
        raise StateFormatError(f"last_move: {exc}") from None
    if action == state.swap:
        if not state.swapped or state.placed != 1:
            raise StateFormatError("last_move is swap, but the board does not show a swap")
    elif state.empty & state.geo.bit[action] or action == state.geo.centre:
        raise StateFormatError(f"last_move {value} is not a stone on the board")
    return action
