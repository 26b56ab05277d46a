"""Why a Halali! move is not legal, in words a player understands ("c4 is in the way"), and the
lenient ways of typing a move."""

from __future__ import annotations

from gamehall.core import NotationError, normalise_notation
from gamehall.games.halali import notation as nt
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import (
    ARROWS,
    CAPTURES,
    DIRECTION_WORDS,
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


def read_move(state: HalaliState, text: str) -> int:
    """A typed move that is no legal move's notation: a lenient form of one, or why not."""
    return explain_text(state, normalise_notation(text), state.legal_actions())


def explain_text(state: HalaliState, wanted: str, legal: list[int]) -> int:
    """Resolve the lenient forms of `wanted` (normalised notation) to a legal action, or raise
    NotationError saying why it is not legal."""
    try:
        p = nt.parse(wanted)
    except nt.ParseError as exc:
        raise NotationError(str(exc)) from None
    if p.kind == "move":
        line = nt.line_between(p.frm, p.to)
        if line is None:
            raise NotationError(f"{square_name(p.frm)} and {square_name(p.to)} are not in a "
                                "straight line: tiles move along ranks and files")
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
        raise NotationError(f"several exits are open from {f}: write one of {names}")
    reachable = sorted((exit_steps(p.frm, d), d) for d in dirs if exit_steps(p.frm, d))
    if reachable:
        raise NotationError(explain_illegal(state, nt.exit_action(p.frm, reachable[0][1])))
    raise NotationError(_tile_reason(state, p.frm) or (
        f"no exit in line with {f}: the exits sit at the middle of each edge, beyond d1, a4, "
        "g4 and d7"))


def explain_illegal(state: HalaliState, action: int) -> str:
    """Why the action number `action` (in range, the game going on) cannot be played now."""
    dec = nt.decode(action)
    if dec is None:
        return f"{action!r} is not a Halali! action"
    if state.pending is not None:
        if dec.kind != "outcome":
            return (f"the tile on {square_name(state.pending)} is being turned over: "
                    "what it shows comes next")
        return f"no {OUTCOMES[dec.outcome]} tile is left face down"
    if dec.kind == "outcome":
        return "what a tile shows is decided by chance when it is flipped"
    if dec.kind == "flip":
        what = "empty" if state.board[dec.frm] == EMPTY else "already face up"
        return f"{square_name(dec.frm)} is {what}: only face-down tiles can be flipped"
    if dec.kind == "pass":
        return "you may pass only when no other action is possible"
    return _move_reason(state, dec)


def _tile_reason(state: HalaliState, frm: int) -> str | None:
    """Why the player to move may not move the tile on `frm` at all, or None if they may."""
    f = square_name(frm)
    code = state.board[frm]
    side = state.side_to_move
    if code == EMPTY:
        return f"there is no tile on {f}"
    if code == HIDDEN:
        return f"{f} is face down: flip it first"
    kind = KIND_OF[code]
    if code == TREE:
        return "trees never move"
    if code in OWN[1 - side]:
        return f"the {kind} on {f} belongs to the {SIDE_NAMES[1 - side]}"
    if frm == state.locked:
        return (f"your opponent just turned up or moved the {kind} on {f}: "
                "you may not move it this turn")
    return None


def _move_reason(state: HalaliState, dec: nt.Decoded) -> str:
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
        return f"a {kind} moves only one square"
    for t in ray[:dec.steps - 1]:
        if board[t] != EMPTY:
            return f"{square_name(t)} is in the way: tiles move only across empty squares"
    target = board[dec.to]
    if target == HIDDEN:
        return "face-down tiles are never captured"
    if target != EMPTY and target not in CAPTURES[code][dec.d]:
        if code in HUNTERS and target in CAPTURES[code][HUNTERS.index(code)]:
            rifle = HUNTERS.index(code)
            return (f"this hunter's rifle points {ARROWS[rifle]} ({DIRECTION_WORDS[rifle]}): "
                    "it shoots only when moving that way")
        if code in GREEN_MOVABLE:
            return "ducks and pheasants never capture"
        return f"a {kind} cannot take a {KIND_OF[target]}"
    if state.last_move[side] == (dec.to, dec.frm):
        return (f"you may not move it straight back to {square_name(dec.to)}: "
                "no reversing your last move")
    return "that move is not legal here"


def _exit_reason(state: HalaliState, dec: nt.Decoded, code: int) -> str:
    if state.end_left is None:
        return "tiles may leave the board only in the end phase, after the last tile is flipped"
    if code not in OWN[state.side_to_move]:
        return "only your own side's tiles may leave the board"
    for t in RAYS[dec.frm][dec.d]:
        if state.board[t] != EMPTY:
            return f"{square_name(t)} is in the way: tiles move only across empty squares"
    if exit_steps(dec.frm, dec.d) > MAX_STEPS[code]:
        edge = square_name(EXIT_EDGE[dec.d])
        return f"a {KIND_OF[code]} moves only one square: it must stand on {edge} to leave"
    return "that exit is not open here"
