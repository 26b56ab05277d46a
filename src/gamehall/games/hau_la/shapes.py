"""Shapes of candidate pieces, in batches: fit, sample, and the checks that make one impossible.

Used both to enumerate every possible placement at once and (with a batch of one) to build the
piece that is actually placed, so the two always agree.

Joint shapes are also kept in a bounded cache (`ShapeCache`), one entry per candidate: a
search meets the same hole pairs again and again (sibling buildings share the next mover's tag
holes and most free holes; 96% of the joint candidates fitted in a 40-move `mcts:200` game
were met before). A candidate's shape (fit, sampled centre line, holes, below-board and
fold-back checks) is a function of the model's numbers, its kind, the exact floats of its two
holes' positions and plug directions, and whether each hole is on the board — nothing else —
and every step computes each candidate element by element (see geometry.py), so a batch gives
each candidate the numbers a batch of its own would. The key is exactly those inputs (the
floats by their bytes, the model's numbers and the kind by their `repr`, which round-trips), so
a hit returns the bytes a fresh computation would give.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.curves import (
    Sampled,
    fit_joints,
    fold_back,
    sample_end_groups,
    sample_joint_groups,
)
from gamehall.games.hau_la.data import Model, PieceSpec
from gamehall.games.hau_la.geometry import Arr, norm

Bools = NDArray[np.bool_]


def n_segments(m: Model, spec: PieceSpec) -> int:
    """How many segments a piece's centre line is cut into (each at most `seg_len` long)."""
    return max(1, math.ceil(spec.length / m.seg_len - 1e-9))


def rotation_table(m: Model) -> Arr:
    """(cos, sin) of each end-piece rotation, computed once in scalar arithmetic."""
    return _rotations(m.rotations_deg)


@cache
def _rotations(degrees: tuple[int, ...]) -> Arr:
    table = np.array([[math.cos(math.radians(a)), math.sin(math.radians(a))] for a in degrees])
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class JointShapes:
    """Fitted joint candidates: `ok` over all inputs, `shape` for the ok ones only.

    `shape.hole_*` hold 2k holes: at the piece's fractions from A, then from B (so a placement
    made in either order finds its holes, named from its first plug).
    """

    ok: Bools
    shape: Sampled


def joint_shapes(m: Model, spec: PieceSpec, a: Arr, da: Arr, b: Arr, db: Arr,
                 a_board: Bools, b_board: Bools) -> JointShapes:
    """Fit joints A->B (plug directions dA, dB), sample them, drop those that cannot exist."""
    return joint_shapes_groups(m, [spec], a, da, b, db, a_board, b_board, [len(a)])[0]


def joint_shapes_groups(m: Model, specs: list[PieceSpec], a: Arr, da: Arr, b: Arr, db: Arr,
                        a_board: Bools, b_board: Bools, sizes: list[int]) -> list[JointShapes]:
    """`joint_shapes` for consecutive groups of candidates, group g of kind `specs[g]` with
    `sizes[g]` rows, fitted and sampled in one batch (the same numbers as one group alone)."""
    lengths = np.repeat(np.array([spec.length for spec in specs]), sizes)
    fit = fit_joints(m, a, da, b, db, lengths, screen=True)  # only ok rows are sampled
    bounds = np.cumsum(sizes)
    starts = bounds - np.array(sizes)
    idx = fit.ok.nonzero()[0]
    kept = [int(n) for n in np.diff(np.searchsorted(idx, np.concatenate([starts[:1], bounds])))]
    fracs = [_joint_fracs(spec) for spec in specs]
    sampled = sample_joint_groups(a[idx], da[idx], b[idx], db[idx], fit.take(idx), kept,
                                  [n_segments(m, spec) for spec in specs], fracs) if len(idx) \
        else [None] * len(specs)
    out = []
    at = 0
    for g, shape in enumerate(sampled):
        ok = np.zeros(sizes[g], dtype=bool)
        if shape is None or kept[g] == 0:
            z = np.zeros((0, 0, 3))
            out.append(JointShapes(ok, Sampled(z, z, z, z)))
            at += kept[g]
            continue
        sel = idx[at: at + kept[g]]
        at += kept[g]
        plugs = np.concatenate([a[sel, None], b[sel, None]], axis=1)
        on_board = np.concatenate([a_board[sel, None], b_board[sel, None]], axis=1)
        good = ~below_board(m, shape.points, plugs, on_board)
        good &= ~fold_back(shape.points, m.seg_len, m.r)
        ok[sel[good] - starts[g]] = True
        out.append(JointShapes(ok, _take(shape, good)))
    return out


@cache
def _joint_fracs(spec: PieceSpec) -> tuple[float, ...]:
    """Where a joint's holes are along it, as fractions of its length: from A, then from B."""
    return tuple(np.concatenate([np.array(spec.holes), 1.0 - np.array(spec.holes)]).tolist())


def end_shapes(m: Model, spec: PieceSpec, p: Arr, d: Arr, ref: Arr, cos_sin: Arr,
               p_board: Bools) -> tuple[Bools, Sampled]:
    """Straight end pieces; returns (possible, shapes) for all inputs."""
    return end_shapes_groups(m, [spec], p, d, ref, cos_sin, p_board)[0]


def end_shapes_groups(m: Model, specs: list[PieceSpec], p: Arr, d: Arr, ref: Arr, cos_sin: Arr,
                      p_board: Bools) -> list[tuple[Bools, Sampled]]:
    """`end_shapes` of the same strips for each kind in `specs`, in one batch (the same numbers
    as one kind alone; a padded point repeats the last one, so it changes no below-board test)."""
    padded, shapes = sample_end_groups(p, d, ref, cos_sin, [s.length for s in specs],
                                       [n_segments(m, s) for s in specs],
                                       [s.holes for s in specs])
    g, n = len(specs), len(p)
    plugs, on_board = (p, p_board) if g == 1 else (np.tile(p, (g, 1)), np.tile(p_board, g))
    low = below_board(m, padded.reshape(g * n, -1, 3), plugs[:, None, :], on_board[:, None])
    return [(~low[i * n: (i + 1) * n], shape) for i, shape in enumerate(shapes)]


def below_board(m: Model, points: Arr, plugs: Arr, on_board: Bools) -> Bools:
    """True where a centre line dips below z = r away from the piece's own board plugs."""
    low = points[..., 2] < m.r - 1e-9
    for k in range(plugs.shape[1]):
        near = norm(points - plugs[:, None, k, :]) < m.r_ex
        low &= ~(near & on_board[:, k, None])
    return np.asarray(low.any(axis=1), dtype=bool)


def _take(s: Sampled, keep: Bools) -> Sampled:
    return Sampled(s.points[keep], s.hole_pos[keep], s.hole_tan[keep], s.hole_axis[keep])


class ShapeCache:
    """Joint shapes by candidate (see the module docstring for why a hit is exact), least
    recently used first out beyond `capacity` entries, safe to share between threads.

    An entry is the candidate's shape as raw float64 bytes (points, then hole positions,
    tangents and axes, each flattened), or empty bytes when the candidate cannot exist: with
    its key about 1.5 kB for a big joint, so the default 4096 entries stay near 6 MB.
    """

    def __init__(self, capacity: int = 4096) -> None:
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def recall(self, keys: list[bytes]) -> list[bytes | None]:
        """The entry of each key (None where there is none), marked as recently used."""
        with self._lock:
            found = [self._entries.get(k) for k in keys]
            for k, v in zip(keys, found, strict=True):
                if v is not None:
                    self._entries.move_to_end(k)
            n_hit = sum(v is not None for v in found)
            self.hits += n_hit
            self.misses += len(keys) - n_hit
        return found

    def store(self, items: list[tuple[bytes, bytes]]) -> None:
        with self._lock:
            self._entries.update(items)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)


SHAPES = ShapeCache()
"""The process's joint-shape cache, used by `enumerate_placements` unless told otherwise."""


def _prefix(m: Model, spec: PieceSpec) -> bytes:
    """Everything of the model and the kind that a joint's shape depends on, exactly."""
    return repr((m.r, m.r_ex, m.seg_len, m.min_span, m.max_span, m.min_bend_radius, m.ratios,
                 spec.length, spec.holes)).encode()


def joint_shapes_cached(cache: ShapeCache, m: Model, specs: list[PieceSpec], a: Arr, da: Arr,
                        b: Arr, db: Arr, a_board: Bools, b_board: Bools,
                        sizes: list[int]) -> list[JointShapes]:
    """`joint_shapes_groups`, computing only the candidates `cache` does not hold."""
    rows = np.concatenate([a, da, b, db, a_board[:, None], b_board[:, None]], axis=1)
    raw = np.ascontiguousarray(rows, dtype=np.float64).view(np.dtype((np.void, 8 * 14)))
    group_of = [g for g, n in enumerate(sizes) for _ in range(n)]
    prefixes = [_prefix(m, spec) for spec in specs]
    row_keys = cast(list[bytes], raw.ravel().tolist())
    keys = [prefixes[g] + k for g, k in zip(group_of, row_keys, strict=True)]
    found = cache.recall(keys)
    entries = [v if v is not None else b"" for v in found]
    miss = [i for i, v in enumerate(found) if v is None]
    if miss:
        _fill(cache, m, specs, (a, da, b, db, a_board, b_board), group_of, keys, miss, entries)
    out = []
    start = 0
    for g, spec in enumerate(specs):
        out.append(_unflatten(m, spec, entries[start: start + sizes[g]]))
        start += sizes[g]
    return out


def _fill(cache: ShapeCache, m: Model, specs: list[PieceSpec], inputs: tuple[NDArray[Any], ...],
          group_of: list[int], keys: list[bytes], miss: list[int], entries: list[bytes]) -> None:
    """Compute the candidates `miss` (in one batch), put them in `entries` and in `cache`."""
    sel = np.array(miss, dtype=np.int64)
    miss_sizes = [0] * len(specs)
    for i in miss:
        miss_sizes[group_of[i]] += 1
    a, da, b, db, a_board, b_board = (x[sel] for x in inputs)
    fresh = joint_shapes_groups(m, specs, a, da, b, db, a_board, b_board, miss_sizes)
    new: list[tuple[bytes, bytes]] = []
    at = 0
    for g, js in enumerate(fresh):
        oks = js.ok.tolist()
        flat = _flatten(js.shape) if any(oks) else b""
        width = len(flat) // max(sum(oks), 1)
        k = 0
        for i, ok in zip(miss[at: at + miss_sizes[g]], oks, strict=True):
            v = flat[k * width: (k + 1) * width] if ok else b""
            k += ok
            entries[i] = v
            new.append((keys[i], v))
        at += miss_sizes[g]
    cache.store(new)


def _flatten(s: Sampled) -> bytes:
    """The rows of `s` as one float64 row each (points, hole positions, tangents, axes)."""
    n = len(s.points)
    return np.concatenate([s.points.reshape(n, -1), s.hole_pos.reshape(n, -1),
                           s.hole_tan.reshape(n, -1), s.hole_axis.reshape(n, -1)],
                          axis=1).tobytes()


def _unflatten(m: Model, spec: PieceSpec, vals: list[bytes]) -> JointShapes:
    """The `JointShapes` of one group from its entries (`_flatten`'s rows, b"" where not ok)."""
    ok = np.array([len(v) > 0 for v in vals], dtype=bool)
    n_pts = n_segments(m, spec) + 1
    n_holes = 2 * len(spec.holes)
    data = np.frombuffer(b"".join(vals), dtype=np.float64)
    flat = data.reshape(-1, 3 * (n_pts + 3 * n_holes))
    n = len(flat)
    at = 3 * n_pts
    part = [flat[:, :at].reshape(n, n_pts, 3)]
    for _ in range(3):
        part.append(flat[:, at: at + 3 * n_holes].reshape(n, n_holes, 3))
        at += 3 * n_holes
    return JointShapes(ok, Sampled(part[0], part[1], part[2], part[3]))
