"""SVG drawing of the building: a side view (x across, z up) and a top view (x across, y up).

Strips are drawn as thick polylines of their true diameter, farther ones first and paler, in the
colour of the seat that placed them (grey: the starting building; a white dashed core: a bonus
joint). Free holes are white dots, tags are discs of their colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np

from gamehall.games.hau_la.geometry import Arr
from gamehall.games.hau_la.rules import HauLaState
from gamehall.games.hau_la.turns import Table

SEAT_FILL = {"red": "#d62728", "blue": "#1f5fd6", "yellow": "#e0b000", "orange": "#ff7f0e"}
START_FILL = "#8a8a8a"
PANEL = 560.0
MARGIN = 40.0


def render_svg(state: HauLaState) -> str:
    t = state.table
    lo, hi = _bounds(t)
    side_scale = min(PANEL / (hi[0] - lo[0]), PANEL / (hi[2] - lo[2]))
    top_scale = min(PANEL / (hi[0] - lo[0]), PANEL / (hi[1] - lo[1]))
    width = 2 * PANEL + 3 * MARGIN
    height = PANEL + 2 * MARGIN + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbfaf6"/>',
           f'<text x="{MARGIN}" y="24" font-size="16">{escape(_title(state, t))}</text>']
    top_edge = MARGIN + 30
    side = View(MARGIN, top_edge + PANEL, side_scale, lo[0], lo[2], hi[0])
    top = View(2 * MARGIN + PANEL, top_edge + PANEL, top_scale, lo[0], lo[1], hi[0])
    out += _side(t, side)
    out += _top(t, top)
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class View:
    """A panel: its lower-left corner on the page, the scale, and the world point drawn there."""

    left: float
    bottom: float
    scale: float
    u0: float
    v0: float
    u1: float

    def at(self, u: Arr, v: Arr) -> Arr:
        return np.stack([self.left + (u - self.u0) * self.scale,
                         self.bottom - (v - self.v0) * self.scale], axis=-1)


def _bounds(t: Table) -> tuple[Arr, Arr]:
    """World box to draw: the board (radius 10), every strip and tag, with a margin."""
    b = t.building
    pts = [np.array([[-10.5, -10.5, -0.5], [10.5, 10.5, 8.0]])]
    pts += [p.points for p in b.pieces]
    pts += [b.tag_centre(x.hole, x.face)[None] for x in t.tags if x.hole >= 0]
    allp = np.concatenate(pts)
    return allp.min(axis=0) - 0.8, allp.max(axis=0) + 0.8


def _title(state: HauLaState, t: Table) -> str:
    heights = t.heights()
    hs = ", ".join(f"{t.names[s]} {heights[s]:.2f}" if heights[s] is not None else
                   f"{t.names[s]} -" for s in t.live_ranking())
    status = state.outcome_text() if state.is_terminal() else f"round {t.round}"
    return f"Hau La — {status} — heights: {hs} — {len(t.building.pieces)} pieces"


def _fill(t: Table, placer: int) -> str:
    return SEAT_FILL.get(t.names[placer], "#444") if placer >= 0 else START_FILL


def _poly(pts: Arr) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _strips(t: Table, proj: list[Arr], depth: list[float], scale: float) -> list[str]:
    """Pieces as thick polylines, farthest first (depth: larger = farther)."""
    out = []
    order = sorted(range(len(proj)), key=lambda i: -depth[i])
    lo, hi = (min(depth), max(depth)) if depth else (0.0, 1.0)
    w = 2 * t.model.r * scale
    for i in order:
        p = t.building.pieces[i]
        fade = 0.0 if hi == lo else (depth[i] - lo) / (hi - lo)
        opacity = 1.0 - 0.45 * fade
        pts = _poly(proj[i])
        colour = _fill(t, p.placer)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#222" stroke-width="{w + 2:.1f}" '
                   f'stroke-linecap="round" stroke-linejoin="round" opacity="{opacity:.2f}"/>')
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                   f'stroke-width="{w:.1f}" stroke-linecap="round" stroke-linejoin="round" '
                   f'opacity="{opacity:.2f}"/>')
        if p.bonus:
            out.append(f'<polyline points="{pts}" fill="none" stroke="#fff" stroke-width="1.5" '
                       f'stroke-dasharray="4 4" opacity="{opacity:.2f}"/>')
        mid = proj[i][len(proj[i]) // 2]
        out.append(f'<text x="{mid[0] + 4:.1f}" y="{mid[1] - 4:.1f}" font-size="11" '
                   f'fill="#111">{p.number}</text>')
    return out


def _marks(t: Table, to2d: Arr, scale: float) -> list[str]:
    """Free holes and tags, drawn on top."""
    b = t.building
    out = []
    for h in t.free_holes():
        if not b.is_board(h):
            x, y = to2d[h]
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#fff" stroke="#000" '
                       f'stroke-width="1"><title>{escape(b.names[h])}</title></circle>')
    return out


def _tags(t: Table, project: object, scale: float) -> list[str]:
    b = t.building
    out = []
    for i, tag in enumerate(t.tags):
        if tag.hole < 0:
            continue
        c = b.tag_centre(tag.hole, tag.face)
        x, y = project(c[None])[0]  # type: ignore[operator]
        colour = t.model.colours[i]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{t.model.tag_r * scale:.1f}" '
                   f'fill="{SEAT_FILL[colour]}" stroke="#000" stroke-width="1.5">'
                   f'<title>{colour} {t.tag_height(i)}</title></circle>')
    return out


def _side(t: Table, v: View) -> list[str]:
    def project(p: Arr) -> Arr:
        return v.at(p[:, 0], p[:, 2])

    b = t.building
    x0, x1 = v.left, v.left + (v.u1 - v.u0) * v.scale
    ground = v.at(np.array(0.0), np.array(0.0))[1]
    out = [f'<text x="{x0:.1f}" y="{MARGIN + 22}" font-size="13">side view '
           f'(x across, z up; farther strips paler)</text>',
           f'<line x1="{x0:.1f}" y1="{ground:.1f}" x2="{x1:.1f}" y2="{ground:.1f}" '
           f'stroke="#8b5a2b" stroke-width="3"/>']
    for z in range(0, 100, 5):
        y = v.at(np.array(0.0), np.array(float(z)))[1]
        if y < MARGIN + 30:
            break
        out.append(f'<text x="{x0 - 24:.1f}" y="{y + 4:.1f}" font-size="10" '
                   f'fill="#666">{z}</text>')
        out.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" '
                   f'stroke="#ddd" stroke-width="0.5"/>')
    for x, _ in t.model.board:
        px = v.at(np.array(x), np.array(0.0))[0]
        out.append(f'<line x1="{px:.1f}" y1="{ground:.1f}" x2="{px:.1f}" y2="{ground + 6:.1f}" '
                   f'stroke="#8b5a2b" stroke-width="2"/>')
    proj = [project(p.points) for p in b.pieces]
    out += _strips(t, proj, [float(p.points[:, 1].mean()) for p in b.pieces], v.scale)
    out += _marks(t, project(b.pos), v.scale)
    out += _tags(t, project, v.scale)
    return out


def _top(t: Table, v: View) -> list[str]:
    def project(p: Arr) -> Arr:
        return v.at(p[:, 0], p[:, 1])

    b = t.building
    cx, cy = v.at(np.array(0.0), np.array(0.0))
    out = [f'<text x="{v.left:.1f}" y="{MARGIN + 22}" font-size="13">top view '
           f'(x across, y up; lower strips paler)</text>',
           f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{10 * v.scale:.1f}" fill="#efe3cf" '
           f'stroke="#8b5a2b" stroke-width="2"/>']
    for h in range(b.n_board):
        x, y = project(b.pos[h][None])[0]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#5a3a1a"/>'
                   f'<text x="{x + 6:.1f}" y="{y + 12:.1f}" font-size="10" fill="#5a3a1a">'
                   f'{b.names[h]}</text>')
    proj = [project(p.points) for p in b.pieces]
    out += _strips(t, proj, [-float(p.points[:, 2].mean()) for p in b.pieces], v.scale)
    out += _marks(t, project(b.pos), v.scale)
    out += _tags(t, project, v.scale)
    return out
