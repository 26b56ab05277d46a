"""Hula notation: a cell is its row letter (``a`` at the bottom) and its number in the row (from 1
at the left), e.g. ``e6``; the pie-rule answer is ``swap``. Lower case on output; input ignores
case and spaces."""

from __future__ import annotations

import re
from typing import Any

from gamehall.core import NotationError, normalise_notation
from gamehall.core.messages import msg
from gamehall.games.hula.geometry import Geometry

SWAP_WORD = "swap"
SEATS = ("first", "second")
"""The seats, by number."""
STONE_NAMES = ("first", "second", "neutral")
"""The stones by colour number (0, 1; 2 for neutral): colour = seat, unless swapped."""

_CELL = re.compile(r"([a-z])(\d+)")


def swap_action(geo: Geometry) -> int:
    """The action number of ``swap``: the one after the last cell."""
    return geo.num_cells


def action_name(geo: Geometry, action: int) -> str:
    """`action` in notation (any cell or ``swap``, legal or not)."""
    if action == geo.num_cells:
        return SWAP_WORD
    if 0 <= action < geo.num_cells:
        return geo.names[action]
    raise NotationError(f"there is no action {action} in Hula of size {geo.size}")


def action_parts(geo: Geometry, action: int) -> dict[str, Any]:
    """`action` taken apart for clients: ``{"kind": "place", "cell": "e6"}`` or
    ``{"kind": "swap"}``."""
    if action == geo.num_cells:
        return {"kind": "swap"}
    return {"kind": "place", "cell": action_name(geo, action)}


def parse_cell(geo: Geometry, text: str) -> int:
    """The cell index named by `text`; NotationError with a reason when it names no cell."""
    key = normalise_notation(text)
    if key in geo.index_of_name:
        return geo.index_of_name[key]
    match = _CELL.fullmatch(key)
    last_row = chr(ord("a") + geo.num_rows - 1)
    if match is None:
        raise NotationError(msg("game.hula.illegal.not_a_cell", text=repr(text.strip()),
                                last=last_row))
    row = ord(match.group(1)) - ord("a")
    if row >= geo.num_rows:
        raise NotationError(msg("game.hula.illegal.no_row", row=match.group(1), last=last_row))
    length = geo.row_lengths[row]
    raise NotationError(msg("game.hula.illegal.no_cell", cell=key, row=match.group(1),
                            length=length))


def parse_action(geo: Geometry, text: str) -> int:
    """A cell or ``swap`` as an action number (legality is checked by the state)."""
    if normalise_notation(text) == SWAP_WORD:
        return swap_action(geo)
    return parse_cell(geo, text)
