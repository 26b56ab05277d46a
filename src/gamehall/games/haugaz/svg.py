"""An SVG drawing of a Haugaz board: the points and their diagonals, the stacks on them."""

from __future__ import annotations

from gamehall.games.haugaz.board import BLACK
from gamehall.games.haugaz.geometry import column_letter
from gamehall.games.haugaz.rules import HaugazState


def render_svg(state: HaugazState) -> str:
    """A drawing of the board with its diagonals; each stack a disc in its owner's colour with
    its height written on it."""
    size = state.geo.size
    step, margin = 40, 30
    span = step * (size - 1)
    width = span + 2 * margin

    def xy(p: int) -> tuple[int, int]:
        row, col = divmod(p, size)
        return margin + col * step, margin + (size - 1 - row) * step

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
           f'viewBox="0 0 {width} {width}">',
           f'<rect width="{width}" height="{width}" fill="#e8c98a"/>',
           '<g stroke="#5a4020" stroke-width="1">']
    for i in range(size):
        a = margin + i * step
        out.append(f'<line x1="{margin}" y1="{a}" x2="{margin + span}" y2="{a}"/>')
        out.append(f'<line x1="{a}" y1="{margin}" x2="{a}" y2="{margin + span}"/>')
    for r in range(size - 1):
        for c in range(size - 1):
            x, y = margin + c * step, margin + r * step
            out.append(f'<line x1="{x}" y1="{y}" x2="{x + step}" y2="{y + step}"/>')
            out.append(f'<line x1="{x + step}" y1="{y}" x2="{x}" y2="{y + step}"/>')
    out.append("</g>")
    label = 'font-size="11" text-anchor="middle" font-family="sans-serif" fill="#5a4020"'
    for i in range(size):
        a = margin + i * step
        out.append(f'<text x="{a}" y="{width - 4}" {label}>{column_letter(i)}</text>')
        out.append(f'<text x="9" y="{margin + span - i * step + 4}" {label}>{i + 1}</text>')
    for p, h in enumerate(state.height):
        if not h:
            continue
        x, y = xy(p)
        fill, ink = ("#111", "#fff") if state.owner[p] == BLACK else ("#fafafa", "#000")
        ring = ' stroke="#d00" stroke-width="3"' if p == state.placed else ' stroke="#000"'
        out.append(f'<circle cx="{x}" cy="{y}" r="15" fill="{fill}"{ring}/>')
        out.append(f'<text x="{x}" y="{y + 5}" font-size="14" text-anchor="middle" '
                   f'font-family="sans-serif" fill="{ink}">{h}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
