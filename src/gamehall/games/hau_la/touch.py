"""Touch detection: the building's segments in a uniform spatial grid, queried by many candidates.

Each building segment is listed in every grid cell that its bounding box, grown by `reach`,
overlaps. A query segment (no longer than `2·(reach − 2r)`) or a query point can only come within
contact distance of a building segment listed in the cell holding the query's midpoint, so one
sorted array of cell keys and two `searchsorted` calls give every candidate pair at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.geometry import Arr, norm, point_segment_distance, segment_distance

Ints = NDArray[np.int64]
_OFF = 1 << 10
_SPAN = 1 << 11


def _keys(cells: Ints) -> Ints:
    c = cells + _OFF
    return (c[..., 0] * _SPAN + c[..., 1]) * _SPAN + c[..., 2]


def _listing(p0: Arr, p1: Arr, reach: float, cell: float) -> tuple[Ints, Ints]:
    """(cell key, segment index) of every cell each segment's box grown by `reach` overlaps."""
    lo = np.floor((np.minimum(p0, p1) - reach) / cell).astype(np.int64)
    hi = np.floor((np.maximum(p0, p1) + reach) / cell).astype(np.int64)
    dims = hi - lo + 1
    counts = dims[:, 0] * dims[:, 1] * dims[:, 2]
    seg = np.repeat(np.arange(len(p0), dtype=np.int64), counts)
    start = np.repeat(np.cumsum(counts) - counts, counts)
    k = np.arange(len(seg), dtype=np.int64) - start
    d = dims[seg]
    off = np.stack([k // (d[:, 1] * d[:, 2]), (k // d[:, 2]) % d[:, 1], k % d[:, 2]], axis=1)
    return _keys(lo[seg] + off), seg


@dataclass(frozen=True)
class SegmentGrid:
    """The building's centre-line segments, bucketed by grid cell."""

    p0: Arr
    p1: Arr
    piece: Ints
    """Index of the piece each segment belongs to."""
    cell: float
    keys: Ints
    segs: Ints
    mid: Arr
    max_len: float
    """Longest segment (building or query): midpoints farther than 2r + this never touch."""

    reach: float = 0.0
    """How far beyond its bounding box each segment is listed (kept for `extended`)."""

    @classmethod
    def build(cls, p0: Arr, p1: Arr, piece: Ints, reach: float, max_len: float,
              cell: float = 1.0) -> SegmentGrid:
        keys, seg = _listing(p0, p1, reach, cell)
        order = keys.argsort(kind="stable")
        return cls(p0, p1, piece, cell, keys[order], seg[order], (p0 + p1) * 0.5,
                   float(max(max_len, norm(p1 - p0).max(initial=0.0))), reach)

    def extended(self, p0: Arr, p1: Arr, piece: int) -> SegmentGrid:
        """This grid plus one piece's segments: the grid `build` would make of all of them.

        A building grows one piece at a time, so merging the new piece's few sorted keys into
        the sorted listing costs far less than sorting the whole listing again; equal keys keep
        the order a stable sort of the concatenation gives (older segments first).
        """
        keys, seg = _listing(p0, p1, self.reach, self.cell)
        order = keys.argsort(kind="stable")
        keys, seg = keys[order], seg[order] + len(self.p0)
        at = self.keys.searchsorted(keys, side="right")
        # the merged listing as np.insert(old, at, new) makes it: new item i lands at at[i] + i
        n = len(self.keys) + len(keys)
        new_at = at + np.arange(len(keys))
        old_at = np.ones(n, dtype=bool)
        old_at[new_at] = False
        merged_keys, merged_segs = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        merged_keys[new_at], merged_segs[new_at] = keys, seg
        merged_keys[old_at], merged_segs[old_at] = self.keys, self.segs
        return SegmentGrid(np.concatenate([self.p0, p0]), np.concatenate([self.p1, p1]),
                           np.concatenate([self.piece, np.full(len(p0), piece, dtype=np.int64)]),
                           self.cell, merged_keys, merged_segs,
                           np.concatenate([self.mid, (p0 + p1) * 0.5]),
                           float(max(self.max_len, norm(p1 - p0).max(initial=0.0))), self.reach)

    def candidates(self, mid: Arr) -> tuple[Ints, Ints]:
        """Pairs (query index, segment index) worth an exact distance test."""
        if len(self.keys) == 0 or len(mid) == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        qk = _keys(np.floor(mid / self.cell).astype(np.int64))
        lo = self.keys.searchsorted(qk, side="left")
        hi = self.keys.searchsorted(qk, side="right")
        n = hi - lo
        qi = np.arange(len(mid), dtype=np.int64).repeat(n)
        start = (n.cumsum() - n).repeat(n)
        ei = self.segs[lo.repeat(n) + np.arange(len(qi), dtype=np.int64) - start]
        return qi, ei

    @cached_property
    def mid_columns(self) -> Arr:
        """The midpoints as (3, S), each axis contiguous (made once per grid)."""
        return np.ascontiguousarray(self.mid.T)


@dataclass(frozen=True)
class Joints:
    """The plug-hole joints that connect each candidate piece to the building (up to two)."""

    point: Arr
    """(C, 2, 3) joint positions."""
    host: Ints
    """(C, 2) index of the building piece holding that hole, -1 for the board or no joint."""


def piece_contacts(grid: SegmentGrid, q0: Arr, q1: Arr, owner: Ints, joints: Joints, n_cand: int,
                   r: float, r_ex: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """(inside, touch) per candidate for the query segments q0-q1 of candidate `owner`.

    touch: some pair of segments is closer than 2r; inside: closer than r (a strip cannot pass
    through another). Pairs where both segments lie within `r_ex` of a joint connecting the
    candidate to that piece are ignored (the plug sits in its host there).
    """
    mid = (q0 + q1) * 0.5
    qi, ei = grid.candidates(mid)
    reach = 2.0 * r + grid.max_len
    near = _gap2(mid, qi, grid.mid_columns, ei) < reach * reach
    qi, ei = qi[near], ei[near]
    d = segment_distance(_rows(q0, qi), _rows(q1, qi), _rows(grid.p0, ei), _rows(grid.p1, ei))
    near = d < 2.0 * r
    qi, ei, d = qi[near], ei[near], d[near]
    c = owner[qi]
    host = grid.piece[ei]
    excused = np.zeros(len(qi), dtype=bool)
    hosts = joints.host[c]
    # (pair, joint k) where the pair's building piece is the one joint k plugs into: all joints
    # in one batch
    at, k = ((hosts == host[:, None]) & (hosts >= 0)).nonzero()
    if len(at):
        jp = joints.point[c[at], k]
        q, e = qi[at], ei[at]
        near_joint = point_segment_distance(jp, _rows(q0, q), _rows(q1, q)) < r_ex
        near_joint &= point_segment_distance(jp, _rows(grid.p0, e), _rows(grid.p1, e)) < r_ex
        excused[at[near_joint]] = True
    keep = ~excused
    touch = np.bincount(c[keep], minlength=n_cand) > 0
    inside = np.bincount(c[keep & (d < r)], minlength=n_cand) > 0
    return inside, touch


def _rows(a: Arr, idx: Ints) -> Arr:
    """a[idx] for (N, 3) arrays: `take` copies rows of three numbers faster than indexing."""
    return a.take(idx, axis=0)


def _gap2(a: Arr, ai: Ints, bc: Arr, bi: Ints) -> Arr:
    """dot(a[ai] - b[bi], a[ai] - b[bi]) for many pairs, axis by axis from contiguous columns
    (`bc` is b as (3, N) columns; the same operations on each number as the row form)."""
    ac = np.ascontiguousarray(a.T)
    x, y, z = (ac[i][ai] - bc[i][bi] for i in range(3))
    return x * x + y * y + z * z


def points_touch_pieces(grid: SegmentGrid, pts: Arr, radius: float) -> NDArray[np.bool_]:
    """True where a point (a tag's centre) is closer than `radius` to a building segment."""
    qi, ei = grid.candidates(pts)
    if len(qi) == 0:
        return np.zeros(len(pts), dtype=bool)
    d = point_segment_distance(_rows(pts, qi), _rows(grid.p0, ei), _rows(grid.p1, ei))
    return np.bincount(qi[d < radius], minlength=len(pts)) > 0


def segments_touch_points(q0: Arr, q1: Arr, pts: Arr, radius: float) -> NDArray[np.bool_]:
    """(Q, T): whether each query segment comes closer than `radius` to each point (few points)."""
    if len(pts) == 0:
        return np.zeros((len(q0), 0), dtype=bool)
    # worked out as (T, Q), the long axis last, then turned: the same numbers, found faster
    return (point_segment_distance(pts[:, None, :], q0[None, :, :], q1[None, :, :]) < radius).T
