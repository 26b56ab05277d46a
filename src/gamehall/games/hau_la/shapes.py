"""Shapes of candidate pieces, in batches: fit, sample, and the checks that make one impossible.

Used both to enumerate every possible placement at once and (with a batch of one) to build the
piece that is actually placed, so the two always agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gamehall.games.hau_la.curves import (
    Sampled,
    fit_joints,
    fold_back,
    sample_ends,
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
    return joint_shapes_groups(m, [spec], a, da, b, db, a_board, b_board, [len(a)])[0]


def joint_shapes_groups(m: Model, specs: list[PieceSpec], a: Arr, da: Arr, b: Arr, db: Arr,
                        a_board: Bools, b_board: Bools, sizes: list[int]) -> list[JointShapes]:
    """`joint_shapes` for consecutive groups of candidates, group g of kind `specs[g]` with
    `sizes[g]` rows, fitted and sampled in one batch (the same numbers as one group alone)."""
    lengths = np.repeat(np.array([spec.length for spec in specs]), sizes)
    fit = fit_joints(m, a, da, b, db, lengths)
    bounds = np.cumsum(sizes)
    starts = bounds - np.array(sizes)
    idx = np.flatnonzero(fit.ok)
    kept = [int(n) for n in np.diff(np.searchsorted(idx, np.concatenate([starts[:1], bounds])))]
    fracs = [np.concatenate([np.array(spec.holes), 1.0 - np.array(spec.holes)])
             for spec in specs]
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
        plugs = np.stack([a[sel], b[sel]], axis=1)
        on_board = np.stack([a_board[sel], b_board[sel]], axis=1)
        good = ~below_board(m, shape.points, plugs, on_board)
        good &= ~fold_back(shape.points, m.seg_len, m.r)
        ok[sel[good] - starts[g]] = True
        out.append(JointShapes(ok, _take(shape, good)))
    return out


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
