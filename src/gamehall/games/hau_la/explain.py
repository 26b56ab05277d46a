"""Why a Hau La action cannot be played, in words ("g1 is occupied (plug 1)"), and what a typed
move that is no legal move means."""

from __future__ import annotations

from gamehall.core import NotationError
from gamehall.games.hau_la.placements import FIRST, SECOND
from gamehall.games.hau_la.rules import HauLaState
from gamehall.games.hau_la.turns import EXTRAS


def explain_illegal(state: HauLaState, action: int) -> str:
    """Why the action number `action` (in range, the game going on) is not legal now: a hole that
    is taken or out of reach, else what the player is choosing."""
    t = state.table
    step = t.step() if t.phase != EXTRAS else None
    if step in (FIRST, SECOND):
        h = action - state.ranges["hole"]
        b = t.building
        if 0 <= h < b.n_holes:
            what = t.occupant().get(h)
            if what is not None and h not in t.ask().firsts + t.ask().seconds:
                return f"{b.names[h]} is occupied ({what})"
            return f"the piece cannot go into {b.names[h]} from here"
    return f"action {action} is not legal here: {state.expecting()}"


def read_move(state: HauLaState, text: str) -> int:
    """A typed move that is no legal move's notation: why a typed hole is refused, or what the
    player is choosing."""
    hole = state.typed_hole(text)
    if hole is not None:
        raise NotationError(state.explain_illegal(state.ranges["hole"] + hole))
    raise NotationError(f"{text.strip()} is not a legal move here ({state.expecting()})")
