"""Reading typed moves, and saying why a move cannot be played as a sentence with a key
(``game.hotu_matua.illegal.…``, so each client says it in its language)."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.core.messages import Message, msg
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
        raise NotationError(msg("game.hotu_matua.illegal.not_a_roll", text=text.strip()))
    if wanted.startswith("roll"):
        raise NotationError(msg("game.hotu_matua.illegal.rolled"))
    step = split_step_text(text)
    if step is not None and all(step) and (parse_ship(step[0]) is not None or ">" in text):
        label, target = step
        for action in legal:
            if action < END and normalise_notation(
                    state.action_to_string(action)) == normalise_notation(f"{label}>{target}"):
                return action
        raise NotationError(why_not_step(state, label, target))
    raise NotationError(msg("game.hotu_matua.illegal.not_a_move", text=text.strip(),
                            ship=ship_label(state.player, 0)))


def why_not_step(state: HotuMatuaState, label: str, target: str) -> Message:
    """Why ship `label` cannot step into field `target` now."""
    board = state.board
    who = parse_ship(label)
    if who is None:
        return msg("game.hotu_matua.illegal.no_ship", ship=label)
    seat, k = who
    if seat != state.player:
        return msg("game.hotu_matua.illegal.not_yours", ship=label.upper())
    try:
        goal = board.field_index(target)
    except KeyError:
        return msg("game.hotu_matua.illegal.no_field", field=target)
    here = state.ship_field(seat, k)
    name = ship_label(seat, k)
    lines = [x for x in board.sides[here] if x >= 0 and board.other_end(x, here) == goal]
    if not lines:
        return msg("game.hotu_matua.illegal.not_next", field=board.ids[goal], ship=name,
                   here=board.ids[here])
    line = lines[0]
    number = board.line_number[line]
    if goal in state.ships:
        other = state.ships.index(goal)
        return msg("game.hotu_matua.illegal.occupied", field=board.ids[goal],
                   other=ship_label(other // SHIPS_PER_SEAT, other % SHIPS_PER_SEAT))
    if goal in state.pearls:
        return msg("game.hotu_matua.illegal.pearl", field=board.ids[goal])
    if line in state.crossed[k]:
        return msg("game.hotu_matua.illegal.crossed", ship=name, line=board.line_name(line))
    if not state.unused[number]:
        return msg("game.hotu_matua.illegal.no_number", line=board.line_name(line),
                   number=number)
    return msg("game.hotu_matua.illegal.step_not_now", ship=name, field=board.ids[goal])


def explain_illegal(state: HotuMatuaState, action: int) -> Message:
    """Why the action number `action` (in range, the game going on) is illegal now."""
    if state.is_chance_node():
        return msg("game.hotu_matua.illegal.rolling")
    if action >= ROLL_BASE:
        return msg("game.hotu_matua.illegal.roll_over")
    if action == END:  # not reached: end is always legal here
        return msg("game.hotu_matua.illegal.end_possible")
    k, side = split_step(action)
    here = state.ship_field(state.player, k)
    line = state.board.sides[here][side]
    name = ship_label(state.player, k)
    if line < 0:
        return msg("game.hotu_matua.illegal.edge", side=side + 1, field=state.board.ids[here],
                   ship=name)
    target = state.board.ids[state.board.other_end(line, here)]
    return why_not_step(state, name, target)
