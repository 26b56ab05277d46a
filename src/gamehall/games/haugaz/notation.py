"""Action numbers and the notation people read and type.

With ``N = size * size`` points, the action numbers are, in order:

- ``p`` (0 <= p < N): place a stack on point `p` — written ``d4``;
- ``N + 8 * p + d``: move the stack on `p` along direction `d` (see geometry.DIRECTIONS), as far
  as its height — written ``c3-c5``;
- ``9N``: pass — written ``pass``;
- ``9N + 1 + p``: cake setup, place the black stack on `p` — written ``black d4``;
- ``10N + 1 + p``: cake setup, place the white stack on `p` — written ``white g7``;
- ``11N + 1`` / ``11N + 2``: the second player's side choice — ``play black`` / ``play white``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from gamehall.core import NotationError
from gamehall.core.messages import msg
from gamehall.games.haugaz.geometry import DIRECTION_NAMES, Geometry


@dataclass(frozen=True)
class Layout:
    """Where each kind of action sits in the action space of one board size."""

    points: int

    @property
    def move(self) -> int:
        """First move action."""
        return self.points

    @property
    def pass_(self) -> int:
        return 9 * self.points

    @property
    def cake_black(self) -> int:
        """First 'place the black cake stack' action."""
        return 9 * self.points + 1

    @property
    def cake_white(self) -> int:
        return 10 * self.points + 1

    @property
    def play_black(self) -> int:
        return 11 * self.points + 1

    @property
    def play_white(self) -> int:
        return 11 * self.points + 2

    @property
    def size(self) -> int:
        """num_distinct_actions."""
        return 11 * self.points + 3


@cache
def layout(points: int) -> Layout:
    return Layout(points)


def action_text(geo: Geometry, heights: list[int], action: int) -> str:
    """`action` in notation; a move's target depends on the height of the stack that moves."""
    n = geo.points
    lay = layout(n)
    if 0 <= action < n:
        return geo.names[action]
    if lay.move <= action < lay.pass_:
        src, d = divmod(action - n, 8)
        line = geo.lines[src * 8 + d]
        h = heights[src]
        if 0 < h <= len(line):
            return f"{geo.names[src]}-{geo.names[line[h - 1]]}"
        return f"{geo.names[src]} {DIRECTION_NAMES[d]}"
    if action == lay.pass_:
        return "pass"
    if lay.cake_black <= action < lay.cake_white:
        return f"black {geo.names[action - lay.cake_black]}"
    if lay.cake_white <= action < lay.play_black:
        return f"white {geo.names[action - lay.cake_white]}"
    if action == lay.play_black:
        return "play black"
    if action == lay.play_white:
        return "play white"
    return f"action {action}"


def action_parts(geo: Geometry, heights: list[int], action: int) -> dict[str, Any]:
    """`action` taken apart for clients, like `action_text`: kinds ``place`` (cell), ``move``
    (from, to), ``pass``, ``cake`` (colour, cell) and ``side`` (colour); ``{}`` outside the
    action space."""
    n = geo.points
    lay = layout(n)
    if 0 <= action < n:
        return {"kind": "place", "cell": geo.names[action]}
    if lay.move <= action < lay.pass_:
        src, d = divmod(action - n, 8)
        line = geo.lines[src * 8 + d]
        h = heights[src]
        if 0 < h <= len(line):
            return {"kind": "move", "from": geo.names[src], "to": geo.names[line[h - 1]]}
        return {"kind": "move", "from": geo.names[src], "direction": DIRECTION_NAMES[d]}
    if action == lay.pass_:
        return {"kind": "pass"}
    for colour, first in (("black", lay.cake_black), ("white", lay.cake_white)):
        if first <= action < first + n:
            return {"kind": "cake", "colour": colour, "cell": geo.names[action - first]}
    if action in (lay.play_black, lay.play_white):
        return {"kind": "side", "colour": "black" if action == lay.play_black else "white"}
    return {}


_POINT = r"([a-z])(\d{1,2})"
_MOVE = re.compile(rf"{_POINT}-{_POINT}")
_TURN = re.compile(rf"{_POINT}{_POINT}-{_POINT}")


def parse_point(geo: Geometry, text: str) -> int:
    """A point name such as ``d4`` (already lower case, no spaces)."""
    if text not in geo.index:
        raise NotationError(msg("game.haugaz.illegal.no_point", point=text, size=geo.size))
    return geo.index[text]


def parse_action(geo: Geometry, heights: list[int], text: str) -> int:
    """Read normalised text (lower case, no spaces) into an action number.

    The action is not checked for legality here, except that a move's target must lie at the
    stack's height (the action number holds only the start point and the direction).
    """
    lay = layout(geo.points)
    if text == "pass":
        return lay.pass_
    if text in ("playblack", "black"):
        return lay.play_black
    if text in ("playwhite", "white"):
        return lay.play_white
    for colour, first in (("black", lay.cake_black), ("white", lay.cake_white)):
        if text.startswith(colour) and re.fullmatch(_POINT, text[len(colour):]):
            return first + parse_point(geo, text[len(colour):])
    if _TURN.fullmatch(text):
        raise NotationError(msg("game.haugaz.illegal.two_steps"))
    match = _MOVE.fullmatch(text)
    if match:
        return _parse_move(geo, heights, match)
    if re.fullmatch(_POINT, text):
        return parse_point(geo, text)
    raise NotationError(msg("game.haugaz.illegal.unreadable", text=repr(text)))


def _parse_move(geo: Geometry, heights: list[int], match: re.Match[str]) -> int:
    src = parse_point(geo, match.group(1) + match.group(2))
    dst = parse_point(geo, match.group(3) + match.group(4))
    line = geo.direction_between(src, dst)
    if line is None:
        raise NotationError(msg("game.haugaz.illegal.not_straight", point=geo.names[src],
                                target=geo.names[dst]))
    d, steps = line
    h = heights[src]
    if h == 0:
        raise NotationError(msg("game.haugaz.illegal.no_stack", point=geo.names[src]))
    if steps != h:
        raise NotationError(msg("game.haugaz.illegal.steps", point=geo.names[src], height=h,
                                steps=steps))
    return geo.points + 8 * src + d
