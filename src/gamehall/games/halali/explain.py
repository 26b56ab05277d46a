"""Why a Halali! move is not legal, as a sentence with a key ("c4 is in the way": keys
``game.halali.illegal.…``, so each client says it in its language), and the lenient ways of
typing a move."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.core.messages import Message, msg
from gamehall.games.halali import notation as nt
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import (
    ARROWS,
    CAPTURES,
    EMPTY,
    EXIT_EDGE,
    GREEN_MOVABLE,
    HIDDEN,
    HUNTERS,
    KIND_OF,
    MAX_STEPS,
    OUTCOMES,
    OWN,
    RAYS,
    SIDE_NAMES,
    TREE,
    exit_steps,
    square_name,
)

RIFLE_WAYS = ("up", "right", "down", "left")
"""A hunter's rifle direction by index (`ARROWS` order), the selector of its words in the
catalogues (English: `tiles.DIRECTION_WORDS`)."""


def read_move(state: HalaliState, text: str) -> int:
    """A typed move that is no legal move's notation: a lenient form of one, or why not."""
    return explain_text(state, normalise_notation(text), state.legal_actions())


def explain_text(state: HalaliState, wanted: str, legal: list[int]) -> int:
    """Resolve the lenient forms of `wanted` (normalised notation) to a legal action, or raise
    NotationError saying why it is not legal."""
    try:
        p = nt.parse(wanted)
    except nt.ParseError as exc:
        raise NotationError(exc.said) from None
    if p.kind == "move":
        line = nt.line_between(p.frm, p.to)
        if line is None:
            raise NotationError(msg("game.halali.illegal.not_straight",
                                    square=square_name(p.frm), to=square_name(p.to)))
        action = nt.move_action(p.frm, line[0], line[1])
        if action in legal:  # written with '-' for a capture or 'x' for a plain move
            return action
        raise NotationError(explain_illegal(state, action))
    if p.kind == "exit":
        return _exit_from_text(state, p, legal)
    if p.kind == "flip":
        raise NotationError(explain_illegal(state, nt.flip_action(p.frm)))
    if p.kind == "outcome":
        raise NotationError(explain_illegal(state, nt.outcome_action(p.outcome)))
    raise NotationError(explain_illegal(state, nt.PASS))


def _exit_from_text(state: HalaliState, p: nt.Parsed, legal: list[int]) -> int:
    dirs = [d for d in range(4) if p.exit_edge in (-1, EXIT_EDGE[d])]
    open_ = [nt.exit_action(p.frm, d) for d in dirs if nt.exit_action(p.frm, d) in legal]
    if len(open_) == 1:
        return open_[0]
    f = square_name(p.frm)
    if open_:
        names = ", ".join(state.action_to_string(a) for a in open_)
        raise NotationError(msg("game.halali.illegal.several_exits", square=f, moves=names))
    reachable = sorted((exit_steps(p.frm, d), d) for d in dirs if exit_steps(p.frm, d))
    if reachable:
        raise NotationError(explain_illegal(state, nt.exit_action(p.frm, reachable[0][1])))
    raise NotationError(_tile_reason(state, p.frm) or msg("game.halali.illegal.no_exit", square=f))


def explain_illegal(state: HalaliState, action: int) -> Message:
    """Why the action number `action` (in range, the game going on) cannot be played now."""
    dec = nt.decode(action)
    if dec is None:
        return msg("game.halali.illegal.no_action", action=repr(action))
    if state.pending is not None:
        if dec.kind != "outcome":
            return msg("game.halali.illegal.turning", square=square_name(state.pending))
        return msg("game.halali.illegal.none_left", outcome=OUTCOMES[dec.outcome])
    if dec.kind == "outcome":
        return msg("game.halali.illegal.by_chance")
    if dec.kind == "flip":
        what = "empty" if state.board[dec.frm] == EMPTY else "face_up"
        return msg("game.halali.illegal.flip", square=square_name(dec.frm), what=what)
    if dec.kind == "pass":
        return msg("game.halali.illegal.pass")
    return _move_reason(state, dec)


def _tile_reason(state: HalaliState, frm: int) -> Message | None:
    """Why the player to move may not move the tile on `frm` at all, or None if they may."""
    f = square_name(frm)
    code = state.board[frm]
    side = state.side_to_move
    if code == EMPTY:
        return msg("game.halali.illegal.no_tile", square=f)
    if code == HIDDEN:
        return msg("game.halali.illegal.face_down", square=f)
    kind = KIND_OF[code]
    if code == TREE:
        return msg("game.halali.illegal.trees")
    if code in OWN[1 - side]:
        return msg("game.halali.illegal.not_yours", kind=kind, square=f,
                   side=SIDE_NAMES[1 - side])
    if frm == state.locked:
        return msg("game.halali.illegal.locked", kind=kind, square=f)
    return None


def _move_reason(state: HalaliState, dec: nt.Decoded) -> Message:
    reason = _tile_reason(state, dec.frm)
    if reason is not None:
        return reason
    side = state.side_to_move
    board = state.board
    code = board[dec.frm]
    kind = KIND_OF[code]
    limit = MAX_STEPS[code]
    ray = RAYS[dec.frm][dec.d]
    if dec.kind == "exit":
        return _exit_reason(state, dec, code)
    if dec.steps > limit:
        return msg("game.halali.illegal.one_square", kind=kind)
    for t in ray[:dec.steps - 1]:
        if board[t] != EMPTY:
            return msg("game.halali.illegal.in_the_way", square=square_name(t))
    target = board[dec.to]
    if target == HIDDEN:
        return msg("game.halali.illegal.hidden_safe")
    if target != EMPTY and target not in CAPTURES[code][dec.d]:
        if code in HUNTERS and target in CAPTURES[code][HUNTERS.index(code)]:
            rifle = HUNTERS.index(code)
            return msg("game.halali.illegal.rifle", arrow=ARROWS[rifle],
                       rifle=RIFLE_WAYS[rifle])
        if code in GREEN_MOVABLE:
            return msg("game.halali.illegal.green")
        return msg("game.halali.illegal.cannot_take", kind=kind, target=KIND_OF[target])
    if state.last_move[side] == (dec.to, dec.frm):
        return msg("game.halali.illegal.no_reversing", square=square_name(dec.to))
    return msg("game.halali.illegal.move")


def _exit_reason(state: HalaliState, dec: nt.Decoded, code: int) -> Message:
    if state.end_left is None:
        return msg("game.halali.illegal.exit_end_phase")
    if code not in OWN[state.side_to_move]:
        return msg("game.halali.illegal.exit_own")
    for t in RAYS[dec.frm][dec.d]:
        if state.board[t] != EMPTY:
            return msg("game.halali.illegal.in_the_way", square=square_name(t))
    if exit_steps(dec.frm, dec.d) > MAX_STEPS[code]:
        return msg("game.halali.illegal.exit_one_square", kind=KIND_OF[code],
                   edge=square_name(EXIT_EDGE[dec.d]))
    return msg("game.halali.illegal.exit_closed")
