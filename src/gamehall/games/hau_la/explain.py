"""Why a Hau La action cannot be played, as a sentence with a key ("g1 is occupied (plug 1)":
keys ``game.hau_la.illegal.…``, so each client says it in its language), and what a typed move
that is no legal move means."""

from __future__ import annotations

from gamehall.core import NotationError
from gamehall.core.messages import Message, msg
from gamehall.games.hau_la.placements import FIRST, SECOND
from gamehall.games.hau_la.rules import HauLaState
from gamehall.games.hau_la.turns import EXTRAS

PLUG = "plug "
"""How `Table.occupant` names a hole held by a piece's plug (``plug 2``); else a tag colour."""


def explain_illegal(state: HauLaState, action: int) -> Message:
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
                return _occupied(b.names[h], what)
            return msg("game.hau_la.illegal.unreachable", hole=b.names[h])
    return msg("game.hau_la.illegal.action", action=str(action),
               expecting=state.expecting_message())


def _occupied(hole: str, what: str) -> Message:
    """A taken hole: by a plug (numbered) or by a tag (its colour, said in the reader's words)."""
    if what.startswith(PLUG):
        return msg("game.hau_la.illegal.occupied_plug", hole=hole, plug=what[len(PLUG):])
    return msg("game.hau_la.illegal.occupied_tag", hole=hole, colour=what)


def read_move(state: HauLaState, text: str) -> int:
    """A typed move that is no legal move's notation: why a typed hole is refused, or what the
    player is choosing."""
    hole = state.typed_hole(text)
    if hole is not None:
        raise NotationError(explain_illegal(state, state.ranges["hole"] + hole))
    raise NotationError(msg("game.hau_la.illegal.typed", text=text.strip(),
                            expecting=state.expecting_message()))
