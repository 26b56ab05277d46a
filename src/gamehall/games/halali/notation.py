"""Halali!'s action integers and their notation.

Action space (one integer range, 676 actions; see README.md):
    0..48        flip the face-down tile on a square            ``flip c3``
    49..636      move or capture: one of the 12 squares in line with each square, numbered
                 by (from, direction, steps)                    ``c3-c6`` / ``c3xc6``
    637..664     exit: a square of the middle file or rank, and a direction towards an exit
                                                                 ``d2-exit-d1``
    665          pass (only when nothing else is possible)      ``pass``
    666..675     chance outcome (tile kind, rifle direction)   ``fox``, ``hunter^``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamehall.core.messages import Message, msg
from gamehall.games.halali.tiles import (
    EXIT_EDGE,
    OUTCOMES,
    RAYS,
    SQUARES,
    TOKENS,
    exit_steps,
    parse_square,
    square_name,
)

_MOVES = [(frm, d, steps) for frm in range(SQUARES) for d in range(4)
          for steps in range(1, len(RAYS[frm][d]) + 1)]
_EXITS = [(frm, d) for frm in range(SQUARES) for d in range(4) if exit_steps(frm, d)]

FLIP_BASE = 0
MOVE_BASE = FLIP_BASE + SQUARES
EXIT_BASE = MOVE_BASE + len(_MOVES)
PASS = EXIT_BASE + len(_EXITS)
CHANCE_BASE = PASS + 1
NUM_ACTIONS = CHANCE_BASE + len(OUTCOMES)

MOVE_ID: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(SQUARES)]
"""MOVE_ID[frm][d][steps - 1]: the action moving the tile on `frm` `steps` squares along `d`."""
for _i, (_frm, _d, _steps) in enumerate(_MOVES):
    MOVE_ID[_frm][_d].append(MOVE_BASE + _i)
EXIT_ID: list[list[int]] = [[-1] * 4 for _ in range(SQUARES)]
"""EXIT_ID[frm][d]: the exit action from `frm` in direction `d`, or -1 where no exit lies."""
for _i, (_frm, _d) in enumerate(_EXITS):
    EXIT_ID[_frm][_d] = EXIT_BASE + _i


def flip_action(sq: int) -> int:
    return FLIP_BASE + sq


def move_action(frm: int, d: int, steps: int) -> int:
    """The move action; -1 if `steps` along `d` would leave the board."""
    ids = MOVE_ID[frm][d]
    return ids[steps - 1] if 1 <= steps <= len(ids) else -1


def exit_action(frm: int, d: int) -> int:
    """The exit action, or -1 where no exit lies in direction `d` from `frm`."""
    return EXIT_ID[frm][d]


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


def _decode_all() -> list[Decoded]:
    out = [Decoded("flip", frm=sq) for sq in range(SQUARES)]
    out += [Decoded("move", frm=frm, to=RAYS[frm][d][steps - 1], d=d, steps=steps)
            for frm, d, steps in _MOVES]
    out += [Decoded("exit", frm=frm, d=d) for frm, d in _EXITS]
    out.append(Decoded("pass"))
    out += [Decoded("outcome", outcome=o) for o in range(len(OUTCOMES))]
    return out


_DECODED = _decode_all()


def decode(action: object) -> Decoded | None:
    """Take an action integer apart; None for anything outside the action space."""
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < NUM_ACTIONS:
        return _DECODED[action]
    return None


def to_string(action: int, capture: bool) -> str:
    """The notation of `action`; `capture` says whether a move lands on a face-up tile."""
    dec = decode(action)
    if dec is None:
        return f"?{action}"
    if dec.kind == "flip":
        return f"flip {square_name(dec.frm)}"
    if dec.kind == "move":
        return f"{square_name(dec.frm)}{'x' if capture else '-'}{square_name(dec.to)}"
    if dec.kind == "exit":
        return f"{square_name(dec.frm)}-exit-{square_name(EXIT_EDGE[dec.d])}"
    if dec.kind == "pass":
        return "pass"
    return OUTCOMES[dec.outcome]


def action_parts(action: int, capture: bool, flipping: int | None) -> dict[str, Any]:
    """`action` taken apart for clients, like `to_string`: kinds ``flip`` (cell), ``move`` and
    ``capture`` (from, to), ``exit`` (from, exit: the edge square beyond which it lies),
    ``pass``, and ``reveal`` for a chance outcome (cell: the square being flipped, `flipping`;
    tile: the token the view will show there); ``{}`` outside the action space."""
    dec = decode(action)
    if dec is None:
        return {}
    if dec.kind == "flip":
        return {"kind": "flip", "cell": square_name(dec.frm)}
    if dec.kind == "move":
        return {"kind": "capture" if capture else "move", "from": square_name(dec.frm),
                "to": square_name(dec.to)}
    if dec.kind == "exit":
        return {"kind": "exit", "from": square_name(dec.frm),
                "exit": square_name(EXIT_EDGE[dec.d])}
    if dec.kind == "pass":
        return {"kind": "pass"}
    where = {"cell": square_name(flipping)} if flipping is not None else {}
    return {"kind": "reveal", **where, "tile": TOKENS[2 + dec.outcome]}


@dataclass(frozen=True)
class Parsed:
    """A move as typed: what it names, before checking whether it is legal."""

    kind: str  # flip, move, exit, pass, outcome
    frm: int = -1
    to: int = -1
    exit_edge: int = -1  # -1: `d2-exit` without naming the exit
    outcome: int = -1


class ParseError(ValueError):
    """Text that is not Halali! notation at all: raised with a `Message` saying what is
    expected (`said`), so that the refusal is said in each client's language."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.text)
        self.said = said


def parse(text: str) -> Parsed:
    """Read notation (already lower-case, no spaces): flip c3, c3-c6, c3xc6, d2-exit-d1, ..."""
    if text == "pass":
        return Parsed("pass")
    if text in OUTCOMES:
        return Parsed("outcome", outcome=OUTCOMES.index(text))
    if text.startswith("flip"):
        sq = parse_square(text[4:])
        if sq is None:
            raise ParseError(msg("game.halali.illegal.flip_form"))
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
                raise ParseError(msg("game.halali.illegal.exit_form"))
            return Parsed("exit", frm=frm, exit_edge=edge)
        if len(rest) == 3 and rest[0] in "-x":
            to = parse_square(rest[1:])
            if to is not None:
                return Parsed("move", frm=frm, to=to)
    if text.startswith("hunter"):
        raise ParseError(msg("game.halali.illegal.hunter_outcomes",
                             outcomes=", ".join(OUTCOMES[3:7])))
    raise ParseError(msg("game.halali.illegal.move_forms"))


def line_between(frm: int, to: int) -> tuple[int, int] | None:
    """(direction, steps) if `to` lies in a straight orthogonal line from `frm`, else None."""
    for d in range(4):
        ray = RAYS[frm][d]
        if to in ray:
            return d, ray.index(to) + 1
    return None

