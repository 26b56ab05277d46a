"""An SVG drawing of a Hula position: the hex-hex board, the stones, the centre, the last move
and the winner's loop, for checking by eye (``gamehall board hula --svg f.svg``).

Each stone is a ``<circle class="stone first|second|neutral" data-cell="e6">``, so a test (or a
script) can read the position back from the drawing.
"""

from __future__ import annotations

import math
import textwrap
from html import escape

from gamehall.games.hula.notation import SEATS, STONE_NAMES, action_name
from gamehall.games.hula.rules import HulaState
from gamehall.games.hula.view import outcome_text, winning_loop

R = 18.0
"""Hexagon radius (centre to corner) in pixels."""
MARGIN = 34.0
FILL = {"first": "#d62728", "second": "#1f5fbf", "neutral": "#555"}
"""Stone colours, as on the terminal board (first red, second blue, neutral dark)."""


def _centre(state: HulaState, cell: int, ox: float, oy: float) -> tuple[float, float]:
    """Pixel centre of `cell`: axial x = q + r/2, y = r·√3/2 (r grows upwards, so y flips)."""
    q, r = state.geo.coords[cell]
    return ox + R * math.sqrt(3) * (q + r / 2), oy - R * 1.5 * r


def _hexagon(x: float, y: float) -> str:
    """A pointy-top hexagon around (x, y): the cells of a row touch along vertical sides."""
    corners = (math.radians(30 + 60 * k) for k in range(6))
    return " ".join(f"{x + R * math.cos(a):.1f},{y + R * math.sin(a):.1f}" for a in corners)


def render_svg(state: HulaState) -> str:
    """The board with its row letters, every stone, the centre ⊙, the last move ringed, and the
    winner's loop outlined; a caption says who is to move or how the game ended."""
    geo = state.geo
    half_width = R * math.sqrt(3) * (geo.size - 0.5)
    half_height = R * 1.5 * (geo.size - 1) + R
    width = 2 * (half_width + MARGIN)
    caption = textwrap.wrap(_caption(state), width=int(width / 6.5))
    height = 2 * (half_height + MARGIN) + 16 * len(caption)
    ox, oy = width / 2, MARGIN + half_height
    loop = set(winning_loop(state))
    masks = (state.stones[0], state.stones[1], state.neutral)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#f4ecd8"/>']
    for cell in range(geo.num_cells):
        x, y = _centre(state, cell, ox, oy)
        edge = ' stroke="#2ca02c" stroke-width="3"' if cell in loop else ' stroke="#8a7a5a"'
        out.append(f'<polygon class="cell" data-cell="{geo.names[cell]}" '
                   f'points="{_hexagon(x, y)}" fill="#e8dcb8"{edge}/>')
        bit = geo.bit[cell]
        kind = next((STONE_NAMES[k] for k, m in enumerate(masks) if m & bit), None)
        if cell == geo.centre:
            out.append(f'<circle class="centre" cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.45:.1f}" '
                       'fill="none" stroke="#a0209e" stroke-width="2"/>')
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#a0209e"/>')
        elif kind is not None:
            out.append(f'<circle class="stone {kind}" data-cell="{geo.names[cell]}" '
                       f'cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.7:.1f}" fill="{FILL[kind]}" '
                       'stroke="#222"/>')
        if cell == state.last:
            out.append(f'<circle class="last" cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.85:.1f}" '
                       'fill="none" stroke="#f0b000" stroke-width="2.5"/>')
    out.extend(_row_letters(state, ox, oy))
    for i, line in enumerate(caption):
        y = 2 * (half_height + MARGIN) + 16 * i - 8
        out.append(f'<text class="caption" x="{width / 2:.0f}" y="{y:.0f}" font-size="12" '
                   f'text-anchor="middle" fill="#333">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _row_letters(state: HulaState, ox: float, oy: float) -> list[str]:
    """Each row's letter left of its first cell and right of its last."""
    geo = state.geo
    out = []
    start = 0
    for row, length in enumerate(geo.row_lengths):
        letter = chr(ord("a") + row)
        for cell, dx in ((start, -1.45), (start + length - 1, 1.45)):
            x, y = _centre(state, cell, ox, oy)
            out.append(f'<text x="{x + dx * R:.1f}" y="{y + 4:.1f}" font-size="12" '
                       f'text-anchor="middle" fill="#6a5a3a">{letter}</text>')
        start += length
    return out


def _caption(state: HulaState) -> str:
    if state.winner is not None:
        return outcome_text(state)
    mover = SEATS[state.current_player()]
    last = "" if state.last is None else f"; last move {action_name(state.geo, state.last)}"
    swap = ", or swap" if state.swap_open else ""
    return f"Hula {state.geo.size}: {mover} to move, {STONE_NAMES[state.turn]} colour{swap}{last}"
