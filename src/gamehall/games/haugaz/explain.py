"""Why an action cannot be played now, as a sentence with a key (``game.haugaz.illegal.…``, so
each client says it in its language); reading typed moves."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.core.messages import Message, msg
from gamehall.games.haugaz.board import CAKE_BLACK, CAKE_WHITE, CHOOSE, COLOURS
from gamehall.games.haugaz.notation import parse_action
from gamehall.games.haugaz.rules import HaugazState


def explain_illegal(state: HaugazState, action: int) -> Message:
    """The reason the action number `action` (in range, the game going on) is refused (or a
    generic line if it is in fact legal)."""
    if state.phase == CAKE_BLACK:
        return _cake_black(state, action)
    if state.phase == CAKE_WHITE:
        return _cake_white(state, action)
    if state.phase == CHOOSE:
        return msg("game.haugaz.illegal.choose_side")
    if state.placed >= 0:
        return _awaiting_move(state, action)
    return _turn_start(state, action)


def read_move(state: HaugazState, text: str) -> int:
    """A typed move that is no legal move's notation: another spelling of one, or why not."""
    action = parse_action(state.geo, state.height, normalise_notation(text))
    if state.is_legal(action):
        return action
    raise NotationError(explain_illegal(state, action))


def _cake_black(state: HaugazState, action: int) -> Message:
    lay = state.lay
    if lay.cake_black <= action < lay.cake_white:
        name = state.geo.names[action - lay.cake_black]
        if state.height[action - lay.cake_black]:
            return msg("game.haugaz.illegal.occupied", point=name)
        far = state.game.options["cake_distance"]
        return msg("game.haugaz.illegal.no_room", far=far, point=name)
    return msg("game.haugaz.illegal.cake_black")


def _cake_white(state: HaugazState, action: int) -> Message:
    lay, geo = state.lay, state.geo
    if not lay.cake_white <= action < lay.play_black:
        return msg("game.haugaz.illegal.cake_white")
    point = action - lay.cake_white
    if state.height[point]:
        return msg("game.haugaz.illegal.occupied", point=geo.names[point])
    black = state.cake_black_point()
    return msg("game.haugaz.illegal.cake_near", far=state.game.options["cake_distance"],
               black=geo.names[black], point=geo.names[point],
               distance=geo.distance(point, black))


def _awaiting_move(state: HaugazState, action: int) -> Message:
    lay, geo = state.lay, state.geo
    placed = geo.names[state.placed]
    if not lay.move <= action < lay.pass_:
        return msg("game.haugaz.illegal.now_move", point=placed)
    src, d = divmod(action - lay.move, 8)
    return _bad_move(state, src, d) or msg("game.haugaz.illegal.move_not_now")


def _bad_move(state: HaugazState, src: int, d: int) -> Message | None:
    geo = state.geo
    name = geo.names[src]
    h = state.height[src]
    if not h:
        return msg("game.haugaz.illegal.no_stack", point=name)
    if state.owner[src] != state.to_move:
        return msg("game.haugaz.illegal.not_yours", point=name,
                   colour=COLOURS[state.owner[src]])
    if src == state.placed:
        return msg("game.haugaz.illegal.just_placed", point=name)
    line = geo.lines[src * 8 + d]
    if h > len(line):
        return msg("game.haugaz.illegal.off_board", point=name, height=h)
    target = line[h - 1]
    if state.height[target]:
        return msg("game.haugaz.illegal.occupied", point=geo.names[target])
    for q in line[:h - 1]:
        if state.blocking and state.height[q]:
            return msg("game.haugaz.illegal.blocked", point=name, target=geo.names[target],
                       at=geo.names[q])
    return None


def _turn_start(state: HaugazState, action: int) -> Message:
    lay, geo = state.lay, state.geo
    if action < lay.move:
        if state.height[action]:
            return msg("game.haugaz.illegal.occupied", point=geo.names[action])
        return msg("game.haugaz.illegal.stuck_after", point=geo.names[action])
    if action < lay.pass_:
        src, d = divmod(action - lay.move, 8)
        reason = _bad_move(state, src, d)
        return reason or msg("game.haugaz.illegal.place_first")
    if action >= lay.cake_black:
        return msg("game.haugaz.illegal.setup_over")
    return msg("game.haugaz.illegal.not_now")
