"""Action integers and their notation.

A placement is several actions by the same seat, each from its own fixed range:

| range                | step                         | notation                 |
| -------------------- | ---------------------------- | ------------------------ |
| KIND + 0..3          | piece kind                   | ``BJ`` ``SJ`` ``BE`` ``SE``  |
| HOLE + hole id       | first hole, or a joint's 2nd | ``g3`` (board), ``5b``   |
| ROT + 0..3           | an end piece's rotation      | ``r0`` ``r45`` ``r90`` ``r135`` |
| SIDES + 0..3         | plug side(s)                 | ``u`` ``d`` (end), ``uu``.. ``dd`` |
| TAG + 2·index + face | tag hole on the new piece    | ``tag 7a u``             |
| EXTRA + 0..2         | 3 players: first-turn piece  | ``take SJ``              |

Hole ids are bounded by the biggest possible building (board holes plus every hole of every
piece in the box), so the space is fixed for a game.
"""

from __future__ import annotations

from typing import Any

from gamehall.games.hau_la.building import LETTERS, SIDES
from gamehall.games.hau_la.data import Model

KIND = 0


def layout(m: Model) -> dict[str, int]:
    """Start of each action range, and the total size (key ``"size"``)."""
    starts: dict[str, int] = {}
    at = 0
    for name, size in (("kind", len(m.kinds)), ("hole", m.max_holes),
                       ("rot", len(m.rotations_deg)), ("sides", 4),
                       ("tag", 2 * m.max_piece_holes), ("extra", len(m.kinds))):
        starts[name] = at
        at += size
    starts["size"] = at
    return starts


def sides_text(value: int, joint: bool) -> str:
    if joint:
        return SIDES[value // 2] + SIDES[value % 2]
    return SIDES[value]


def tag_text(piece_number: int, value: int) -> str:
    return f"tag {piece_number}{LETTERS[value // 2]} {SIDES[value % 2]}"


# --- parts: each step's choice taken apart for clients (notation is made from them) ---------
def kind_parts(code: str) -> dict[str, Any]:
    return {"kind": "piece", "piece": code}


def extra_parts(code: str) -> dict[str, Any]:
    return {"kind": "take", "piece": code}


def hole_parts(name: str, piece: str) -> dict[str, Any]:
    """A hole chosen for a plug (cell) and the piece it plugs (a bonus joint has no piece step
    before its holes, so a move list names the piece from here)."""
    return {"kind": "hole", "cell": name, "piece": piece}


def rotation_parts(degrees: int) -> dict[str, Any]:
    return {"kind": "rotation", "degrees": degrees}


def sides_parts(value: int, joint: bool) -> dict[str, Any]:
    return {"kind": "sides", "sides": sides_text(value, joint)}


def tag_parts(piece_number: int, value: int) -> dict[str, Any]:
    """The tag hole on the new piece (cell) and the face of the piece it goes in."""
    return {"kind": "tag", "cell": f"{piece_number}{LETTERS[value // 2]}",
            "face": SIDES[value % 2]}


def parts_text(parts: dict[str, Any]) -> str:
    """The notation of a step's parts (``BJ``, ``take SJ``, ``5b``, ``r45``, ``ud``, ...)."""
    kind = parts["kind"]
    if kind == "piece":
        return str(parts["piece"])
    if kind == "take":
        return f"take {parts['piece']}"
    if kind == "rotation":
        return f"r{parts['degrees']}"
    if kind == "sides":
        return str(parts["sides"])
    if kind == "tag":
        return f"tag {parts['cell']} {parts['face']}"
    return str(parts["cell"])
