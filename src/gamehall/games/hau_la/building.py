"""The building: placed pieces (kept as their discrete choices) and the holes they offer.

A `Building` is immutable; placing a piece makes a new one. Its geometry is recomputed from the
discrete plans alone, so the same choices always give the same building, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.curves import Sampled
from gamehall.games.hau_la.data import Model
from gamehall.games.hau_la.geometry import EAST, UP, Arr
from gamehall.games.hau_la.shapes import SHAPES, end_shapes, joint_shapes_cached, rotation_table
from gamehall.games.hau_la.touch import SegmentGrid

SIDES = ("u", "d")
LETTERS = "abcdefgh"


class PlanError(ValueError):
    """A plan that names missing holes or does not fit (only hand-written states have these)."""


@dataclass(frozen=True)
class Plan:
    """How a piece was put in: kind, holes (first plug first), plug sides (0 = u, 1 = d), and the
    rotation index of an end piece (-1 for joints)."""

    kind: int
    holes: tuple[int, ...]
    sides: tuple[int, ...]
    rot: int = -1


@dataclass(frozen=True, eq=False)
class Piece:
    """A placed piece with its geometry (holes listed from its first plug end)."""

    number: int
    plan: Plan
    placer: int
    """Seat that placed it; -1 for the starting building."""
    bonus: bool
    first_hole: int
    """Id of this piece's first hole; its holes are numbered on from there."""
    points: Arr
    hole_pos: Arr
    hole_tan: Arr
    hole_axis: Arr

    @cached_property
    def points_json(self) -> list[list[float]]:
        """The centre line rounded to 4 decimals, for JSON (computed once)."""
        return rounded(self.points)


class Signature(tuple[tuple[object, ...], ...]):
    """What makes a building: each piece's plan, placer and bonus flag. Its hash is kept once
    worked out (buildings key the engine's caches, and a long tuple of plans is slow to hash
    again at every placement)."""

    def __hash__(self) -> int:
        found: int | None = self.__dict__.get("hash")
        if found is None:
            found = self.__dict__["hash"] = super().__hash__()
        return found


def rounded(a: Arr) -> Any:
    """Coordinates rounded to 4 decimals (and -0.0 made 0.0) as nested lists."""
    return (np.round(a, 4) + 0.0).tolist()


def plug_direction(axis: Arr, side: int) -> Arr:
    return axis if side == 0 else -axis


class Building:
    """The board's holes plus every placed piece, with per-hole arrays for fast enumeration."""

    pos: Arr
    tan: Arr
    axis: Arr
    host: NDArray[np.int64]
    """Index of the piece holding each hole (-1: the board)."""
    plug: NDArray[np.int64]
    """Index of the piece whose plug is in each hole (-1: none)."""
    names: tuple[str, ...]

    def __init__(self, model: Model, pieces: tuple[Piece, ...],
                 parent: Building | None = None) -> None:
        self.model = model
        self.pieces = pieces
        self._parent = parent
        """The building this one grew from by its last piece, while its grid is still to make."""
        nb = len(model.board)
        self.n_board = nb
        # the hole arrays: the parent's plus the last piece's holes, or all made afresh
        base, new = ((parent, pieces[-1:]) if parent is not None
                     else (None, pieces))
        first = len(pieces) - len(new)
        if base is None:
            board = np.array([[x, y, 0.0] for x, y in model.board])
            pos, tan, axis = [board], [np.tile(EAST, (nb, 1))], [np.tile(UP, (nb, 1))]
            host, plug, names = [np.full(nb, -1)], [np.full(nb, -1)], tuple(
                f"g{i + 1}" for i in range(nb))
        else:
            pos, tan, axis = [base.pos], [base.tan], [base.axis]
            host, plug, names = [base.host], [base.plug], base.names
        self.pos = np.concatenate(pos + [p.hole_pos for p in new])
        self.tan = np.concatenate(tan + [p.hole_tan for p in new])
        self.axis = np.concatenate(axis + [p.hole_axis for p in new])
        self.host = np.concatenate(host + [np.full(len(p.hole_pos), first + i)
                                           for i, p in enumerate(new)])
        self.plug = np.concatenate(plug + [np.full(len(p.hole_pos), -1) for p in new])
        for i, p in enumerate(new):
            self.plug[list(p.plan.holes)] = first + i
        self.names = names + tuple(
            f"{p.number}{LETTERS[k]}" for p in new for k in range(len(p.hole_pos)))
        self._shapes: dict[Plan, Sampled] = {}

    @cached_property
    def holes_json(self) -> tuple[list[list[float]], list[list[float]]]:
        """Hole positions and axes rounded to 4 decimals, for JSON (computed once)."""
        return rounded(self.pos), rounded(self.axis)

    @classmethod
    def start(cls, model: Model) -> Building:
        """The starting building described in the data file."""
        b = cls(model, ())
        for s in model.start:
            holes = tuple(b.hole_id(h) for h in s.holes)
            sides = tuple(SIDES.index(x) for x in s.sides)
            b = b.add(Plan(model.kind_index(s.kind), holes, sides), placer=-1, bonus=False)
        return b

    # --- holes -------------------------------------------------------------------------------
    @property
    def n_holes(self) -> int:
        return len(self.pos)

    def hole_id(self, name: str) -> int:
        try:
            return self._hole_ids[name.strip().lower()]
        except KeyError:
            raise PlanError(f"there is no hole {name}") from None

    def is_board(self, hole: int) -> bool:
        return hole < self.n_board

    @cached_property
    def _hole_ids(self) -> dict[str, int]:
        """Hole ids by name (made when first asked: play itself never names holes)."""
        return {n: i for i, n in enumerate(self.names)}

    @cached_property
    def signature(self) -> Signature:
        return Signature((p.plan, p.placer, p.bonus) for p in self.pieces)

    # --- placing -----------------------------------------------------------------------------
    def shape(self, plan: Plan) -> Sampled:
        """The geometry `plan` gives (one row; holes from the first plug); PlanError if none."""
        found = self._shapes.get(plan)
        if found is None:
            found = self._shapes[plan] = self._shape(plan)
        return found

    def _shape(self, plan: Plan) -> Sampled:
        m = self.model
        spec = m.kinds[plan.kind]
        for h in plan.holes:
            if not 0 <= h < self.n_holes:
                raise PlanError(f"there is no hole number {h}")
        if not spec.is_joint:
            (h,), (side,) = plan.holes, plan.sides
            d = plug_direction(self.axis[h], side)
            ok, shape = end_shapes(m, spec, self.pos[h][None], d[None], self.tan[h][None],
                                   rotation_table(m)[plan.rot][None],
                                   np.array([self.is_board(h)]))
            if not ok[0]:
                raise PlanError("that end piece would pass below the board")
            return shape
        h0, h1 = plan.holes
        s0, s1 = plan.sides
        rev = h0 > h1
        lo, hi, slo, shi = (h1, h0, s1, s0) if rev else (h0, h1, s0, s1)
        # the enumeration that offered this placement has usually put its shape in the cache
        js = joint_shapes_cached(SHAPES, m, [spec], self.pos[lo][None],
                                 plug_direction(self.axis[lo], slo)[None], self.pos[hi][None],
                                 plug_direction(self.axis[hi], shi)[None],
                                 np.array([self.is_board(lo)]), np.array([self.is_board(hi)]),
                                 [1])[0]
        if not js.ok[0]:
            raise PlanError(f"a {spec.name} does not fit between those holes")
        s = js.shape
        k = len(spec.holes)
        part = slice(k, 2 * k) if rev else slice(0, k)
        pts = s.points[:, ::-1] if rev else s.points
        return Sampled(pts, s.hole_pos[:, part], s.hole_tan[:, part], s.hole_axis[:, part])

    def add(self, plan: Plan, placer: int, bonus: bool) -> Building:
        """A new building with `plan` placed (its holes must be free of plugs)."""
        for h in plan.holes:
            if 0 <= h < self.n_holes and self.plug[h] >= 0:
                raise PlanError(f"hole {self.names[h]} already holds a plug")
        shape = self.shape(plan)
        number = len(self.pieces) + 1
        piece = Piece(number, plan, placer, bonus, self.n_holes, shape.points[0],
                      shape.hole_pos[0], shape.hole_tan[0], shape.hole_axis[0])
        return Building(self.model, (*self.pieces, piece), parent=self)

    # --- touch index -------------------------------------------------------------------------
    @cached_property
    def grid(self) -> SegmentGrid:
        parent, self._parent = self._parent, None
        if parent is not None and "grid" in parent.__dict__:  # the parent's grid plus one piece
            p = self.pieces[-1]
            return parent.grid.extended(p.points[:-1], p.points[1:], len(self.pieces) - 1)
        m = self.model
        reach = max(2 * m.r + m.seg_len / 2, m.r + m.tag_r) + 0.01
        if not self.pieces:
            z3 = np.zeros((0, 3))
            return SegmentGrid.build(z3, z3, np.zeros(0, dtype=np.int64), reach, m.seg_len)
        p0 = np.concatenate([p.points[:-1] for p in self.pieces])
        p1 = np.concatenate([p.points[1:] for p in self.pieces])
        owner = np.concatenate([np.full(len(p.points) - 1, i, dtype=np.int64)
                                for i, p in enumerate(self.pieces)])
        return SegmentGrid.build(p0, p1, owner, reach, m.seg_len * 1.01)

    def tag_centre(self, hole: int, face: int) -> Arr:
        """Where a tag sitting in `hole` on `face` (0 = u) has its centre."""
        a = plug_direction(self.axis[hole], face)
        return self.pos[hole] + a * self.model.tag_offset

