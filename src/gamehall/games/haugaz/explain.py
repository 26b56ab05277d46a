"""Why an action cannot be played now, in words a player understands; reading typed moves."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.games.haugaz.board import CAKE_BLACK, CAKE_WHITE, CHOOSE, COLOURS
from gamehall.games.haugaz.notation import parse_action
from gamehall.games.haugaz.rules import HaugazState


def explain_illegal(state: HaugazState, action: int) -> str:
    """The reason the action number `action` (in range, the game going on) is refused (or a
    generic line if it is in fact legal)."""
    if state.phase == CAKE_BLACK:
        return _cake_black(state, action)
    if state.phase == CAKE_WHITE:
        return _cake_white(state, action)
    if state.phase == CHOOSE:
        return "the second player now chooses a side: play black or play white"
    if state.placed >= 0:
        return _awaiting_move(state, action)
    return _turn_start(state, action)


def read_move(state: HaugazState, text: str) -> int:
    """A typed move that is no legal move's notation: another spelling of one, or why not."""
    action = parse_action(state.geo, state.height, normalise_notation(text))
    if state.is_legal(action):
        return action
    raise NotationError(state.explain_illegal(action))


def _cake_black(state: HaugazState, action: int) -> str:
    lay = state.lay
    if lay.cake_black <= action < lay.cake_white:
        name = state.geo.names[action - lay.cake_black]
        if state.height[action - lay.cake_black]:
            return f"{name} is occupied"
        far = state.game.options["cake_distance"]
        return f"no point is {far} or more points from {name}: the white stack would not fit"
    return "the first player places the black cake stack first (e.g. black d4)"


def _cake_white(state: HaugazState, action: int) -> str:
    lay, geo = state.lay, state.geo
    if not lay.cake_white <= action < lay.play_black:
        return "the first player now places the white cake stack (e.g. white g7)"
    point = action - lay.cake_white
    if state.height[point]:
        return f"{geo.names[point]} is occupied"
    black = state.cake_black_point()
    far = state.game.options["cake_distance"]
    return (f"the white cake stack must be at least {far} points from the black one on "
            f"{geo.names[black]}, and {geo.names[point]} is {geo.distance(point, black)} away")


def _awaiting_move(state: HaugazState, action: int) -> str:
    lay, geo = state.lay, state.geo
    placed = geo.names[state.placed]
    if not lay.move <= action < lay.pass_:
        return f"you placed on {placed}; now move one of your other stacks"
    src, d = divmod(action - lay.move, 8)
    return _bad_move(state, src, d) or "that move is not possible now"


def _bad_move(state: HaugazState, src: int, d: int) -> str | None:
    geo = state.geo
    name = geo.names[src]
    h = state.height[src]
    if not h:
        return f"there is no stack on {name}"
    if state.owner[src] != state.to_move:
        return f"the stack on {name} is {COLOURS[state.owner[src]].capitalize()}'s"
    if src == state.placed:
        return f"the stack just placed on {name} cannot move this turn"
    line = geo.lines[src * 8 + d]
    if h > len(line):
        return f"the stack on {name} has height {h}: that way it would leave the board"
    target = line[h - 1]
    if state.height[target]:
        return f"{geo.names[target]} is occupied"
    for q in line[:h - 1]:
        if state.blocking and state.height[q]:
            return f"the way from {name} to {geo.names[target]} is blocked at {geo.names[q]}"
    return None


def _turn_start(state: HaugazState, action: int) -> str:
    lay, geo = state.lay, state.geo
    if action < lay.move:
        if state.height[action]:
            return f"{geo.names[action]} is occupied"
        return (f"after placing on {geo.names[action]} none of your stacks could move, "
                "so the turn could not be completed")
    if action < lay.pass_:
        src, d = divmod(action - lay.move, 8)
        reason = _bad_move(state, src, d)
        return reason or "first place a stack of one piece, then move (e.g. d4, then c3-c5)"
    if action >= lay.cake_black:
        return "the setup is over"
    return "that is not possible now"
