"""Hau La: a brute-force check of a whole building: every pair of pieces, every tag, no grid.

Slow but independent of the spatial grid, so tests and benchmarks (not the installed package)
can compare the two and assert that a building produced by play never has a touch in it.
"""

from __future__ import annotations

import numpy as np

from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.geometry import Arr, norm, point_segment_distance, segment_distance


def _joints_between(b: Building, i: int, j: int) -> list[Arr]:
    """Positions of the plug-hole joints connecting pieces i and j."""
    out = []
    for x, y in ((i, j), (j, i)):
        for h in b.pieces[x].plan.holes:
            if b.host[h] == y:
                out.append(b.pos[h])
    return out


def piece_pair_gap(b: Building, i: int, j: int) -> float:
    """Closest distance between the centre lines of pieces i and j, outside their joints."""
    pi, pj = b.pieces[i].points, b.pieces[j].points
    a0, a1 = pi[:-1][:, None], pi[1:][:, None]
    b0, b1 = pj[:-1][None, :], pj[1:][None, :]
    d = segment_distance(a0, a1, b0, b1)
    for jp in _joints_between(b, i, j):
        near_i = point_segment_distance(jp, pi[:-1], pi[1:]) < b.model.r_ex
        near_j = point_segment_distance(jp, pj[:-1], pj[1:]) < b.model.r_ex
        d = np.where(near_i[:, None] & near_j[None, :], np.inf, d)
    return float(d.min())


def contacts(b: Building, tag_spots: list[tuple[int, int]]) -> list[str]:
    """Every touch in the building with tags at (hole, face): a list of descriptions."""
    m = b.model
    found = []
    n = len(b.pieces)
    for i in range(n):
        for j in range(i + 1, n):
            gap = piece_pair_gap(b, i, j)
            if gap < 2 * m.r:
                found.append(f"pieces {i + 1} and {j + 1} are {gap:.3f} apart")
    centres = [b.tag_centre(h, f) for h, f in tag_spots]
    for t, (h, _) in enumerate(tag_spots):
        for i, p in enumerate(b.pieces):
            if b.host[h] == i:
                continue
            gap = float(point_segment_distance(centres[t], p.points[:-1], p.points[1:]).min())
            if gap < m.r + m.tag_r:
                found.append(f"the tag in {b.names[h]} touches piece {i + 1} ({gap:.3f})")
        for u in range(t + 1, len(tag_spots)):
            gap = float(norm(centres[t] - centres[u]))
            if gap < 2 * m.tag_r:
                found.append(f"tags in {b.names[h]} and {b.names[tag_spots[u][0]]} touch")
    return found
