"""Every possible placement for one player's choice, enumerated and touch-checked at once.

A placement is a row of small choices: kind, first hole, second hole (joint) or rotation (end),
plug sides, tag hole and face. Impossible ones (no fit, below the board, through another tube,
a tag below the board) are left out; touching ones are kept and flagged. Each row also carries
the height (centre z) its tag would have, so a bot can judge a placement without making it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.data import Model, PieceSpec
from gamehall.games.hau_la.geometry import Arr, canonical_axis, cross, norm
from gamehall.games.hau_la.shapes import end_shapes, joint_shapes, rotation_table
from gamehall.games.hau_la.touch import (
    Joints,
    piece_contacts,
    points_touch_pieces,
    segments_touch_points,
)

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Floats = NDArray[np.float64]
Part = tuple[Ints, Bools, Floats]
"""Rows, touch flags and tag heights of some placements."""
KIND, FIRST, SECOND, ROT, SIDES, TAG = range(6)
"""Columns of a placement row. SIDES is 2·side_first + side_second for a joint, the side for an
end; TAG is 2·(hole index on the new piece) + face, or -1 when no tag is placed."""


@dataclass(frozen=True)
class Ask:
    """What the placer may do this time."""

    kinds: tuple[int, ...]
    firsts: tuple[int, ...]
    seconds: tuple[int, ...]
    """Holes a joint's second plug may use (the first hole itself is always excluded)."""
    bonus: bool = False
    """One plug in a board hole, the other not (bonus joints)."""
    tag: bool = True


@dataclass(frozen=True)
class Tags:
    """The tags on the board now: their holes and centres."""

    holes: Ints
    centres: Arr

    @classmethod
    def of(cls, b: Building, spots: list[tuple[int, int]]) -> Tags:
        """From (hole, face) pairs."""
        if not spots:
            return cls(np.zeros(0, dtype=np.int64), np.zeros((0, 3)))
        return cls(np.array([h for h, _ in spots], dtype=np.int64),
                   np.stack([b.tag_centre(h, f) for h, f in spots]))


@dataclass(frozen=True)
class Placements:
    rows: Ints
    touch: Bools
    height: Floats
    """The z of the new tag's centre per row (NaN when no tag is placed)."""

    def __len__(self) -> int:
        return len(self.rows)


def enumerate_placements(b: Building, tags: Tags, ask: Ask) -> Placements:
    parts = [(_joints if b.model.kinds[k].is_joint else _ends)(b, tags, ask, k) for k in ask.kinds]
    if not parts:
        return Placements(*_empty())
    return Placements(np.concatenate([p[0] for p in parts]),
                      np.concatenate([p[1] for p in parts]),
                      np.concatenate([p[2] for p in parts]))


def _empty() -> Part:
    return np.zeros((0, 6), dtype=np.int64), np.zeros(0, dtype=bool), np.zeros(0)


def _piece_checks(b: Building, tags: Tags, points: Arr, joints: Joints,
                  lifted: Bools) -> tuple[Bools, Bools]:
    """(inside, touch) for candidate centre lines `points` (C, n+1, 3)."""
    m = b.model
    c, n1 = points.shape[:2]
    if c == 0:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    q0 = points[:, :-1].reshape(-1, 3)
    q1 = points[:, 1:].reshape(-1, 3)
    owner = np.repeat(np.arange(c, dtype=np.int64), n1 - 1)
    inside, touch = piece_contacts(b.grid, q0, q1, owner, joints, c, m.r, m.r_ex)
    if len(tags.holes):
        near = segments_touch_points(q0, q1, tags.centres, m.r + m.tag_r)
        near = near.reshape(c, n1 - 1, -1).any(axis=1) & ~lifted
        touch |= near.any(axis=1)
    return inside, touch


def _tag_checks(b: Building, tags: Tags, centres: Arr, lifted: Bools) -> tuple[Bools, Bools]:
    """(possible, touch) for tag centres (N, 3); `lifted` (N, T) marks tags taken out."""
    m = b.model
    possible = centres[:, 2] >= m.tag_r - 1e-9
    touch = points_touch_pieces(b.grid, centres, m.r + m.tag_r)
    if len(tags.holes):
        d = norm(centres[:, None, :] - tags.centres[None, :, :])
        touch |= ((d < 2 * m.tag_r) & ~lifted).any(axis=1)
    return possible, touch


def _tag_rows(m: Model, hole_pos: Arr, hole_axis: Arr) -> Arr:
    """Tag centres (C, k, 2, 3) for each hole of each candidate, face u then d."""
    off = m.tag_offset * np.array([1.0, -1.0])
    return hole_pos[:, :, None, :] + off[None, None, :, None] * hole_axis[:, :, None, :]


def _ends(b: Building, tags: Tags, ask: Ask, kind: int) -> Part:
    m = b.model
    spec = m.kinds[kind]
    hs, ss = _with_sides(b, np.array(ask.firsts, dtype=np.int64))
    if len(hs) == 0:
        return _empty()
    board = hs < b.n_board
    p = b.pos[hs]
    d = np.where((ss == 0)[:, None], b.axis[hs], -b.axis[hs])
    ok, shape = end_shapes(m, spec, p, d, b.tan[hs], np.tile([1.0, 0.0], (len(hs), 1)), board)
    lifted = tags.holes[None, :] == hs[:, None]
    joints = Joints(p[:, None, :], b.host[hs][:, None])
    inside, touch = _piece_checks(b, tags, shape.points, joints, lifted)
    keep = np.flatnonzero(ok & ~inside)
    if len(keep) == 0:
        return _empty()
    hs, ss, d, touch, lifted = hs[keep], ss[keep], d[keep], touch[keep], lifted[keep]
    ref = b.tan[hs]
    cs = rotation_table(m)
    n_rot, k = len(cs), len(spec.holes)
    axes = canonical_axis(ref[:, None, :] * cs[None, :, 0, None]
                          + cross(d, ref)[:, None, :] * cs[None, :, 1, None])  # (C, R, 3)
    c = len(hs)
    ci = np.repeat(np.arange(c), n_rot)
    ri = np.tile(np.arange(n_rot), c)
    base = np.stack([np.full(c * n_rot, kind), hs[ci], np.full(c * n_rot, -1), ri, ss[ci]], 1)
    if not ask.tag:
        return (np.concatenate([base, np.full((len(base), 1), -1)], 1), touch[ci],
                np.full(len(base), np.nan))
    hole_pos = shape.hole_pos[keep][ci]  # (C·R, k, 3)
    hole_axis = np.repeat(axes.reshape(-1, 1, 3), k, axis=1)
    centres = _tag_rows(m, hole_pos, hole_axis).reshape(-1, 3)
    owner = np.repeat(np.arange(c * n_rot), 2 * k)
    possible, ttouch = _tag_checks(b, tags, centres, lifted[ci][owner])
    tag = np.tile(np.arange(2 * k), c * n_rot)
    rows = np.concatenate([base[owner], tag[:, None]], 1)
    return rows[possible], (touch[ci][owner] | ttouch)[possible], centres[possible, 2]


def _with_sides(b: Building, holes: Ints) -> tuple[Ints, Ints]:
    """Each hole with each face a plug may enter from (board holes: only from above)."""
    hs = np.repeat(holes, 2)
    ss = np.tile(np.array([0, 1], dtype=np.int64), len(holes))
    keep = (ss == 0) | (hs >= b.n_board)
    return hs[keep], ss[keep]


def _pairs(b: Building, ask: Ask, spec: PieceSpec) -> tuple[Ints, Ints, Ints]:
    """Unordered hole pairs (lo < hi) within reach, with flags 1: lo first allowed, 2: hi first."""
    f = np.array(ask.firsts, dtype=np.int64)
    s = np.array(ask.seconds, dtype=np.int64)
    a = np.repeat(f, len(s))
    c = np.tile(s, len(f))
    keep = a != c
    if ask.bonus:
        keep &= (a < b.n_board) != (c < b.n_board)
    a, c = a[keep], c[keep]
    lo, hi = np.minimum(a, c), np.maximum(a, c)
    span = norm(b.pos[hi] - b.pos[lo])
    length = spec.length
    keep = (span >= b.model.min_span * length - 1e-9) & (span <= b.model.max_span * length + 1e-9)
    lo, hi, flag = lo[keep], hi[keep], np.where(a[keep] == lo[keep], 1, 2)
    key = lo * b.n_holes + hi
    uniq, inv = np.unique(key, return_inverse=True)
    flags = np.zeros(len(uniq), dtype=np.int64)
    np.bitwise_or.at(flags, inv, flag)
    return uniq // b.n_holes, uniq % b.n_holes, flags


def _joints(b: Building, tags: Tags, ask: Ask, kind: int) -> Part:
    m = b.model
    spec = m.kinds[kind]
    lo, hi, flags = _pairs(b, ask, spec)
    combos = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.int64)
    pi = np.repeat(np.arange(len(lo)), 4)
    sl, sh = np.tile(combos[:, 0], len(lo)), np.tile(combos[:, 1], len(lo))
    lo, hi, flags = lo[pi], hi[pi], flags[pi]
    keep = ((sl == 0) | (lo >= b.n_board)) & ((sh == 0) | (hi >= b.n_board))
    lo, hi, flags, sl, sh = lo[keep], hi[keep], flags[keep], sl[keep], sh[keep]
    if len(lo) == 0:
        return _empty()
    a, bb = b.pos[lo], b.pos[hi]
    da = plug_direction_many(b.axis[lo], sl)
    db = plug_direction_many(b.axis[hi], sh)
    js = joint_shapes(m, spec, a, da, bb, db, lo < b.n_board, hi < b.n_board)
    idx = np.flatnonzero(js.ok)
    if len(idx) == 0:
        return _empty()
    lo, hi, flags, sl, sh = lo[idx], hi[idx], flags[idx], sl[idx], sh[idx]
    lifted = (tags.holes[None, :] == lo[:, None]) | (tags.holes[None, :] == hi[:, None])
    joints = Joints(np.stack([a[idx], bb[idx]], 1), np.stack([b.host[lo], b.host[hi]], 1))
    inside, touch = _piece_checks(b, tags, js.shape.points, joints, lifted)
    k = len(spec.holes)
    out_rows, out_touch, out_height = [], [], []
    for order, (first, second, s1, s2, part) in enumerate(
            ((lo, hi, sl, sh, slice(0, k)), (hi, lo, sh, sl, slice(k, 2 * k)))):
        sel = np.flatnonzero(~inside & ((flags & (1 << order)) != 0))
        base = np.stack([np.full(len(sel), kind), first[sel], second[sel], np.full(len(sel), -1),
                         2 * s1[sel] + s2[sel]], 1)
        if not ask.tag:
            out_rows.append(np.concatenate([base, np.full((len(sel), 1), -1)], 1))
            out_touch.append(touch[sel])
            out_height.append(np.full(len(sel), np.nan))
            continue
        centres = _tag_rows(m, js.shape.hole_pos[sel, part],
                            js.shape.hole_axis[sel, part]).reshape(-1, 3)
        owner = np.repeat(np.arange(len(sel)), 2 * k)
        possible, ttouch = _tag_checks(b, tags, centres, lifted[sel][owner])
        tag = np.tile(np.arange(2 * k), len(sel))
        out_rows.append(np.concatenate([base[owner], tag[:, None]], 1)[possible])
        out_touch.append((touch[sel][owner] | ttouch)[possible])
        out_height.append(centres[possible, 2])
    return np.concatenate(out_rows), np.concatenate(out_touch), np.concatenate(out_height)


def plug_direction_many(axis: Arr, sides: Ints) -> Arr:
    return np.where((sides == 0)[:, None], axis, -axis)

