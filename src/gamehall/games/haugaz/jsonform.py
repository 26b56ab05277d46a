"""The JSON form of a Haugaz position (documented in README.md), both ways.

    {"game": "haugaz", "options": {...},
     "phase": "play",                    # cake_black | cake_white | choose | play
     "black_seat": 1,                    # the seat playing Black; null before the side choice
     "to_move": "black",                 # colour to move in play; null during the setup
     "placed": null,                     # point placed on this turn, awaiting its move
     "passes": 0,                        # passes in a row (2 = the game is over)
     "opened": {"black": true, "white": true},   # first turn had (cake off: placement alone)
     "stacks": {"d4": ["black", "white"]}}       # bottom-to-top colours per occupied point
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, StateFormatError
from gamehall.games.haugaz.board import (
    BLACK,
    CAKE_BLACK,
    CAKE_WHITE,
    COLOURS,
    EMPTY,
    PHASES,
    PLAY,
)
from gamehall.games.haugaz.rules import HaugazState


def state_to_json(state: HaugazState) -> dict[str, Any]:
    """Everything the rules depend on; no history."""
    names = state.geo.names
    playing = state.phase == PLAY
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "phase": PHASES[state.phase],
        "black_seat": state.black_seat,
        "to_move": COLOURS[state.to_move] if playing else None,
        "placed": names[state.placed] if state.placed >= 0 else None,
        "passes": state.passes,
        "opened": {COLOURS[c]: state.opened[c] for c in (0, 1)},
        "stacks": {names[p]: [COLOURS[c] for c in state.stack_colours(p)]
                   for p in range(len(names)) if state.height[p]},
    }


def state_from_json(game: Game, data: Mapping[str, Any]) -> HaugazState:
    """Read a position from `data`, or raise StateFormatError saying what is wrong."""
    game.check_json_header(data)
    state = HaugazState(game)
    _read_stacks(state, data.get("stacks", {}))
    phase = data.get("phase", "play")
    if phase not in PHASES:
        raise StateFormatError(f"'phase' must be one of {', '.join(PHASES)}")
    state.phase = PHASES.index(phase)
    cake = bool(state.game.options["cake"])
    if not cake and state.phase != PLAY:
        raise StateFormatError("without the cake there is no setup phase")
    _read_seat(state, data.get("black_seat"), cake)
    _read_setup_board(state)
    _read_turn(state, data)
    state.refresh()
    if state.phase == PLAY and state.placed >= 0 and not state.legal_actions():
        raise StateFormatError("the stack placed this turn leaves no move to make")
    return state


def _colour(value: object, what: str) -> int:
    if value not in COLOURS:
        raise StateFormatError(f"{what} must be 'black' or 'white', not {value!r}")
    return COLOURS.index(str(value))


def _read_stacks(state: HaugazState, stacks: object) -> None:
    if not isinstance(stacks, Mapping):
        raise StateFormatError("'stacks' maps points to bottom-to-top colour lists")
    for name, pieces in stacks.items():
        point = state.geo.index.get(str(name).strip().lower())
        if point is None:
            raise StateFormatError(f"{name!r} is not a point of this board")
        if state.height[point]:
            raise StateFormatError(f"{name} appears twice")
        if not isinstance(pieces, list) or not pieces:
            raise StateFormatError(f"the stack on {name} must be a non-empty list of colours")
        colours = [_colour(c, f"a piece on {name}") for c in pieces]
        state.height[point] = len(colours)
        state.owner[point] = colours[-1]
        state.bits[point] = sum(c << i for i, c in enumerate(colours))


def _read_seat(state: HaugazState, seat: object, cake: bool) -> None:
    if state.phase != PLAY:
        if seat is not None:
            raise StateFormatError("'black_seat' is null until the side is chosen")
        state.black_seat = None
        return
    if seat not in (0, 1) or isinstance(seat, bool) or (not cake and seat != 0):
        raise StateFormatError("'black_seat' must be 0 or 1 (0 without the cake)")
    state.black_seat = int(seat)


def _read_setup_board(state: HaugazState) -> None:
    stacks = [p for p, h in enumerate(state.height) if h]
    if state.phase == CAKE_BLACK and stacks:
        raise StateFormatError("the board is empty before the black cake stack is placed")
    if state.phase == CAKE_WHITE and (
            len(stacks) != 1 or state.height[stacks[0]] != 1 or state.owner[stacks[0]] != BLACK):
        raise StateFormatError("before the white cake stack only one black stack stands")


def _read_turn(state: HaugazState, data: Mapping[str, Any]) -> None:
    playing = state.phase == PLAY
    to_move = data.get("to_move")
    if playing:
        state.to_move = _colour(to_move, "'to_move'")
    elif to_move is not None:
        raise StateFormatError("'to_move' is null during the setup")
    else:
        state.to_move = BLACK
    passes = data.get("passes", 0)
    if not isinstance(passes, int) or isinstance(passes, bool) or not 0 <= passes <= 2:
        raise StateFormatError("'passes' is 0, 1 or 2")
    state.passes = passes if playing else 0
    opened = data.get("opened", {})
    if not isinstance(opened, Mapping):
        raise StateFormatError("'opened' maps black and white to true or false")
    cake = bool(state.game.options["cake"])
    state.opened = [bool(opened.get(COLOURS[c], cake)) for c in (0, 1)]
    if cake and not all(state.opened):
        raise StateFormatError("with the cake both players have opened")
    state.placed = _read_placed(state, data.get("placed"))


def _read_placed(state: HaugazState, placed: object) -> int:
    if placed is None:
        return -1
    point = state.geo.index.get(str(placed).strip().lower(), EMPTY)
    if state.phase != PLAY or point == EMPTY:
        raise StateFormatError("'placed' names a point during play, or is null")
    if state.height[point] != 1 or state.owner[point] != state.to_move:
        raise StateFormatError(f"the stack placed on {placed} must be one piece of the mover")
    if state.passes or not state.opened[state.to_move]:
        raise StateFormatError("a placement awaiting its move follows no pass and no opening")
    return point
