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

from dataclasses import dataclass

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
    return (x * w).sum(axis=-1)


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


def _gram(sc: Scalars, x: tuple[Arr, Arr, Arr], y: tuple[Arr, Arr, Arr]) -> Arr:
    """x·y for vectors written as x1·D + x2·dA + x3·dB (each xi of shape (M, U))."""
    dd, da, db, ab = (v[:, None] for v in (sc.dd, sc.da, sc.db, sc.ab))
    return (x[0] * y[0] * dd + x[1] * y[1] + x[2] * y[2]
            + (x[0] * y[1] + x[1] * y[0]) * da + (x[0] * y[2] + x[2] * y[0]) * db
            + (x[1] * y[2] + x[2] * y[1]) * ab)


def _coeffs(sc: Scalars, ra: float, rb: float, s: Arr, u: Arr) -> tuple[Arr, Arr, Arr]:
    w, p, q = _d1(u)
    return (np.broadcast_to(w, (len(s), len(u))), s[:, None] * (ra * p),
            s[:, None] * (-rb * q))


def solve_scale(sc: Scalars, ra: float, rb: float, length: float) -> tuple[Arr, Bools]:
    """The smallest scale s with arc length `length`, and whether Newton converged."""
    w, p, q = _d1(U_LEN)
    alpha = (w * w)[None, :] * sc.dd[:, None]
    beta = w[None, :] * (ra * p[None, :] * sc.da[:, None] - rb * q[None, :] * sc.db[:, None])
    gamma = ra * ra * p * p + rb * rb * q * q - 2.0 * ra * rb * (p * q)[None, :] * sc.ab[:, None]
    gamma = np.maximum(gamma, 0.0)
    span = np.sqrt(sc.dd)
    s = (length + span) / np.maximum(_rowsum(np.sqrt(gamma), W_LEN), TINY)
    ok = np.zeros(len(s), dtype=bool)
    live = np.arange(len(s))
    a, b, g = alpha, beta, gamma
    for _ in range(NEWTON_STEPS):
        x = s[live]
        root = np.sqrt(np.maximum(a + (2.0 * x)[:, None] * b + (x * x)[:, None] * g, 0.0))
        f = _rowsum(root, W_LEN) - length
        fp = _rowsum((b + x[:, None] * g) / np.maximum(root, 1e-12), W_LEN)
        step = f / np.maximum(fp, 1e-12)
        s[live] = np.maximum(x - step, 0.0)
        done = np.abs(f) <= 1e-10 * length
        ok[live[done]] = True
        keep = ~done
        live, a, b, g = live[keep], a[keep], b[keep], g[keep]
        if len(live) == 0:
            break
    return s, ok


def curvature(sc: Scalars, ra: float, rb: float, s: Arr, u: Arr) -> Arr:
    """Curvature |P' x P''| / |P'|^3 at parameters `u`, shape (M, len(u))."""
    x = _coeffs(sc, ra, rb, s, u)
    w2, p2, q2 = _d2(u)
    y = (np.broadcast_to(w2, x[0].shape), s[:, None] * (ra * p2), s[:, None] * (-rb * q2))
    xx = _gram(sc, x, x)
    xy = _gram(sc, x, y)
    yy = _gram(sc, y, y)
    c2 = np.maximum(xx * yy - xy * xy, 0.0)
    return np.sqrt(c2) / np.maximum(xx * np.sqrt(xx), TINY)


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


def fit_joints(m: Model, a: Arr, da: Arr, b: Arr, db: Arr, length: float) -> JointFit:
    """Fit every candidate joint (arrays (M, 3)); `ok` says which satisfy the fit limits.

    Fold-back and the board are checked later, on the sampled centre line.
    """
    sc = Scalars.of(a, da, b, db)
    span = np.sqrt(sc.dd)
    n = len(span)
    d_hat = unit(b - a)
    collinear = (norm(cross(d_hat, da)) < 1e-9) & (norm(cross(d_hat, db)) < 1e-9)
    in_span = (span >= m.min_span * length - 1e-12) & (span <= m.max_span * length + 1e-12)
    best_k = np.full(n, np.inf)
    best = (np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool))
    for ratio in m.ratios:
        ra, rb = (ratio, 1.0) if ratio <= 1.0 else (1.0, 1.0 / ratio)
        s, conv = solve_scale(sc, ra, rb, length)
        kap = curvature(sc, ra, rb, s, U_KAPPA)
        peak = kap.max(axis=1)
        where = kap.argmax(axis=1)
        better = conv & (peak < best_k)
        best_k = np.where(better, peak, best_k)
        best = (np.where(better, s, best[0]), np.where(better, ra, best[1]),
                np.where(better, rb, best[2]), np.where(better, U_KAPPA[where], best[3]),
                best[4] | better)
    ok = in_span & ~collinear & best[4] & (best_k * m.min_bend_radius <= 1.0 + 1e-12)
    return JointFit(ok, best[0], best[1], best[2], best[3], best_k)


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
    return (h[0][..., None] * a[:, None, :] + h[1][..., None] * (sa[:, None] * da)[:, None, :]
            + h[2][..., None] * b[:, None, :] - h[3][..., None] * (sb[:, None] * db)[:, None, :])


@dataclass(frozen=True)
class Sampled:
    """Sampled centre lines and the holes on them, for M pieces of one kind."""

    points: Arr
    """(M, n+1, 3): evenly spaced by arc length, from the first plug end."""
    hole_pos: Arr
    hole_tan: Arr
    hole_axis: Arr


def sample_joints(a: Arr, da: Arr, b: Arr, db: Arr, fit: JointFit, n_seg: int,
                  fracs: Arr) -> Sampled:
    """Points every 1/n_seg of the arc length, and the holes at `fracs` (M, k) with their axes."""
    sa, sb = fit.scale * fit.ra, fit.scale * fit.rb
    m = len(sa)
    vel = _eval(a, da, b, db, sa, sb, np.broadcast_to(U_PANEL, (m, len(U_PANEL))), 1)
    speed = norm(vel).reshape(m, _PANELS, len(_PW))
    panel = (speed * W_PANEL).sum(axis=-1)
    cum = np.concatenate([np.zeros((m, 1)), np.cumsum(panel, axis=1)], axis=1)
    total = cum[:, -1:]
    targets = np.concatenate([np.linspace(0.0, 1.0, n_seg + 1)[None, :].repeat(m, 0), fracs],
                             axis=1) * total
    idx = (cum[:, None, 1:-1] <= targets[:, :, None]).sum(axis=-1)
    lo = np.take_along_axis(cum, idx, axis=1)
    width = np.take_along_axis(panel, idx, axis=1)
    u = np.clip((idx + (targets - lo) / np.maximum(width, TINY)) / _PANELS, 0.0, 1.0)
    u[:, 0] = 0.0
    u[:, n_seg] = 1.0
    pts = _eval(a, da, b, db, sa, sb, u, 0)
    k = fracs.shape[1]
    uh = u[:, n_seg + 1:]
    d1 = _eval(a, da, b, db, sa, sb, uh, 1)
    d2 = _eval(a, da, b, db, sa, sb, uh, 2)
    up = fit.peak_u[:, None]
    peak_n = _normal_raw(_eval(a, da, b, db, sa, sb, up, 1), _eval(a, da, b, db, sa, sb, up, 2))
    tan = unit(d1)
    nraw = _normal_raw(d1, d2)
    kap = norm(nraw) / np.maximum(dot(d1, d1), TINY)
    fallback = peak_n - tan * dot(peak_n, tan)[..., None]
    use_fb = kap < KAPPA_EPS
    fb_ok = norm(fallback) > 1e-9
    straight = (fit.peak_kappa < KAPPA_EPS)[:, None] | (use_fb & ~fb_ok)
    axis = np.where(use_fb[..., None], unit(fallback), unit(nraw))
    axis = np.where(straight[..., None], horizontal_normal(tan), axis)
    return Sampled(pts[:, : n_seg + 1], pts[:, n_seg + 1:].reshape(m, k, 3), tan,
                   canonical_axis(axis))


def _normal_raw(d1: Arr, d2: Arr) -> Arr:
    """P'' without its component along P' (points to the centre of curvature)."""
    t = unit(d1)
    return d2 - t * dot(d2, t)[..., None]


def sample_ends(p: Arr, d: Arr, ref: Arr, cos_sin: Arr, length: float, n_seg: int,
                fracs: tuple[float, ...]) -> Sampled:
    """Straight strips from `p` along `d` (M, 3); hole axes turned from `ref` by an angle given
    as its (cos, sin) per strip (M, 2), from a table, so no trigonometry runs in a batch."""
    t = np.linspace(0.0, 1.0, n_seg + 1) * length
    pts = p[:, None, :] + t[None, :, None] * d[:, None, :]
    f = np.array(fracs) * length
    holes = p[:, None, :] + f[None, :, None] * d[:, None, :]
    c, s = cos_sin[:, 0], cos_sin[:, 1]
    axis = ref * c[:, None] + cross(d, ref) * s[:, None]
    k = len(fracs)
    tan = np.repeat(d[:, None, :], k, axis=1)
    return Sampled(pts, holes, tan, canonical_axis(np.repeat(axis[:, None, :], k, axis=1)))


def fold_back(points: Arr, seg_len: float, r: float) -> Bools:
    """True where a centre line comes back within 2r of itself (samples > 4r apart along it)."""
    n = points.shape[1]
    gap = max(1, int(np.ceil(4.0 * r / seg_len)))
    i, j = np.triu_indices(n, k=gap + 1)
    d = norm(points[:, i, :] - points[:, j, :])
    return np.asarray((d < 2.0 * r).any(axis=1), dtype=bool)
