"""Why a Hula move cannot be played, as a sentence with a key ("e5 is occupied": keys
``game.hula.illegal.…``, so each client says it in its language), and reading a typed move."""

from __future__ import annotations

from gamehall.core import NotationError
from gamehall.core.messages import Message, msg
from gamehall.games.hula.notation import parse_action
from gamehall.games.hula.rules import HulaState


def explain_illegal(state: HulaState, action: int) -> Message:
    """Why the action number `action` (in range, the game going on) is not legal now."""
    if action == state.swap:
        if not state.pie:
            return msg("game.hula.illegal.no_pie")
        if state.swapped:
            return msg("game.hula.illegal.swapped")
        return msg("game.hula.illegal.swap_late")
    name = state.geo.names[action]
    if action == state.geo.centre:
        return msg("game.hula.illegal.centre", cell=name)
    return msg("game.hula.illegal.occupied", cell=name)


def read_move(state: HulaState, text: str) -> int:
    """A typed move that is no legal move's notation: say why (no such cell, or taken)."""
    action = parse_action(state.geo, text)
    if state.is_legal(action):
        return action
    raise NotationError(explain_illegal(state, action))
