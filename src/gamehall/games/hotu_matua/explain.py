"""Reading typed moves, and saying in words why a move cannot be played."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.games.hotu_matua.notation import (
    END,
    ROLL_BASE,
    SHIPS_PER_SEAT,
    parse_ship,
    ship_label,
    split_step,
    split_step_text,
)
from gamehall.games.hotu_matua.rules import HotuMatuaState


def read_move(state: HotuMatuaState, text: str) -> int:
    """A typed move that is no legal move's notation: another spelling of a step, or why not."""
    wanted = normalise_notation(text)
    legal = state.legal_actions()
    if state.is_chance_node():
        raise NotationError(f"{text.strip()} is not a roll (the dice are being rolled)")
    if wanted.startswith("roll"):
        raise NotationError("the dice are rolled already: move a ship or end the turn")
    step = split_step_text(text)
    if step is not None and all(step) and (parse_ship(step[0]) is not None or ">" in text):
        label, target = step
        for action in legal:
            if action < END and normalise_notation(
                    state.action_to_string(action)) == normalise_notation(f"{label}>{target}"):
                return action
        raise NotationError(why_not_step(state, label, target))
    raise NotationError(f"{text.strip()} is not a move here: a move is like "
                        f"{ship_label(state.player, 0)}>f12, or end")


def why_not_step(state: HotuMatuaState, label: str, target: str) -> str:
    """Why ship `label` cannot step into field `target` now."""
    board = state.board
    who = parse_ship(label)
    if who is None:
        return f"no ship called {label} (ships are N1-N4 and S1-S4)"
    seat, k = who
    if seat != state.player:
        return f"{label.upper()} is not yours"
    try:
        goal = board.field_index(target)
    except KeyError:
        return f"there is no field {target}"
    here = state.ship_field(seat, k)
    name = ship_label(seat, k)
    lines = [x for x in board.sides[here] if x >= 0 and board.other_end(x, here) == goal]
    if not lines:
        return f"{board.ids[goal]} is not next to {name} (on {board.ids[here]})"
    line = lines[0]
    number = board.line_number[line]
    if goal in state.ships:
        other = state.ships.index(goal)
        return (f"{board.ids[goal]} is occupied by "
                f"{ship_label(other // SHIPS_PER_SEAT, other % SHIPS_PER_SEAT)}")
    if goal in state.pearls:
        return f"{board.ids[goal]} holds a pearl; no ship may enter it"
    if line in state.crossed[k]:
        return f"{name} crossed the line {board.line_name(line)} already this turn"
    if not state.unused[number]:
        return (f"the line {board.line_name(line)} is numbered {number} and you have no "
                f"unused {number}")
    return f"{name}>{board.ids[goal]} cannot be played now"


def explain_illegal(state: HotuMatuaState, action: int) -> str:
    """Why the action number `action` (in range, the game going on) is illegal now."""
    if state.is_chance_node():
        return "the dice are being rolled"
    if action >= ROLL_BASE:
        return "the roll is over; move a ship or end the turn"
    if action == END:
        return "ending the turn is possible now"  # not reached: end is always legal here
    k, side = split_step(action)
    here = state.ship_field(state.player, k)
    line = state.board.sides[here][side]
    name = ship_label(state.player, k)
    if line < 0:
        return f"side {side + 1} of {state.board.ids[here]} is the edge of the sea ({name})"
    target = state.board.ids[state.board.other_end(line, here)]
    return why_not_step(state, name, target)
