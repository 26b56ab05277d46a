"""Every possible placement for one player's choice, enumerated and touch-checked at once.

A placement is a row of small choices: kind, first hole, second hole (joint) or rotation (end),
plug sides, tag hole and face. Impossible ones (no fit, below the board, through another tube,
a tag below the board) are left out; touching ones are kept and flagged. Each row also carries
the height (centre z) its tag would have, so a bot can judge a placement without making it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.data import Model
from gamehall.games.hau_la.geometry import Arr, canonical_axis, cross, norm
from gamehall.games.hau_la.shapes import (
    SHAPES,
    JointShapes,
    ShapeCache,
    end_shapes_groups,
    joint_shapes_cached,
    joint_shapes_groups,
    rotation_table,
)
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
        holes = np.array([h for h, _ in spots], dtype=np.int64)
        up = np.array([f == 0 for _, f in spots])
        # `Building.tag_centre` of every spot at once (the same operations on each number)
        axis = np.where(up[:, None], b.axis[holes], -b.axis[holes])
        return cls(holes, b.pos[holes] + axis * b.model.tag_offset)


@dataclass(frozen=True)
class Placements:
    rows: Ints
    touch: Bools
    height: Floats
    """The z of the new tag's centre per row (NaN when no tag is placed)."""

    def __len__(self) -> int:
        return len(self.rows)


def enumerate_placements(b: Building, tags: Tags, ask: Ask,
                         cache: ShapeCache | None = SHAPES) -> Placements:
    """Every placement `ask` allows, kind by kind in its order.

    The work is batched over all kinds at once (one fit of every joint candidate, one touch
    check of every candidate piece, one of every candidate tag): the arrays are small, so the
    cost is mostly per numpy call. Each candidate's numbers are computed element by element,
    so batching never changes a result, and joint shapes found in `cache` (None: compute all)
    are the ones a fresh fit would give (see shapes.py).
    """
    m = b.model
    shaped = _shapes(b, tags, ask, cache)
    live = [s for s in shaped if s is not None]
    checks = _piece_checks(b, tags, live)
    blocks: list[_Block] = []
    for s, (inside, touch) in zip(live, checks, strict=True):
        if isinstance(s, _JointCands):
            blocks.extend(_joint_blocks(m, s, inside, touch, ask.tag))
        elif isinstance(s, _EndCands):
            blocks.extend(_end_blocks(m, s, inside, touch, ask.tag))
    parts = _finish(b, tags, blocks)
    if not parts:
        return Placements(*_empty())
    return Placements(np.concatenate([p[0] for p in parts]),
                      np.concatenate([p[1] for p in parts]),
                      np.concatenate([p[2] for p in parts]))


def _empty() -> Part:
    return np.zeros((0, 6), dtype=np.int64), np.zeros(0, dtype=bool), np.zeros(0)


@dataclass(frozen=True)
class _Cands:
    """Candidate pieces of one kind whose shape exists, before the touch checks."""

    kind: int
    points: Arr
    """(C, n+1, 3) centre lines."""
    joints: Joints
    lifted: Bools
    """(C, T): which tags on the board this placement takes out of their holes."""


@dataclass(frozen=True)
class _EndCands(_Cands):
    holes: Ints
    sides: Ints
    direction: Arr
    tan: Arr
    hole_pos: Arr


@dataclass(frozen=True)
class _JointCands(_Cands):
    lo: Ints
    hi: Ints
    flags: Ints
    side_lo: Ints
    side_hi: Ints
    hole_pos: Arr
    hole_axis: Arr


@dataclass(frozen=True)
class _Block:
    """Placement rows without their tag (kind, holes, rotation, sides), their touch flags, and
    when a tag is placed the 2k candidate tag centres of each row (face u then d per hole)."""

    base: Ints
    touch: Bools
    centres: Arr | None
    lifted: Bools


def _shapes(b: Building, tags: Tags, ask: Ask, cache: ShapeCache | None) -> list[_Cands | None]:
    """The candidates of each kind in `ask.kinds`, all joint kinds fitted in one batch."""
    m = b.model
    out: list[_Cands | None] = [None] * len(ask.kinds)
    joint_at = [i for i, k in enumerate(ask.kinds) if m.kinds[k].is_joint]
    end_at = [i for i in range(len(ask.kinds)) if i not in joint_at]
    if end_at:
        for i, c in zip(end_at, _end_cands(b, tags, ask, [ask.kinds[i] for i in end_at]),
                        strict=True):
            out[i] = c
    if not joint_at:
        return out
    x, counts = _joint_inputs(b, ask, [ask.kinds[i] for i in joint_at])
    found = [(i, n) for i, n in zip(joint_at, counts, strict=True) if n > 0]
    if not found:
        return out
    lo, hi, flags, sl, sh = x
    a, bb = b.pos[lo], b.pos[hi]
    da, db = plug_direction_many(b.axis[lo], sl), plug_direction_many(b.axis[hi], sh)
    sizes = [n for _, n in found]
    specs = [m.kinds[ask.kinds[i]] for i, _ in found]
    board = (lo < b.n_board, hi < b.n_board)
    shapes = (joint_shapes_groups(m, specs, a, da, bb, db, *board, sizes) if cache is None
              else joint_shapes_cached(cache, m, specs, a, da, bb, db, *board, sizes))
    start = 0
    for (i, n), js in zip(found, shapes, strict=True):
        part = slice(start, start + n)
        start = part.stop
        out[i] = _joint_cands(b, tags, ask.kinds[i], tuple(v[part] for v in x), a[part],
                              bb[part], js)
    return out


def _end_cands(b: Building, tags: Tags, ask: Ask, kinds: list[int]) -> list[_EndCands | None]:
    """The candidates of each end kind in `kinds`, all shaped in one batch."""
    m = b.model
    hs, ss = _with_sides(b, np.array(ask.firsts, dtype=np.int64))
    if len(hs) == 0:
        return [None] * len(kinds)
    board = hs < b.n_board
    p = b.pos[hs]
    d = np.where((ss == 0)[:, None], b.axis[hs], -b.axis[hs])
    tan = b.tan[hs]
    no_turn = _NO_TURN[np.zeros(len(hs), dtype=np.int64)]
    lifted = tags.holes[None, :] == hs[:, None]
    no_host = np.full(len(hs), -1, dtype=np.int64)
    joints = Joints(_cols(p, np.zeros_like(p)), _cols(b.host[hs], no_host))
    out: list[_EndCands | None] = []
    for kind, (ok, shape) in zip(kinds, end_shapes_groups(m, [m.kinds[k] for k in kinds], p, d,
                                                          tan, no_turn, board), strict=True):
        keep = ok.nonzero()[0]
        out.append(None if len(keep) == 0 else _EndCands(
            kind, shape.points[keep], Joints(joints.point[keep], joints.host[keep]),
            lifted[keep], hs[keep], ss[keep], d[keep], tan[keep], shape.hole_pos[keep]))
    return out


def _joint_inputs(b: Building, ask: Ask, kinds: list[int]) -> tuple[tuple[Ints, ...], list[int]]:
    """(lo, hi, flags, side_lo, side_hi) of every joint candidate, kind after kind in `kinds`,
    and how many each kind has. The hole pairs and their plug sides are the same for every
    kind; only whether a pair is within a kind's reach differs."""
    lo, hi, flags, span = _pairs(b, ask)
    pi = np.arange(len(lo)).repeat(4)
    combo = _COMBOS[None].repeat(len(lo), axis=0).reshape(-1, 2)
    sl, sh = combo[:, 0], combo[:, 1]
    lo, hi, flags, span = lo[pi], hi[pi], flags[pi], span[pi]
    keep = ((sl == 0) | (lo >= b.n_board)) & ((sh == 0) | (hi >= b.n_board))
    lo, hi, flags, sl, sh, span = (v[keep] for v in (lo, hi, flags, sl, sh, span))
    m = b.model
    rows = []
    for kind in kinds:
        length = m.kinds[kind].length
        reach = (span >= m.min_span * length - 1e-9) & (span <= m.max_span * length + 1e-9)
        rows.append(reach.nonzero()[0])
    idx = np.concatenate(rows)
    return (lo[idx], hi[idx], flags[idx], sl[idx], sh[idx]), [len(r) for r in rows]


_COMBOS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.int64)
_NO_TURN = np.array([[1.0, 0.0]])
"""(cos, sin) of no rotation: an end piece's holes while its candidates are checked."""


def _joint_cands(b: Building, tags: Tags, kind: int, x: tuple[Ints, ...], a: Arr, bb: Arr,
                 js: JointShapes) -> _JointCands | None:
    idx = js.ok.nonzero()[0]
    if len(idx) == 0:
        return None
    lo, hi, flags, sl, sh = (v[idx] for v in x)
    lifted = (tags.holes[None, :] == lo[:, None]) | (tags.holes[None, :] == hi[:, None])
    joints = Joints(_cols(a[idx], bb[idx]), _cols(b.host[lo], b.host[hi]))
    return _JointCands(kind, js.shape.points, joints, lifted, lo, hi, flags, sl, sh,
                       js.shape.hole_pos, js.shape.hole_axis)


def _piece_checks(b: Building, tags: Tags, cands: list[_Cands]) -> list[tuple[Bools, Bools]]:
    """(inside, touch) per candidate of each group, all groups checked in one batch."""
    m = b.model
    if not cands:
        return []
    counts = [len(c.points) for c in cands]
    total = sum(counts)
    q0 = np.concatenate([c.points[:, :-1].reshape(-1, 3) for c in cands])
    q1 = np.concatenate([c.points[:, 1:].reshape(-1, 3) for c in cands])
    segs = np.repeat(np.array([c.points.shape[1] - 1 for c in cands]), counts)
    owner = np.repeat(np.arange(total, dtype=np.int64), segs)
    joints = Joints(np.concatenate([c.joints.point for c in cands]),
                    np.concatenate([c.joints.host for c in cands]))
    inside, touch = piece_contacts(b.grid, q0, q1, owner, joints, total, m.r, m.r_ex)
    if len(tags.holes):
        near = segments_touch_points(q0, q1, tags.centres, m.r + m.tag_r)
        first = np.cumsum(segs) - segs
        near = np.logical_or.reduceat(near, first, axis=0)
        lifted = np.concatenate([c.lifted for c in cands])
        touch |= (near & ~lifted).any(axis=1)
    out = []
    start = 0
    for n in counts:
        out.append((inside[start: start + n], touch[start: start + n]))
        start += n
    return out


def _end_blocks(m: Model, c: _EndCands, inside: Bools, touch: Bools, tag: bool) -> list[_Block]:
    keep = (~inside).nonzero()[0]
    if len(keep) == 0:
        return []
    hs, ss, d, touch, lifted = c.holes[keep], c.sides[keep], c.direction[keep], touch[keep], \
        c.lifted[keep]
    n_c = len(hs)
    cs = rotation_table(m)
    n_rot = len(cs)
    ci = np.repeat(np.arange(n_c), n_rot)
    ri = np.arange(n_rot)[None, :].repeat(n_c, axis=0).ravel()
    base = _cols(np.full(n_c * n_rot, c.kind), hs[ci], np.full(n_c * n_rot, -1), ri,
                 ss[ci])
    if not tag:
        return [_Block(base, touch[ci], None, lifted[ci])]
    k = c.hole_pos.shape[1]
    ref = c.tan[keep]
    axes = canonical_axis(ref[:, None, :] * cs[None, :, 0, None]
                          + cross(d, ref)[:, None, :] * cs[None, :, 1, None])  # (C, R, 3)
    hole_pos = c.hole_pos[keep][ci]  # (C·R, k, 3)
    hole_axis = np.repeat(axes.reshape(-1, 1, 3), k, axis=1)
    return [_Block(base, touch[ci], _tag_rows(m, hole_pos, hole_axis).reshape(-1, 3),
                   lifted[ci])]


def _joint_blocks(m: Model, c: _JointCands, inside: Bools, touch: Bools,
                  tag: bool) -> list[_Block]:
    """The rows of each fitting candidate placed from its lower hole first (where allowed), then
    those placed from its higher hole first, in one block."""
    k = c.hole_pos.shape[1] // 2
    free = ~inside
    sel = [(free & ((c.flags & bit) != 0)).nonzero()[0] for bit in (1, 2)]
    idx = np.concatenate(sel)
    rev = np.arange(len(idx)) >= len(sel[0])  # placed from the higher hole first
    lo, hi, s_lo, s_hi = c.lo[idx], c.hi[idx], c.side_lo[idx], c.side_hi[idx]
    base = _cols(np.full(len(idx), c.kind), np.where(rev, hi, lo), np.where(rev, lo, hi),
                 np.full(len(idx), -1), np.where(rev, 2 * s_hi + s_lo, 2 * s_lo + s_hi))
    centres = None
    if tag:
        # the holes named from the first plug: A's, or B's (listed after A's) when reversed
        holes = np.arange(k)[None, :] + k * rev[:, None]
        rows = idx[:, None]
        centres = _tag_rows(m, c.hole_pos[rows, holes], c.hole_axis[rows, holes]).reshape(-1, 3)
    return [_Block(base, touch[idx], centres, c.lifted[idx])]


def _finish(b: Building, tags: Tags, blocks: list[_Block]) -> list[Part]:
    """Rows with their tag choice, tags checked in one batch (rows whose tag cannot sit are
    dropped); without a tag, rows as they are (tag -1, height NaN). All blocks are finished
    together, in their order (a row's tags follow it: face u then d per hole)."""
    if not blocks:
        return []
    if blocks[0].centres is None:
        return [(np.concatenate([x.base, np.full((len(x.base), 1), -1)], 1), x.touch,
                 np.full(len(x.base), np.nan)) for x in blocks]
    per_row = [len(x.centres) // max(len(x.base), 1) if x.centres is not None else 0
               for x in blocks]
    centres = np.concatenate([x.centres for x in blocks if x.centres is not None])
    base = np.concatenate([x.base for x in blocks])
    n = np.repeat(np.array(per_row, dtype=np.int64), [len(x.base) for x in blocks])
    owner = np.repeat(np.arange(len(base)), n)
    tag = np.arange(len(owner)) - np.repeat(np.cumsum(n) - n, n)
    lifted = np.concatenate([x.lifted for x in blocks])[owner]
    possible, ttouch = _tag_checks(b, tags, centres, lifted)
    touch = np.concatenate([x.touch for x in blocks])[owner] | ttouch
    return [(np.concatenate([base[owner], tag[:, None]], 1)[possible], touch[possible],
             centres[possible, 2])]


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
    out = np.empty((*hole_pos.shape[:2], 2, 3))
    # face by face, each a product by one number (the same operations as the broadcast form,
    # without numpy's slow broadcasting along a last axis of three)
    out[:, :, 0] = hole_pos + off[0] * hole_axis
    out[:, :, 1] = hole_pos + off[1] * hole_axis
    return out


def _with_sides(b: Building, holes: Ints) -> tuple[Ints, Ints]:
    """Each hole with each face a plug may enter from (board holes: only from above)."""
    hs = np.repeat(holes, 2)
    ss = np.arange(2 * len(holes), dtype=np.int64) % 2
    keep = (ss == 0) | (hs >= b.n_board)
    return hs[keep], ss[keep]


def _pairs(b: Building, ask: Ask) -> tuple[Ints, Ints, Ints, Arr]:
    """Unordered hole pairs (lo < hi), with flags 1: lo first allowed, 2: hi first, and their
    span (the distance between the two holes)."""
    f = np.array(ask.firsts, dtype=np.int64)
    s = np.array(ask.seconds, dtype=np.int64)
    a = f.repeat(len(s))
    c = s[None, :].repeat(len(f), axis=0).ravel()
    keep = a != c
    if ask.bonus:
        keep &= (a < b.n_board) != (c < b.n_board)
    a, c = a[keep], c[keep]
    lo, hi = np.minimum(a, c), np.maximum(a, c)
    flag = np.where(a == lo, 1, 2)
    key = lo * b.n_holes + hi
    # np.unique(key) and each pair's flags or-ed together, in a few C calls
    ordered = np.sort(key)
    first = np.empty(len(ordered), dtype=bool)
    first[:1] = True
    first[1:] = ordered[1:] != ordered[:-1]
    uniq = ordered[first]
    inv = uniq.searchsorted(key)
    flags = np.zeros(len(uniq), dtype=np.int64)
    for bit in (1, 2):
        flags[inv[flag == bit]] |= bit
    lo, hi = uniq // b.n_holes, uniq % b.n_holes
    return lo, hi, flags, norm(b.pos[hi] - b.pos[lo])


def _cols(*arrays: NDArray[Any]) -> NDArray[Any]:
    """`np.stack(arrays, axis=1)` for arrays of one shape and kind, in a few C calls (the arrays
    here are small, so `np.stack`'s Python layer would cost more than the copies)."""
    first = arrays[0]
    out = np.empty((len(first), len(arrays), *first.shape[1:]), dtype=first.dtype)
    for i, a in enumerate(arrays):
        out[:, i] = a
    return out


def plug_direction_many(axis: Arr, sides: Ints) -> Arr:
    return np.where((sides == 0)[:, None], axis, -axis)

