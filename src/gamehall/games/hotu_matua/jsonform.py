"""The JSON form of a Hotu Matua position, and reading it back with clear errors.

    {"game": "hotu_matua", "options": {"board": "", "turn_limit": 200},
     "board_digest": "<digest of the board file>", "to_move": "north", "turn": 0,
     "ships": {"N1": "f1", ..., "S4": "f55"}, "pearls": ["f22", ...],
     "owned": {"north": 0, "south": 0},
     "dice": {"carried_over": 0, "to_roll": 5, "rolled": [], "unused": []},
     "crossed": {"N1": ["f1-f6"]}, "over": false, "winner": null}

``pearls`` are those still on the board; ``unused`` is sorted; ``crossed`` lists, for the mover's
ships, the lines (``a-b`` field ids) crossed this turn. A hand-written position is accepted as it
stands: conquest is checked only when an action is applied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from gamehall.core import Game, StateFormatError
from gamehall.games.hotu_matua.board import Board
from gamehall.games.hotu_matua.notation import SHIPS_PER_SEAT, parse_ship, ship_label
from gamehall.games.hotu_matua.rules import BASE_DICE, MAX_EXTRA, HotuMatuaState

SEATS = ("north", "south")


def state_to_json(state: HotuMatuaState) -> dict[str, Any]:
    board = state.board
    ids = board.ids
    crossed: dict[str, list[str]] = {}
    for k, lines in enumerate(state.crossed):
        if lines:
            crossed[ship_label(state.player, k)] = sorted(board.line_name(x) for x in lines)
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "board_digest": board.digest,
        "to_move": SEATS[state.player],
        "turn": state.turn,
        "ships": {ship_label(s, k): ids[state.ships[s * SHIPS_PER_SEAT + k]]
                  for s in range(2) for k in range(SHIPS_PER_SEAT)},
        "pearls": [ids[p] for p in state.pearls],
        "owned": {SEATS[s]: state.owned[s] for s in range(2)},
        "dice": {
            "carried_over": state.extra,
            "to_roll": state.to_roll,
            "rolled": list(state.rolled),
            "unused": [v for v in range(1, 5) for _ in range(state.unused[v])],
        },
        "crossed": crossed,
        "over": state.over,
        "winner": SEATS[state.winner] if state.winner is not None else None,
    }


def state_from_json(game: Game, data: Mapping[str, Any]) -> HotuMatuaState:
    """Rebuild a position, checking that it is one the rules allow."""
    game.check_json_header(data)
    fresh = HotuMatuaState(game)
    board = fresh.board
    try:
        if data.get("board_digest", board.digest) != board.digest:
            raise StateFormatError("this position was saved on another board file "
                                   f"(board {data['board_digest']}, this game's is {board.digest})")
        state = fresh
        state.player = _seat(data.get("to_move"), "to_move")
        state.turn = _int(data.get("turn"), "turn", 0, state.turn_limit)
        state.ships = _ships(board, data.get("ships"))
        pearls = [_field(board, p, "pearls") for p in _list(data.get("pearls"), "pearls")]
        if len(set(pearls)) != len(pearls) or not set(pearls) <= set(board.pearls):
            raise StateFormatError("'pearls' lists pearl fields of the board, each once")
        state.pearls = sorted(pearls)
        for f in state.ships:
            if f in pearls:
                raise StateFormatError(f"a ship stands on {board.ids[f]}, which holds a pearl")
        owned = data.get("owned")
        if not isinstance(owned, Mapping) or set(owned) != set(SEATS):
            raise StateFormatError("'owned' gives the pearls of north and south")
        state.owned = [_int(owned[s], f"owned.{s}", 0, len(board.pearls)) for s in SEATS]
        if sum(state.owned) + len(pearls) != len(board.pearls):
            raise StateFormatError("pearls owned and pearls on the board do not add up to "
                                   f"{len(board.pearls)}")
        state.over = data.get("over", False) is True
        _dice(state, data.get("dice"), BASE_DICE, MAX_EXTRA)
        state.crossed = _crossed(state, data.get("crossed", {}))
        winner = data.get("winner")
        state.winner = None if winner is None else _seat(winner, "winner")
        if state.winner is not None and not state.over:
            raise StateFormatError("a position with a winner is over")
        if not state.over and (state.turn >= state.turn_limit or max(state.owned) >= 3):
            raise StateFormatError("this position should be over (turn limit or three pearls)")
    except (KeyError, TypeError, ValueError) as exc:
        raise StateFormatError(f"malformed Hotu Matua position: {exc}") from exc
    return state


def _seat(value: object, what: str) -> int:
    if value not in SEATS:
        raise StateFormatError(f"'{what}' is north or south, not {value!r}")
    return SEATS.index(str(value))


def _int(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StateFormatError(f"'{what}' is a whole number from {low} to {high}, not {value!r}")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise StateFormatError(f"'{what}' is a list")
    return value


def _field(board: Board, value: object, what: str) -> int:
    try:
        return board.field_index(str(value))
    except KeyError:
        raise StateFormatError(f"'{what}' names an unknown field {value!r}") from None


def _ships(board: Board, value: object) -> list[int]:
    if not isinstance(value, Mapping):
        raise StateFormatError("'ships' maps N1-N4 and S1-S4 to fields")
    ships = [-1] * (2 * SHIPS_PER_SEAT)
    for label, where in value.items():
        who = parse_ship(str(label))
        if who is None:
            raise StateFormatError(f"no ship called {label!r} (ships are N1-N4 and S1-S4)")
        ships[who[0] * SHIPS_PER_SEAT + who[1]] = _field(board, where, f"ships.{label}")
    if -1 in ships:
        raise StateFormatError("'ships' must place all eight ships")
    if len(set(ships)) != len(ships):
        raise StateFormatError("two ships stand on one field")
    return ships


def _dice(state: HotuMatuaState, value: object, base: int, max_extra: int) -> None:
    if not isinstance(value, Mapping):
        raise StateFormatError("'dice' is an object")
    state.extra = _int(value.get("carried_over"), "dice.carried_over", 0, max_extra)
    total = base + state.extra
    state.to_roll = _int(value.get("to_roll"), "dice.to_roll", 0, total)
    rolled = [_int(v, "dice.rolled", 1, 4) for v in _list(value.get("rolled"), "dice.rolled")]
    unused = [_int(v, "dice.unused", 1, 4) for v in _list(value.get("unused"), "dice.unused")]
    if state.over:
        if state.to_roll:
            raise StateFormatError("no dice are rolled once the game is over")
    elif state.to_roll + len(rolled) != total:
        raise StateFormatError(f"{total} dice this turn: rolled and still to roll must add up")
    have = Counter(rolled)
    if any(n > have[v] for v, n in Counter(unused).items()):
        raise StateFormatError("'dice.unused' holds a die that was not rolled")
    if state.to_roll and sorted(unused) != sorted(rolled):
        raise StateFormatError("no die is used before the roll is complete")
    state.rolled = rolled
    state.unused = [0] * 5
    for v in unused:
        state.unused[v] += 1


@cache
def _line_names(board: Board) -> dict[str, int]:
    """Line index by name, either way round, lower case: ``f1-f6`` and ``f6-f1``."""
    names = {}
    for x, (a, b) in enumerate(board.line_fields):
        names[f"{board.ids[a]}-{board.ids[b]}".lower()] = x
        names[f"{board.ids[b]}-{board.ids[a]}".lower()] = x
    return names


def _crossed(state: HotuMatuaState, value: object) -> list[set[int]]:
    if not isinstance(value, Mapping):
        raise StateFormatError("'crossed' maps ships to lines like f1-f6")
    names = _line_names(state.board)
    crossed: list[set[int]] = [set() for _ in range(SHIPS_PER_SEAT)]
    for label, lines in value.items():
        who = parse_ship(str(label))
        if who is None or who[0] != state.player:
            raise StateFormatError(f"'crossed' is for the ships of the player to move, "
                                   f"not {label!r}")
        for name in _list(lines, f"crossed.{label}"):
            if str(name).lower() not in names:
                raise StateFormatError(f"'crossed.{label}' names no line: {name!r}")
            crossed[who[1]].add(names[str(name).lower()])
    return crossed
