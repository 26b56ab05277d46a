"""The numbers of Hau La's geometry model, read once from ``pieces.json``.

Everything physical (lengths, radii, hole fractions, board holes, the starting building, what
each player gets) lives in that file so it can be tuned without touching code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("pieces.json")


@dataclass(frozen=True)
class PieceSpec:
    """One kind of piece: a joint (plug at both ends) or an end piece (plug at one end)."""

    code: str
    name: str
    is_joint: bool
    length: float
    holes: tuple[float, ...]
    """Hole positions as fractions of the length, from the (first) plug end."""
    in_box: int


@dataclass(frozen=True)
class StartPiece:
    kind: str
    holes: tuple[str, ...]
    sides: tuple[str, ...]


@dataclass(frozen=True)
class Preparation:
    hand: tuple[int, ...]
    """Pieces per player, indexed like `Model.kinds`."""
    tag_owners: tuple[int, ...]
    """For each tag (by colour index), the seat that owns it."""
    extras: tuple[int, ...]
    """Kinds handed out one to each player for their first turn (3 players)."""


@dataclass(frozen=True)
class Model:
    """The whole geometry model and the game material."""

    r: float
    tag_r: float
    r_ex: float
    seg_len: float
    min_span: float
    max_span: float
    min_bend_radius: float
    ratios: tuple[float, ...]
    rotations_deg: tuple[int, ...]
    kinds: tuple[PieceSpec, ...]
    board: tuple[tuple[float, float], ...]
    start: tuple[StartPiece, ...]
    colours: tuple[str, ...]
    preparations: dict[int, Preparation]

    @property
    def tag_offset(self) -> float:
        """Distance from a hole to the centre of a tag sitting in it."""
        return self.r + self.tag_r

    def kind_index(self, code: str) -> int:
        for i, spec in enumerate(self.kinds):
            if spec.code == code.upper():
                return i
        raise KeyError(code)

    @property
    def max_holes(self) -> int:
        """Holes in the biggest possible building: the board's and every piece's in the box."""
        return len(self.board) + sum(k.in_box * len(k.holes) for k in self.kinds)

    @property
    def max_piece_holes(self) -> int:
        return max(len(k.holes) for k in self.kinds)

    def stock(self, players: int) -> int:
        """Big joints left for bonus placements: the box minus the start building and hands."""
        big = self.kind_index("BJ")
        used = sum(1 for p in self.start if self.kind_index(p.kind) == big)
        prep = self.preparations[players]
        extra = sum(1 for k in prep.extras if k == big)
        return self.kinds[big].in_box - used - players * prep.hand[big] - extra


def _num(value: Any) -> float:
    return float(Fraction(str(value)))


def _parse(raw: dict[str, Any]) -> Model:
    fit = raw["joint_fit"]
    codes = list(raw["pieces"])
    kinds = tuple(
        PieceSpec(code, p["name"], p["type"] == "joint", _num(p["length"]),
                  tuple(_num(h) for h in p["holes"]), int(p["in_box"]))
        for code, p in raw["pieces"].items())
    preps = {}
    for n, p in raw["preparation"].items():
        preps[int(n)] = Preparation(
            hand=tuple(int(p["hand"].get(c, 0)) for c in codes),
            tag_owners=tuple(int(o) for o in p["tag_owners"]),
            extras=tuple(codes.index(c) for c in p["first_turn_extras"]))
    r = _num(raw["tube_radius"])
    return Model(
        r=r,
        tag_r=_num(raw["tag_radius"]),
        r_ex=_num(raw["exclusion_radius"]),
        seg_len=_num(raw["segment_length"]),
        min_span=_num(fit["min_span"]),
        max_span=_num(fit["max_span"]),
        min_bend_radius=_num(fit["min_bend_radius_in_radii"]) * r,
        ratios=tuple(_num(x) for x in fit["tangent_ratios"]),
        rotations_deg=tuple(int(a) for a in raw["end_rotations_deg"]),
        kinds=kinds,
        board=tuple((_num(x), _num(y)) for x, y in raw["board_holes"]),
        start=tuple(StartPiece(s["kind"], tuple(s["holes"]), tuple(s["sides"]))
                    for s in raw["start_building"]),
        colours=tuple(raw["tag_colours"]),
        preparations=preps,
    )


@cache
def model() -> Model:
    """The model from the package's data file (read once)."""
    return _parse(json.loads(DATA_FILE.read_text()))
