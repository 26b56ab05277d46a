"""Action numbers and notation.

Actions (one integer space, 21 values):
- ``0..15`` a ship step: ``ship * 4 + side`` — the mover's ship 0-3 crosses side 0-3 of the
  polygon of the field it stands on (side i runs from corner i to corner i+1). Naming the side,
  not the die, keeps two lines with the same number out of one field both playable.
- ``16`` ends the turn.
- ``17..20`` chance: one die shows 1-4.

Notation: ``N2>f17`` (ship N2 steps into field f17; ships are N1-N4 for north, S1-S4 for south),
``end``, ``roll 3``. Case and spaces are ignored; ``N2-f17`` and ``N2 f17`` are read as well.
"""

from __future__ import annotations

from typing import Any

SHIPS_PER_SEAT = 4
SIDES = 4
END = SHIPS_PER_SEAT * SIDES
ROLL_BASE = END + 1
NUM_ACTIONS = ROLL_BASE + 4
SHIP_LETTERS = ("N", "S")


def step_action(ship: int, side: int) -> int:
    return ship * SIDES + side


def split_step(action: int) -> tuple[int, int]:
    """(ship 0-3 of the mover, polygon side 0-3) of a step action."""
    return divmod(action, SIDES)


def roll_action(value: int) -> int:
    return ROLL_BASE + value - 1


def roll_value(action: int) -> int:
    return action - ROLL_BASE + 1


def ship_label(seat: int, ship: int) -> str:
    """``N1``..``N4`` for north's ships, ``S1``..``S4`` for south's."""
    return f"{SHIP_LETTERS[seat]}{ship + 1}"


def parse_ship(text: str) -> tuple[int, int] | None:
    """(seat, ship) for a label like ``n3``; None if it names no ship."""
    t = text.strip().upper()
    if len(t) == 2 and t[0] in SHIP_LETTERS and t[1] in "1234":
        return SHIP_LETTERS.index(t[0]), int(t[1]) - 1
    return None


def step_text(seat: int, ship: int, target: str) -> str:
    return f"{ship_label(seat, ship)}>{target}"


def roll_text(value: int) -> str:
    return f"roll {value}"


def action_parts(action: int, seat: int, ends: tuple[str, str] | None) -> dict[str, Any]:
    """`action` taken apart for clients: kinds ``step`` (piece: the ship, from and to: the
    fields; `ends` for a step, None where the side has no line), ``end`` and ``roll`` (value,
    and ``for``: the seat whose turn it starts, so a turn with no step after its roll still
    says whose roll it was); ``{}`` for anything else."""
    if ROLL_BASE <= action < NUM_ACTIONS:
        return {"kind": "roll", "value": roll_value(action), "for": seat}
    if action == END:
        return {"kind": "end"}
    if 0 <= action < END and ends is not None:
        ship, _ = split_step(action)
        return {"kind": "step", "piece": ship_label(seat, ship), "from": ends[0], "to": ends[1]}
    return {}


def split_step_text(text: str) -> tuple[str, str] | None:
    """(ship label, field id) of a typed step such as ``N2>f17``, ``n2 - F17`` or ``N2 f17``."""
    t = text.strip()
    for sep in (">", "-"):
        if sep in t:
            left, _, right = t.partition(sep)
            return left.strip(), right.strip()
    parts = t.split()
    if len(parts) == 2:
        return parts[0], parts[1]
    return None
