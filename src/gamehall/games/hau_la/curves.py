"""Centre lines of pieces: bent joints (cubic Hermite curves of exact arc length) and straight ends.

A joint from hole A to hole B leaves A along its plug direction dA and enters B against dB:
    P(u) = h00 A + h10 (s·ra) dA + h01 B - h11 (s·rb) dB,   u in [0, 1].
Its velocity is c0(u) + s·c1(u), so the speed, the arc length and the curvature depend only on
four numbers per candidate (|D|², D·dA, D·dB, dA·dB with D = B - A) and the scale s. The arc
length is a convex function of s (an integral of norms of an affine function), so Newton's
method started to the right of the root converges to the unique, smallest scale reaching L.
All work is vectorised over many candidates at once; see geometry.py for why it is bit-stable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from gamehall.games.hau_la.data import Model
from gamehall.games.hau_la.geometry import (
    TINY,
    Arr,
    Bools,
    Index,
    canonical_axis,
    cross,
    dot,
    horizontal_normal,
    norm,
    stack3,
    unit,
)

_GL_X, _GL_W = np.polynomial.legendre.leggauss(24)
U_LEN = (_GL_X + 1.0) / 2.0
"""Gauss-Legendre nodes on [0, 1] for the arc length (exact enough for these smooth integrands)."""
W_LEN = _GL_W / 2.0
U_KAPPA = np.linspace(0.0, 1.0, 65)
"""Where the curvature is evaluated to find its peak."""
_PANELS = 64
_PX, _PW = np.polynomial.legendre.leggauss(3)
U_PANEL = ((np.arange(_PANELS)[:, None] + (_PX[None, :] + 1.0) / 2.0) / _PANELS).ravel()
W_PANEL = _PW / 2.0 / _PANELS
NEWTON_STEPS = 16
"""At most; each candidate stops on its own once |L(s) - L| is below 1e-10·L."""
KAPPA_EPS = 1e-6
"""Below this curvature the principal normal counts as undefined."""


def _d1(u: Arr) -> tuple[Arr, Arr, Arr]:
    """First derivatives of the Hermite weights of (B - A), dA and dB."""
    return 6.0 * u - 6.0 * u * u, 3.0 * u * u - 4.0 * u + 1.0, 3.0 * u * u - 2.0 * u


def _d2(u: Arr) -> tuple[Arr, Arr, Arr]:
    return 6.0 - 12.0 * u, 6.0 * u - 4.0, 6.0 * u - 2.0


def _rowsum(x: Arr, w: Arr) -> Arr:
    return np.add.reduce(x * w, axis=-1)  # what .sum(axis=-1) calls, without its Python layer


@dataclass(frozen=True)
class Scalars:
    """The four numbers per candidate that fix its curve family."""

    dd: Arr
    da: Arr
    db: Arr
    ab: Arr

    @classmethod
    def of(cls, a: Arr, da: Arr, b: Arr, db: Arr) -> Scalars:
        d = b - a
        return cls(dot(d, d), dot(d, da), dot(d, db), dot(da, db))

    def take(self, idx: Index) -> Scalars:
        return Scalars(self.dd[idx], self.da[idx], self.db[idx], self.ab[idx])


@dataclass(frozen=True)
class RatioTables:
    """Products of the tangent ratios with the Hermite weights at the quadrature and curvature
    nodes, one row per ratio, computed once per model (the same products, in the same order,
    that a candidate's own arithmetic would form, so the results stay bit for bit)."""

    ra: Arr
    rb: Arr
    len_p: Arr
    """ra·p at U_LEN (R, U); len_q: rb·q; len_g0: ra·ra·p·p + rb·rb·q·q; len_g1: 2·ra·rb·(p·q)."""
    len_q: Arr
    len_g0: Arr
    len_g1: Arr
    kap_p: Arr
    """ra·p' and -rb·q' at U_KAPPA (first derivatives), kap_p2/kap_q2 the second ones."""
    kap_q: Arr
    kap_p2: Arr
    kap_q2: Arr


_LEN_W, _LEN_P, _LEN_Q = _d1(U_LEN)
_LEN_WW = _LEN_W * _LEN_W
_LEN_PQ = _LEN_P * _LEN_Q
_KAP_W, _KAP_P, _KAP_Q = _d1(U_KAPPA)
_KAP_W2, _KAP_P2, _KAP_Q2 = _d2(U_KAPPA)
_KAP_WW, _KAP_WW2, _KAP_W2W2 = _KAP_W * _KAP_W, _KAP_W * _KAP_W2, _KAP_W2 * _KAP_W2


def _split_ratio(ratio: float) -> tuple[float, float]:
    return (ratio, 1.0) if ratio <= 1.0 else (1.0, 1.0 / ratio)


@cache
def ratio_tables(ratios: tuple[float, ...]) -> RatioTables:
    rows = [_split_ratio(r) for r in ratios]
    p, q = _LEN_P, _LEN_Q

    def table(f: Callable[[float, float], Arr]) -> Arr:
        t = np.stack([f(ra, rb) for ra, rb in rows])
        t.setflags(write=False)
        return t

    return RatioTables(
        np.array([ra for ra, _ in rows]), np.array([rb for _, rb in rows]),
        table(lambda ra, rb: ra * p), table(lambda ra, rb: rb * q),
        table(lambda ra, rb: ra * ra * p * p + rb * rb * q * q),
        table(lambda ra, rb: 2.0 * ra * rb * _LEN_PQ),
        table(lambda ra, rb: ra * _KAP_P), table(lambda ra, rb: -rb * _KAP_Q),
        table(lambda ra, rb: ra * _KAP_P2), table(lambda ra, rb: -rb * _KAP_Q2))


Columns = tuple[Arr, Arr, Arr, Arr]
"""dd, da, db, ab of `Scalars` as (M, 1) columns."""


def _gram(sc: Columns, x: tuple[Arr, Arr, Arr], y: tuple[Arr, Arr, Arr], x0y0: Arr) -> Arr:
    """x·y for vectors written as x1·D + x2·dA + x3·dB (x0, y0 of shape (U,), the others
    (M, U); `x0y0` is x0·y0, made once)."""
    dd, da, db, ab = sc
    return (x0y0 * dd + x[1] * y[1] + x[2] * y[2]
            + (x[0] * y[1] + x[1] * y[0]) * da + (x[0] * y[2] + x[2] * y[0]) * db
            + (x[1] * y[2] + x[2] * y[1]) * ab)


def _gram_self(sc: Columns, x: tuple[Arr, Arr, Arr], x0x0: Arr) -> Arr:
    """`_gram(sc, x, x, x0x0)`: the mixed products once each (a·b is b·a exactly in floats)."""
    dd, da, db, ab = sc
    p01, p02, p12 = x[0] * x[1], x[0] * x[2], x[1] * x[2]
    return (x0x0 * dd + x[1] * x[1] + x[2] * x[2] + (p01 + p01) * da + (p02 + p02) * db
            + (p12 + p12) * ab)


def solve_scale(sc: Scalars, t: RatioTables, rid: Index, length: Arr) -> tuple[Arr, Bools]:
    """The smallest scale s with arc length `length` for each candidate (tangent ratio row
    `rid` of `t`), and whether Newton converged."""
    alpha = _LEN_WW[None, :] * sc.dd[:, None]
    beta = _LEN_W[None, :] * (t.len_p[rid] * sc.da[:, None] - t.len_q[rid] * sc.db[:, None])
    gamma = np.maximum(t.len_g0[rid] - t.len_g1[rid] * sc.ab[:, None], 0.0)
    span = np.sqrt(sc.dd)
    s = (length + span) / np.maximum(_rowsum(np.sqrt(gamma), W_LEN), TINY)
    ok = np.zeros(len(s), dtype=bool)
    live = np.arange(len(s))
    a, b, g, lv = alpha, beta, gamma, length
    for _ in range(NEWTON_STEPS):
        x = s[live]
        root = np.sqrt(np.maximum(a + (2.0 * x)[:, None] * b + (x * x)[:, None] * g, 0.0))
        f = _rowsum(root, W_LEN) - lv
        fp = _rowsum((b + x[:, None] * g) / np.maximum(root, 1e-12), W_LEN)
        step = f / np.maximum(fp, 1e-12)
        s[live] = np.maximum(x - step, 0.0)
        done = np.abs(f) <= 1e-10 * lv
        ok[live[done]] = True
        keep = (~done).nonzero()[0]
        if len(keep) == 0:
            break
        if len(keep) < len(live):
            live, a, b, g, lv = live[keep], a[keep], b[keep], g[keep], lv[keep]
    return s, ok


def curvature(sc: Scalars, t: RatioTables, rid: Index, s: Arr, cols: slice = slice(None)) -> Arr:
    """Curvature |P' x P''| / |P'|^3 at U_KAPPA[cols], shape (M, len(U_KAPPA[cols])).

    Each sample is worked out on its own, so a sample's value is the same bits whichever
    `cols` it is computed with."""
    sv = s[:, None]
    x = (_KAP_W[cols], sv * t.kap_p[rid, cols], sv * t.kap_q[rid, cols])
    y = (_KAP_W2[cols], sv * t.kap_p2[rid, cols], sv * t.kap_q2[rid, cols])
    sc_cols = (sc.dd[:, None], sc.da[:, None], sc.db[:, None], sc.ab[:, None])
    xx = _gram_self(sc_cols, x, _KAP_WW[cols])
    xy = _gram(sc_cols, x, y, _KAP_WW2[cols])
    yy = _gram_self(sc_cols, y, _KAP_W2W2[cols])
    c2 = np.maximum(xx * yy - xy * xy, 0.0)
    return np.sqrt(c2) / np.maximum(xx * np.sqrt(xx), TINY)


SCREEN = slice(None, None, 8)
"""The curvature samples looked at first when only fitting joints matter (`fit_joints`'s
`screen`): every eighth, ends included (9 of 65)."""


@dataclass(frozen=True)
class JointFit:
    """The chosen curve of each candidate joint, and whether it fits."""

    ok: Bools
    scale: Arr
    ra: Arr
    rb: Arr
    peak_u: Arr
    """Parameter of the most-curved sample (used when a hole's normal is undefined)."""
    peak_kappa: Arr

    def take(self, idx: Index) -> JointFit:
        return JointFit(self.ok[idx], self.scale[idx], self.ra[idx], self.rb[idx],
                        self.peak_u[idx], self.peak_kappa[idx])


def fit_joints(m: Model, a: Arr, da: Arr, b: Arr, db: Arr, length: float | Arr,
               screen: bool = False) -> JointFit:
    """Fit every candidate joint (arrays (M, 3); `length` one for all or one per candidate);
    `ok` says which satisfy the fit limits.

    All tangent ratios are solved in one batch; the least-curved converged one is kept (the
    first on a tie, in the model's order). Fold-back and the board are checked later, on the
    sampled centre line.

    With `screen`, only the rows where `ok` is True are meaningful (the others' scale, ratios
    and peak are left unspecified), and the curvature is first looked at on a few samples
    (`SCREEN`): a ratio whose peak there already breaks the bend limit cannot be the one an ok
    candidate keeps (its full peak is at least as high, so above the kept one's), and is not
    sampled in full. Most candidates fail so, at a seventh of the cost; every ok row gets the
    numbers it would get without `screen` (the same samples, the same choice).
    """
    sc = Scalars.of(a, da, b, db)
    span = np.sqrt(sc.dd)
    n = len(span)
    lengths = np.asarray(length, dtype=float)
    if lengths.shape != (n,):
        lengths = np.full(n, float(length))
    d_hat = unit(b - a)
    collinear = (_cross_norm(d_hat, da) < 1e-9) & (_cross_norm(d_hat, db) < 1e-9)
    in_span = (span >= m.min_span * lengths - 1e-12) & (span <= m.max_span * lengths + 1e-12)
    t = ratio_tables(m.ratios)
    n_r = len(m.ratios)
    rid = np.arange(n_r)[None, :].repeat(n, axis=0).ravel()  # 0, 1, .., 0, 1, ..
    ci = np.repeat(np.arange(n), n_r)
    per_ratio = sc.take(ci)
    s, conv = solve_scale(per_ratio, t, rid, lengths[ci])
    if screen:
        peak, where = _screened_peaks(m, per_ratio, t, rid, s, conv)
    else:
        kap = curvature(per_ratio, t, rid, s)
        peak, where = kap.max(axis=1), kap.argmax(axis=1)
    peak, where = peak.reshape(n, n_r), where.reshape(n, n_r)
    s, conv = s.reshape(n, n_r), conv.reshape(n, n_r)
    best_k = np.full(n, np.inf)
    choice = np.full(n, -1)
    for r in range(n_r):
        better = conv[:, r] & (peak[:, r] < best_k)
        best_k = np.where(better, peak[:, r], best_k)
        choice = np.where(better, r, choice)
    found = choice >= 0
    pick = np.where(found, choice, 0)
    rows = np.arange(n)
    zero = np.zeros(n)
    ok = in_span & ~collinear & found & (best_k * m.min_bend_radius <= 1.0 + 1e-12)
    return JointFit(ok, np.where(found, s[rows, pick], zero), np.where(found, t.ra[pick], zero),
                    np.where(found, t.rb[pick], zero),
                    np.where(found, U_KAPPA[where[rows, pick]], zero), best_k)


def _screened_peaks(m: Model, sc: Scalars, t: RatioTables, rid: Index, s: Arr,
                    conv: Bools) -> tuple[Arr, Index]:
    """Peak curvature and its sample per row, +inf (sample 0) for rows that are not converged or
    break the bend limit on the `SCREEN` samples alone: such a row cannot be an ok candidate's
    choice. The other rows get the peak and sample of the full `curvature`."""
    peak = np.full(len(s), np.inf)
    where = np.zeros(len(s), dtype=np.int64)
    live = np.flatnonzero(conv)
    if len(live) == 0:
        return peak, where
    coarse = curvature(sc.take(live), t, rid[live], s[live], SCREEN).max(axis=1)
    live = live[coarse * m.min_bend_radius <= 1.0 + 1e-12]
    if len(live):
        kap = curvature(sc.take(live), t, rid[live], s[live])
        peak[live], where[live] = kap.max(axis=1), kap.argmax(axis=1)
    return peak, where


def _cross_norm(a: Arr, b: Arr) -> Arr:
    """norm(cross(a, b)) for (M, 3) arrays, axis by axis (the same operations on each number,
    without stacking the cross product first)."""
    a0, a1, a2 = a[:, 0], a[:, 1], a[:, 2]
    b0, b1, b2 = b[:, 0], b[:, 1], b[:, 2]
    x, y, z = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
    return np.sqrt(x * x + y * y + z * z)


def _basis(u: Arr) -> tuple[Arr, Arr, Arr, Arr]:
    u2 = u * u
    u3 = u2 * u
    return 2 * u3 - 3 * u2 + 1, u3 - 2 * u2 + u, -2 * u3 + 3 * u2, u3 - u2


def _eval(a: Arr, da: Arr, b: Arr, db: Arr, sa: Arr, sb: Arr, u: Arr,
          order: int) -> Arr:
    """P (order 0), P' (1) or P'' (2) at parameters u (M, K); inputs (M, 3), sa/sb (M,)."""
    if order == 0:
        h = _basis(u)
    else:
        w, p, q = _d1(u) if order == 1 else _d2(u)
        h = (-w, p, w, q)
    return stack3(*_hermite_parts(a, da, b, db, sa, sb, h))


def _derivatives(a: Arr, da: Arr, b: Arr, db: Arr, sa: Arr, sb: Arr, u: Arr) -> tuple[Arr, Arr]:
    """`_eval` of orders 1 and 2 at the same parameters u (M, K), in one batch (the same
    numbers: each column is worked out on its own)."""
    w1, p1, q1 = _d1(u)
    w2, p2, q2 = _d2(u)
    h = tuple(np.concatenate([x, y], axis=1)
              for x, y in ((-w1, -w2), (p1, p2), (w1, w2), (q1, q2)))
    both = stack3(*_hermite_parts(a, da, b, db, sa, sb, h))
    k = u.shape[1]
    return both[:, :k], both[:, k:]


def _hermite_parts(a: Arr, da: Arr, b: Arr, db: Arr, sa: Arr, sb: Arr,
                   h: tuple[Arr, ...]) -> list[Arr]:
    """The x, y and z parts of h0·A + h1·(sa·dA) + h2·B - h3·(sb·dB) for weights h of shape
    (M, K) or (K,) and vectors (M, 3), each of shape (M, K).

    Worked out axis by axis: numpy takes many times longer over a product broadcast along a
    last axis of length 3 (a buffered copy every three numbers) than over one of length K.
    Each number gets the same operations in the same order either way.
    """
    sda, sdb = sa[:, None] * da, sb[:, None] * db
    return [h[0] * a[:, c, None] + h[1] * sda[:, c, None] + h[2] * b[:, c, None]
            - h[3] * sdb[:, c, None] for c in range(3)]


@dataclass(frozen=True)
class Sampled:
    """Sampled centre lines and the holes on them, for M pieces of one kind."""

    points: Arr
    """(M, n+1, 3): evenly spaced by arc length, from the first plug end."""
    hole_pos: Arr
    hole_tan: Arr
    hole_axis: Arr


_PW1, _PP1, _PQ1 = _d1(U_PANEL)
_PANEL_D1 = (-_PW1, _PP1, _PW1, _PQ1)
"""The Hermite weights of P' at the arc-length panels' nodes, (-w, p, w, q) as in `_eval`."""


def sample_joints(a: Arr, da: Arr, b: Arr, db: Arr, fit: JointFit, n_seg: int,
                  fracs: Arr) -> Sampled:
    """Points every 1/n_seg of the arc length, and the holes at `fracs` (M, k) with their axes."""
    groups = sample_joint_groups(a, da, b, db, fit, [len(a)], [n_seg], [tuple(fracs[0].tolist())])
    return groups[0]


def sample_joint_groups(a: Arr, da: Arr, b: Arr, db: Arr, fit: JointFit, sizes: list[int],
                        n_segs: list[int], fracs: list[tuple[float, ...]]) -> list[Sampled]:
    """`sample_joints` for consecutive groups of candidates (kinds) in one batch: group g has
    `sizes[g]` rows, `n_segs[g]` segments and its holes at `fracs[g]` (k_g,) of the arc length.

    Shorter groups' rows are padded (their extra columns computed and dropped), so each
    candidate's numbers are the ones a batch of its own would give.
    """
    sa, sb = fit.scale * fit.ra, fit.scale * fit.rb
    m = len(sa)
    vx, vy, vz = _hermite_parts(a, da, b, db, sa, sb, _PANEL_D1)
    speed = np.sqrt(vx * vx + vy * vy + vz * vz).reshape(m, _PANELS, len(_PW))
    panel = np.add.reduce(speed * W_PANEL, axis=-1)
    cum = np.empty((m, _PANELS + 1))
    cum[:, 0] = 0.0
    np.cumsum(panel, axis=1, out=cum[:, 1:])
    total = cum[:, -1:]
    k_max = max(len(f) for f in fracs)
    pattern = _pattern(tuple(n_segs), tuple(fracs))
    width = pattern.shape[1]
    group = np.arange(len(sizes)).repeat(sizes)
    targets = pattern[group] * total
    idx = np.add.reduce(cum[:, None, 1:-1] <= targets[:, :, None], axis=-1)
    rows = np.arange(m)
    lo = cum[rows[:, None], idx]
    pw = panel[rows[:, None], idx]
    u = np.clip((idx + (targets - lo) / np.maximum(pw, TINY)) / _PANELS, 0.0, 1.0)
    ns = np.array(n_segs)[group]
    u[:, 0] = 0.0
    u[rows, ns] = 1.0
    pts = _eval(a, da, b, db, sa, sb, u, 0)
    hcol = np.minimum(ns[:, None] + 1 + np.arange(k_max)[None, :], width - 1)
    uh = u[rows[:, None], hcol]
    d1, d2 = _derivatives(a, da, b, db, sa, sb, uh)
    tan = unit(d1)
    nraw = _normal_raw(d1, d2)
    kap = norm(nraw) / np.maximum(dot(d1, d1), TINY)
    use_fb = kap < KAPPA_EPS
    axis = unit(nraw)
    straight = (fit.peak_kappa < KAPPA_EPS)[:, None] & np.ones_like(use_fb)
    if use_fb.any():  # rare: the normal at the peak of curvature, computed only when needed
        up = fit.peak_u[:, None]
        peak_n = _normal_raw(_eval(a, da, b, db, sa, sb, up, 1),
                             _eval(a, da, b, db, sa, sb, up, 2))
        fallback = peak_n - tan * dot(peak_n, tan)[..., None]
        straight |= use_fb & ~(norm(fallback) > 1e-9)
        axis = np.where(use_fb[..., None], unit(fallback), axis)
    if straight.any():
        axis = np.where(straight[..., None], horizontal_normal(tan), axis)
    axis = canonical_axis(axis)
    out = []
    start = 0
    for size, n, f in zip(sizes, n_segs, fracs, strict=True):
        r, k = slice(start, start + size), len(f)
        start += size
        out.append(Sampled(pts[r, : n + 1], pts[r, n + 1: n + 1 + k], tan[r, :k], axis[r, :k]))
    return out


@cache
def _pattern(n_segs: tuple[int, ...], fracs: tuple[tuple[float, ...], ...]) -> Arr:
    """Per group, the arc-length fractions sampled: n+1 even ones, then the holes' (padded
    with zeros to the widest group; made once per set of kinds)."""
    width = max(n + 1 + len(f) for n, f in zip(n_segs, fracs, strict=True))
    pattern = np.zeros((len(n_segs), width))
    for g, (n, f) in enumerate(zip(n_segs, fracs, strict=True)):
        pattern[g, : n + 1 + len(f)] = np.concatenate([np.linspace(0.0, 1.0, n + 1), f])
    pattern.setflags(write=False)
    return pattern


def _normal_raw(d1: Arr, d2: Arr) -> Arr:
    """P'' without its component along P' (points to the centre of curvature)."""
    t = unit(d1)
    return d2 - t * dot(d2, t)[..., None]


def sample_ends(p: Arr, d: Arr, ref: Arr, cos_sin: Arr, length: float, n_seg: int,
                fracs: tuple[float, ...]) -> Sampled:
    """Straight strips from `p` along `d` (M, 3); hole axes turned from `ref` by an angle given
    as its (cos, sin) per strip (M, 2), from a table, so no trigonometry runs in a batch."""
    return sample_end_groups(p, d, ref, cos_sin, [length], [n_seg], [fracs])[1][0]


def sample_end_groups(p: Arr, d: Arr, ref: Arr, cos_sin: Arr, lengths: list[float],
                      n_segs: list[int],
                      fracs: list[tuple[float, ...]]) -> tuple[Arr, list[Sampled]]:
    """`sample_ends` of the same M strips for several kinds (group g: `lengths[g]`, `n_segs[g]`,
    holes at `fracs[g]`) in one batch. Also returns every group's points padded to the longest
    kind's count (G, M, W, 3) by repeating its last point, so checks that ask whether any point
    does something can run once over all groups. Each number is formed as in a batch of its
    own (p + t·d, the axes as `sample_ends` turns them)."""
    t, f = _end_tables(tuple(lengths), tuple(n_segs), tuple(fracs))
    pts = p[None, :, None, :] + t[:, None, :, None] * d[None, :, None, :]
    holes = p[None, :, None, :] + f[:, None, :, None] * d[None, :, None, :]
    c, s = cos_sin[:, 0], cos_sin[:, 1]
    axis = canonical_axis(ref * c[:, None] + cross(d, ref) * s[:, None])
    out = []
    for g, (n, fr) in enumerate(zip(n_segs, fracs, strict=True)):
        k = len(fr)
        out.append(Sampled(pts[g, :, : n + 1], holes[g, :, :k], np.repeat(d[:, None, :], k, axis=1),
                           np.repeat(axis[:, None, :], k, axis=1)))
    return pts, out


@cache
def _end_tables(lengths: tuple[float, ...], n_segs: tuple[int, ...],
                fracs: tuple[tuple[float, ...], ...]) -> tuple[Arr, Arr]:
    """Distances along the strip of each group's points and holes, padded (made once)."""
    width = max(n_segs) + 1
    k_max = max(len(f) for f in fracs)
    t = np.stack([_pad(np.linspace(0.0, 1.0, n + 1) * length, width)
                  for n, length in zip(n_segs, lengths, strict=True)])
    f = np.stack([_pad(np.array(fr) * length, k_max)
                  for fr, length in zip(fracs, lengths, strict=True)])
    t.setflags(write=False)
    f.setflags(write=False)
    return t, f


def _pad(row: Arr, width: int) -> Arr:
    """`row` made `width` long by repeating its last value."""
    return np.concatenate([row, np.full(width - len(row), row[-1])])


@cache
def _far_pairs(n: int, gap: int) -> tuple[Index, Index]:
    """The sample pairs (i, j) more than `gap` apart along a line of n samples (made once)."""
    i, j = np.triu_indices(n, k=gap + 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


def fold_back(points: Arr, seg_len: float, r: float) -> Bools:
    """True where a centre line comes back within 2r of itself (samples > 4r apart along it)."""
    gap = max(1, math.ceil(4.0 * r / seg_len))
    i, j = _far_pairs(points.shape[1], gap)
    x, y, z = (points[..., c].take(i, axis=1) - points[..., c].take(j, axis=1)
               for c in range(3))  # axis by axis, as in `_hermite_parts`
    d = np.sqrt(x * x + y * y + z * z)
    return np.asarray((d < 2.0 * r).any(axis=1), dtype=bool)
