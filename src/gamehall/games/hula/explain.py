"""Why a Hula move cannot be played, in words ("e5 is occupied"), and reading a typed move."""

from __future__ import annotations

from gamehall.core import NotationError
from gamehall.games.hula.notation import parse_action
from gamehall.games.hula.rules import HulaState


def explain_illegal(state: HulaState, action: int) -> str:
    """Why the action number `action` (in range, the game going on) is not legal now."""
    if action == state.swap:
        if not state.pie:
            return "the pie rule is off in this game: no swap"
        if state.swapped:
            return "the colours have already been swapped"
        return "swap is only possible as the answer to the very first stone"
    name = state.geo.names[action]
    if action == state.geo.centre:
        return f"{name} is the centre: nothing is ever placed there"
    return f"{name} is occupied"


def read_move(state: HulaState, text: str) -> int:
    """A typed move that is no legal move's notation: say why (no such cell, or taken)."""
    action = parse_action(state.geo, text)
    if state.is_legal(action):
        return action
    raise NotationError(state.explain_illegal(action))
