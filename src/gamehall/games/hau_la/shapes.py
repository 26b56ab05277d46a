"""Shapes of candidate pieces, in batches: fit, sample, and the checks that make one impossible.

Used both to enumerate every possible placement at once and (with a batch of one) to build the
piece that is actually placed, so the two always agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.curves import Sampled, fit_joints, fold_back, sample_ends, sample_joints
from gamehall.games.hau_la.data import Model, PieceSpec
from gamehall.games.hau_la.geometry import Arr, norm

Bools = NDArray[np.bool_]


def n_segments(m: Model, spec: PieceSpec) -> int:
    """How many segments a piece's centre line is cut into (each at most `seg_len` long)."""
    return max(1, math.ceil(spec.length / m.seg_len - 1e-9))


def rotation_table(m: Model) -> Arr:
    """(cos, sin) of each end-piece rotation, computed once in scalar arithmetic."""
    return np.array([[math.cos(math.radians(a)), math.sin(math.radians(a))]
                     for a in m.rotations_deg])


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
    fit = fit_joints(m, a, da, b, db, spec.length)
    idx = np.flatnonzero(fit.ok)
    if len(idx) == 0:
        z = np.zeros((0, 0, 3))
        return JointShapes(np.zeros(len(a), dtype=bool), Sampled(z, z, z, z))
    sub = fit.take(idx)
    f = np.array(spec.holes)
    fracs = np.broadcast_to(np.concatenate([f, 1.0 - f]), (len(idx), 2 * len(f)))
    shape = sample_joints(a[idx], da[idx], b[idx], db[idx], sub, n_segments(m, spec), fracs)
    plugs = np.stack([a[idx], b[idx]], axis=1)
    on_board = np.stack([a_board[idx], b_board[idx]], axis=1)
    good = ~below_board(m, shape.points, plugs, on_board)
    good &= ~fold_back(shape.points, m.seg_len, m.r)
    ok = np.zeros(len(a), dtype=bool)
    ok[idx[good]] = True
    return JointShapes(ok, _take(shape, good))


def end_shapes(m: Model, spec: PieceSpec, p: Arr, d: Arr, ref: Arr, cos_sin: Arr,
               p_board: Bools) -> tuple[Bools, Sampled]:
    """Straight end pieces; returns (possible, shapes) for all inputs."""
    shape = sample_ends(p, d, ref, cos_sin, spec.length, n_segments(m, spec), spec.holes)
    ok = ~below_board(m, shape.points, p[:, None, :], p_board[:, None])
    return ok, shape


def below_board(m: Model, points: Arr, plugs: Arr, on_board: Bools) -> Bools:
    """True where a centre line dips below z = r away from the piece's own board plugs."""
    low = points[..., 2] < m.r - 1e-9
    for k in range(plugs.shape[1]):
        near = norm(points - plugs[:, None, k, :]) < m.r_ex
        low &= ~(near & on_board[:, k, None])
    return np.asarray(low.any(axis=1), dtype=bool)


def _take(s: Sampled, keep: Bools) -> Sampled:
    return Sampled(s.points[keep], s.hole_pos[keep], s.hole_tan[keep], s.hole_axis[keep])
