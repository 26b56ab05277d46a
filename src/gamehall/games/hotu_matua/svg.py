"""The board as SVG: a sea of four-sided fields, each line's number as 1-4 dots, sails on the
start fields, pearls, and the ships. The web page reuses it; people check the map with it."""

from __future__ import annotations

import math

from gamehall.games.hotu_matua.board import Board, Point
from gamehall.games.hotu_matua.notation import SHIPS_PER_SEAT, ship_label
from gamehall.games.hotu_matua.rules import HotuMatuaState

MARGIN = 24.0
FOOTER = 46.0
SEA = ("#2f7fb8", "#3589c2", "#2a74aa", "#3a8fc6")
SEAT_COLOUR = ("#c0392b", "#f1c40f")
SEAT_TINT = ("#8e5a7a", "#8a9a5e")
DOT_GAP = 7.5


def centroid(poly: tuple[Point, ...]) -> Point:
    """The area centroid (better than the corner mean for almost triangular fields)."""
    a = cx = cy = 0.0
    for i in range(len(poly)):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % len(poly)]
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return cx / (3 * a), cy / (3 * a)


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _points(poly: tuple[Point, ...]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in poly)


def _dots(board: Board, line: int) -> list[str]:
    """The line's number as dots set along the shared side, centred on its middle."""
    a, b = board.line_fields[line]
    side = board.sides[a].index(line)
    (x0, y0), (x1, y1) = board.polygons[a][side], board.polygons[a][(side + 1) % 4]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    n = board.line_number[line]
    out = []
    for i in range(n):
        t = (i - (n - 1) / 2) * DOT_GAP
        out.append(f'<circle cx="{_f(mx + ux * t)}" cy="{_f(my + uy * t)}" r="3" '
                   f'class="dot"><title>{n}</title></circle>')
    return out


def _sail(x: float, y: float, seat: int) -> str:
    """A small sail (mast and triangle) marking a start field."""
    c = SEAT_COLOUR[seat]
    return (f'<g class="sail" transform="translate({_f(x)},{_f(y)})">'
            f'<path d="M0,-13 L0,9" stroke="#f4ecd8" stroke-width="1.6"/>'
            f'<path d="M1.5,-12 L12,6 L1.5,6 Z" fill="#f4ecd8" stroke="{c}" stroke-width="1.5"/>'
            f'<path d="M-10,9 L10,9 L6,13 L-6,13 Z" fill="#f4ecd8" opacity="0.8"/></g>')


def _ship(x: float, y: float, seat: int, label: str) -> str:
    c = SEAT_COLOUR[seat]
    text = "#ffffff" if seat == 0 else "#1b1b1b"
    return (f'<g class="ship" transform="translate({_f(x)},{_f(y)})">'
            f'<path d="M-17,-3 L17,-3 L11,9 L-11,9 Z" fill="{c}" stroke="#1b1b1b" '
            f'stroke-width="1.4"/>'
            f'<path d="M-2,-3 L-2,-19 L12,-5 Z" fill="#fdfdfd" stroke="#1b1b1b" '
            f'stroke-width="1"/>'
            f'<text x="0" y="7" text-anchor="middle" class="label" fill="{text}">{label}</text>'
            f'</g>')


def _pearl(x: float, y: float, present: bool) -> str:
    ring = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" class="pearl-field"/>'
    if not present:
        return ring
    return ring + (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="11.5" fill="url(#pearl)" '
                   f'stroke="#9aa7b3" stroke-width="1"/>')


def render_svg(state: HotuMatuaState) -> str:
    board = state.board
    x0, y0, x1, y1 = board.size
    width, height = x1 - x0 + 2 * MARGIN, y1 - y0 + 2 * MARGIN + FOOTER
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_f(x0 - MARGIN)} {_f(y0 - MARGIN)} '
        f'{_f(width)} {_f(height)}" width="{_f(width)}" height="{_f(height)}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif">',
        "<title>Hotu Matua</title>",
        '<defs><radialGradient id="pearl" cx="35%" cy="35%" r="70%">'
        '<stop offset="0" stop-color="#ffffff"/><stop offset="0.6" stop-color="#eef1f4"/>'
        '<stop offset="1" stop-color="#b9c4cf"/></radialGradient>'
        "<style>.field{stroke:#e9f3fa;stroke-width:1.6;stroke-linejoin:round}"
        ".dot{fill:#fffbea;stroke:#10324f;stroke-width:0.9}"
        ".id{font-size:9px;fill:#d7e9f5;opacity:0.85}"
        ".label{font-size:9px;font-weight:bold}"
        ".pearl-field{fill:none;stroke:#f6f2e4;stroke-width:2.2;stroke-dasharray:3 2}"
        ".info{font-size:13px;fill:#1b2a38}</style></defs>",
        f'<rect x="{_f(x0 - MARGIN)}" y="{_f(y0 - MARGIN)}" width="{_f(width)}" '
        f'height="{_f(height)}" fill="#f4ecd8"/>',
        f'<rect x="{_f(x0 - 6)}" y="{_f(y0 - 6)}" width="{_f(x1 - x0 + 12)}" '
        f'height="{_f(y1 - y0 + 12)}" fill="#7a5a3a" rx="4"/>',
    ]
    starts = {f: s for s in range(2) for f in board.start[s]}
    for f, poly in enumerate(board.polygons):
        fill = SEAT_TINT[starts[f]] if f in starts else SEA[(f * 7 + f // 5) % len(SEA)]
        out.append(f'<polygon class="field" points="{_points(poly)}" fill="{fill}">'
                   f"<title>{board.ids[f]}</title></polygon>")
    for line in range(len(board.line_fields)):
        out += _dots(board, line)
    for f, poly in enumerate(board.polygons):
        cx, cy = centroid(poly)
        if f in starts:
            out.append(_sail(cx + 22, cy - 8, starts[f]))
        if f in board.pearls:
            out.append(_pearl(cx, cy, f in state.pearls))
        low = 28 if f in board.pearls else 24
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + low)}" text-anchor="middle" class="id">'
                   f"{board.ids[f]}</text>")
    for i, f in enumerate(state.ships):
        seat, k = divmod(i, SHIPS_PER_SEAT)
        cx, cy = centroid(board.polygons[f])
        out.append(_ship(cx - 8, cy + 2, seat, ship_label(seat, k)))
    out.append(f'<text x="{_f(x0)}" y="{_f(y1 + MARGIN + 14)}" class="info">'
               f"{_caption(state)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _caption(state: HotuMatuaState) -> str:
    names = state.game.seat_names
    pearls = f"pearls north {state.owned[0]}, south {state.owned[1]}"
    if state.over:
        return f"{state.outcome_text()} — {pearls}"
    dice = " ".join(str(v) for v in range(1, 5) for _ in range(state.unused[v])) or "none"
    doing = (f"{state.to_roll} dice to roll" if state.to_roll else f"unused dice {dice}")
    return (f"turn {state.turn + 1}: {names[state.player]} to move, {doing} "
            f"({state.extra} carried over) — {pearls}")
