"""Halali!'s action integers and their notation.

Action space (all one integer range, see README.md):
    0..48        flip the face-down tile on a square            ``flip c3``
    49..1224     move/capture: from * 24 + direction * 6 + (steps - 1)   ``c3-c6`` / ``c3xc6``
    1225..1420   exit: from * 4 + direction                     ``d2-exit-d1``
    1421         pass (only when nothing else is possible)      ``pass``
    1422..1431   chance outcome (tile kind, rifle direction)   ``fox``, ``hunter^``
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.games.halali.tiles import (
    EXIT_EDGE,
    OUTCOMES,
    RAYS,
    SQUARES,
    parse_square,
    square_name,
)

FLIP_BASE = 0
MOVE_BASE = FLIP_BASE + SQUARES
EXIT_BASE = MOVE_BASE + SQUARES * 4 * 6
PASS = EXIT_BASE + SQUARES * 4
CHANCE_BASE = PASS + 1
NUM_ACTIONS = CHANCE_BASE + len(OUTCOMES)


def flip_action(sq: int) -> int:
    return FLIP_BASE + sq


def move_action(frm: int, d: int, steps: int) -> int:
    return MOVE_BASE + frm * 24 + d * 6 + steps - 1


def exit_action(frm: int, d: int) -> int:
    return EXIT_BASE + frm * 4 + d


def outcome_action(outcome: int) -> int:
    return CHANCE_BASE + outcome


@dataclass(frozen=True)
class Decoded:
    """An action taken apart: kind is flip, move, exit, pass or outcome."""

    kind: str
    frm: int = -1
    to: int = -1
    d: int = -1
    steps: int = 0
    outcome: int = -1


def decode(action: int) -> Decoded | None:
    """Take an action integer apart; None for a number outside the action space."""
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        return None
    if action < MOVE_BASE:
        return Decoded("flip", frm=action)
    if action < EXIT_BASE:
        frm, rest = divmod(action - MOVE_BASE, 24)
        d, s = divmod(rest, 6)
        ray = RAYS[frm][d]
        to = ray[s] if s < len(ray) else -1
        return Decoded("move", frm=frm, to=to, d=d, steps=s + 1)
    if action < PASS:
        frm, d = divmod(action - EXIT_BASE, 4)
        return Decoded("exit", frm=frm, d=d)
    if action == PASS:
        return Decoded("pass")
    if action < NUM_ACTIONS:
        return Decoded("outcome", outcome=action - CHANCE_BASE)
    return None


def to_string(action: int, capture: bool) -> str:
    """The notation of `action`; `capture` says whether a move lands on a face-up tile."""
    dec = decode(action)
    if dec is None:
        return f"?{action}"
    if dec.kind == "flip":
        return f"flip {square_name(dec.frm)}"
    if dec.kind == "move":
        to = square_name(dec.to) if dec.to >= 0 else "off"
        return f"{square_name(dec.frm)}{'x' if capture else '-'}{to}"
    if dec.kind == "exit":
        return f"{square_name(dec.frm)}-exit-{square_name(EXIT_EDGE[dec.d])}"
    if dec.kind == "pass":
        return "pass"
    return OUTCOMES[dec.outcome]


@dataclass(frozen=True)
class Parsed:
    """A move as typed: what it names, before checking whether it is legal."""

    kind: str  # flip, move, exit, pass, outcome
    frm: int = -1
    to: int = -1
    exit_edge: int = -1  # -1: `d2-exit` without naming the exit
    outcome: int = -1


class ParseError(ValueError):
    """Text that is not Halali! notation at all (the message says what is expected)."""


def parse(text: str) -> Parsed:
    """Read notation (already lower-case, no spaces): flip c3, c3-c6, c3xc6, d2-exit-d1, ..."""
    if text == "pass":
        return Parsed("pass")
    if text in OUTCOMES:
        return Parsed("outcome", outcome=OUTCOMES.index(text))
    if text.startswith("flip"):
        sq = parse_square(text[4:])
        if sq is None:
            raise ParseError("write a flip as: flip c3")
        return Parsed("flip", frm=sq)
    if len(text) >= 2 and parse_square(text[:2]) is not None:
        frm = parse_square(text[:2])
        assert frm is not None
        rest = text[2:]
        if rest in ("-exit", "xexit"):
            return Parsed("exit", frm=frm)
        if rest.startswith(("-exit-", "-exit@")):
            edge = parse_square(rest[6:])
            if edge is None or edge not in EXIT_EDGE:
                raise ParseError("the exits sit beyond d1, a4, g4 and d7: write e.g. d2-exit-d1")
            return Parsed("exit", frm=frm, exit_edge=edge)
        if len(rest) == 3 and rest[0] in "-x":
            to = parse_square(rest[1:])
            if to is not None:
                return Parsed("move", frm=frm, to=to)
    if text.startswith("hunter"):
        raise ParseError(f"a hunter outcome is one of {', '.join(OUTCOMES[3:7])}")
    raise ParseError("moves look like: flip c3, c3-c6, c3xc6, d2-exit-d1, pass")


def line_between(frm: int, to: int) -> tuple[int, int] | None:
    """(direction, steps) if `to` lies in a straight orthogonal line from `frm`, else None."""
    for d in range(4):
        ray = RAYS[frm][d]
        if to in ray:
            return d, ray.index(to) + 1
    return None


__all__ = ["CHANCE_BASE", "EXIT_BASE", "FLIP_BASE", "MOVE_BASE", "NUM_ACTIONS",
           "PASS", "Decoded", "ParseError", "Parsed", "decode", "exit_action", "flip_action",
           "line_between", "move_action", "outcome_action", "parse", "to_string"]
