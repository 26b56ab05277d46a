"""Vector helpers on arrays of 3-vectors (last axis), written component-wise.

Only +, -, *, / and sqrt are used, element by element, so a batch of many candidates gives
bit-for-bit the same numbers as a batch of one: the building never depends on how it was computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Arr = NDArray[np.float64]
Bools = NDArray[np.bool_]
Index = NDArray[Any]
"""Integer or boolean index arrays."""

UP = np.array([0.0, 0.0, 1.0])
EAST = np.array([1.0, 0.0, 0.0])
TINY = 1e-300


def dot(a: Arr, b: Arr) -> Arr:
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]


def cross(a: Arr, b: Arr) -> Arr:
    return stack3(a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                  a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                  a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0])


def stack3(x: Arr, y: Arr, z: Arr) -> Arr:
    """`np.stack([x, y, z], axis=-1)` for three arrays of one shape, in a few C calls (the
    arrays here are small, so `np.stack`'s Python layer would cost more than the copies)."""
    out = np.empty((*x.shape, 3))
    out[..., 0], out[..., 1], out[..., 2] = x, y, z
    return out


def norm(a: Arr) -> Arr:
    return np.sqrt(dot(a, a))


def unit(a: Arr) -> Arr:
    return a / np.maximum(norm(a), TINY)[..., None]


def canonical_axis(v: Arr, eps: float = 1e-9) -> Arr:
    """Give each axis (a line: its sign does not matter) one sign: z > 0, else x > 0, else y > 0.

    So a hole's "u" face is its upper face, and notation does not depend on how it was computed.
    """
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    flip = (z < -eps) | ((np.abs(z) <= eps) & ((x < -eps) | ((np.abs(x) <= eps) & (y < 0))))
    return np.where(flip[..., None], -v, v)


def horizontal_normal(t: Arr) -> Arr:
    """A horizontal unit vector across the direction `t` (east when `t` is vertical)."""
    h = cross(t, np.broadcast_to(UP, t.shape))
    n = norm(h)
    ok = n > 1e-9
    return np.where(ok[..., None], h / np.maximum(n, TINY)[..., None],
                    np.broadcast_to(EAST, t.shape))


def point_segment_distance(p: Arr, a: Arr, b: Arr) -> Arr:
    """Distance from points `p` to segments `a`-`b` (all broadcast together).

    The foot point and the gap are worked out axis by axis: a product broadcast along the last
    axis (length 3) costs numpy many times more than the same numbers as three (N,) arrays."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    d0, d1, d2 = b[..., 0] - a0, b[..., 1] - a1, b[..., 2] - a2
    p0, p1, p2 = p[..., 0], p[..., 1], p[..., 2]
    along = (p0 - a0) * d0 + (p1 - a1) * d1 + (p2 - a2) * d2
    t = np.clip(along / np.maximum(d0 * d0 + d1 * d1 + d2 * d2, TINY), 0.0, 1.0)
    x, y, z = p0 - (a0 + d0 * t), p1 - (a1 + d1 * t), p2 - (a2 + d2 * t)
    return np.sqrt(x * x + y * y + z * z)


def segment_distance(p0: Arr, p1: Arr, q0: Arr, q1: Arr) -> Arr:
    """Closest distance between segments p0-p1 and q0-q1, pair by pair (segments non-degenerate).

    The clamped closest-points method (Ericson, Real-Time Collision Detection, 5.1.9).
    """
    d1 = p1 - p0
    d2 = q1 - q0
    r = p0 - q0
    a = dot(d1, d1)
    e = dot(d2, d2)
    f = dot(d2, r)
    c = dot(d1, r)
    b = dot(d1, d2)
    denom = a * e - b * b
    safe = denom > 1e-12 * a * e
    s = np.where(safe, np.clip((b * f - c * e) / np.where(safe, denom, 1.0), 0.0, 1.0), 0.0)
    t = (b * s + f) / e
    low = t < 0.0
    high = t > 1.0
    s = np.where(low, np.clip(-c / a, 0.0, 1.0), np.where(high, np.clip((b - c) / a, 0.0, 1.0), s))
    t = np.clip(t, 0.0, 1.0)
    x, y, z = ((p0[..., i] + d1[..., i] * s) - (q0[..., i] + d2[..., i] * t) for i in range(3))
    return np.sqrt(x * x + y * y + z * z)
