"""An SVG drawing of a Halali! position: the 7×7 forest, face-down and face-up tiles, the four
exits, the tile being flipped and the locked square, for checking by eye
(``gamehall board halali --svg f.svg``).

Each square is a ``<g class="square ..." data-square="c3" data-tile="fox">`` (``hidden`` for a
face-down tile, ``empty``), so a test or a script can read the position back from the drawing.
"""

from __future__ import annotations

import textwrap
from html import escape

from gamehall.games.halali.pictures import picture_svg
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import (
    BEASTS,
    EMPTY,
    EXIT_EDGE,
    GREEN_MOVABLE,
    HIDDEN,
    HUMANS,
    HUNTERS,
    KIND_OF,
    SIDE_NAMES,
    SIZE,
    side_of,
    square,
    square_name,
    tile_name,
)
from gamehall.games.halali.view import outcome_text

STEP = 56
"""Side of a square, in pixels."""
MARGIN = 46
SIDE_FILL = {HUMANS: "#e08a2c", BEASTS: "#3c7fd6"}
"""Tile colours by side, as on the terminal board (humans orange, beasts blue)."""
GREEN_FILL = "#57b84a"
TREE_FILL = "#2e7d32"
RIFLE = {HUNTERS[0]: (0, -1), HUNTERS[1]: (1, 0), HUNTERS[2]: (0, 1), HUNTERS[3]: (-1, 0)}
"""A hunter's rifle direction on the drawing, shown as an arrowhead at that edge of its tile."""


def _xy(sq: int) -> tuple[int, int]:
    """Top-left corner of square `sq` (rank 7 at the top, file a on the left)."""
    return MARGIN + (sq % SIZE) * STEP, MARGIN + (SIZE - 1 - sq // SIZE) * STEP


def _fill(code: int) -> str:
    side = side_of(code)
    if side is not None:
        return SIDE_FILL[side]
    return GREEN_FILL if code in GREEN_MOVABLE else TREE_FILL


def _square(state: HalaliState, sq: int) -> list[str]:
    x, y = _xy(sq)
    code = state.board[sq]
    name = square_name(sq)
    if code == HIDDEN:
        kind, body = "hidden", [
            f'<rect x="{x + 4}" y="{y + 4}" width="{STEP - 8}" height="{STEP - 8}" rx="6" '
            'fill="#6d5a3e" stroke="#3b2f1e"/>',
            f'<text x="{x + STEP // 2}" y="{y + STEP // 2 + 6}" font-size="18" '
            'text-anchor="middle" fill="#d8c8a8">?</text>']
    elif code == EMPTY:
        kind, body = "empty", []
    else:
        kind = KIND_OF[code]
        body = [f'<rect x="{x + 4}" y="{y + 4}" width="{STEP - 8}" height="{STEP - 8}" rx="6" '
                f'fill="{_fill(code)}" stroke="#222"/>',
                f'<circle cx="{x + STEP / 2:g}" cy="{y + STEP / 2:g}" r="{STEP / 2 - 7:g}" '
                'fill="#fffdf6" opacity="0.85"/>',
                picture_svg(kind, x + 10, y + 10, STEP - 20)]
        if code in RIFLE:
            body.append(_rifle(x, y, RIFLE[code]))
    if sq == state.pending:
        body.append(f'<rect x="{x + 2}" y="{y + 2}" width="{STEP - 4}" height="{STEP - 4}" '
                    'rx="7" fill="none" stroke="#f0b000" stroke-width="3"/>')
    if sq == state.locked:
        body.append(f'<text x="{x + STEP - 9}" y="{y + 14}" font-size="11" '
                    'text-anchor="middle" fill="#b00">×</text>')
    tile = "hidden" if code == HIDDEN else ("empty" if code == EMPTY else tile_name(code))
    return [f'<g class="square {kind}" data-square="{name}" data-tile="{escape(tile)}">',
            f'<rect x="{x}" y="{y}" width="{STEP}" height="{STEP}" fill="#efe6cc" '
            'stroke="#b8a77e"/>', *body, "</g>"]


def _rifle(x: int, y: int, direction: tuple[int, int]) -> str:
    """An arrowhead on the edge of the tile at (x, y) that the hunter's rifle points to."""
    dx, dy = direction
    cx, cy = x + STEP / 2, y + STEP / 2
    tip = (cx + dx * (STEP / 2 - 3), cy + dy * (STEP / 2 - 3))
    base = (cx + dx * (STEP / 2 - 11), cy + dy * (STEP / 2 - 11))
    side = (-dy * 6, dx * 6)
    pts = [tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])]
    return ('<polygon class="rifle" fill="#1b1410" stroke="#fff" stroke-width="1" points="'
            + " ".join(f"{px:g},{py:g}" for px, py in pts) + '"/>')


def _exits(state: HalaliState) -> list[str]:
    """The four exits beyond d7, g4, d1 and a4; bright once the end phase has opened them."""
    open_ = state.end_left is not None and not state.over
    colour = "#e0a800" if open_ else "#b8a77e"
    out = []
    for d, sq in enumerate(EXIT_EDGE):
        x, y = _xy(sq)
        cx, cy = x + STEP // 2, y + STEP // 2
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
        ex, ey = cx + dx * (STEP // 2 + 16), cy + dy * (STEP // 2 + 16)
        out.append(f'<text class="exit" x="{ex}" y="{ey + 6}" font-size="18" '
                   f'text-anchor="middle" fill="{colour}">{"▲▶▼◀"[d]}</text>')
    return out


def _labels() -> list[str]:
    out = []
    style = 'font-size="12" text-anchor="middle" fill="#6a5a3a"'
    for i in range(SIZE):
        x, _ = _xy(square(i, 0))
        _, y = _xy(square(0, i))
        out.append(f'<text x="{x + STEP // 2}" y="{MARGIN + SIZE * STEP + 40}" {style}>'
                   f'{"abcdefg"[i]}</text>')
        out.append(f'<text x="{MARGIN - 38}" y="{y + STEP // 2 + 4}" {style}>{i + 1}</text>')
    return out


def _caption(state: HalaliState) -> str:
    match = f" · game {state.game_no + 1} of 2" if state.match else ""
    scores = ", ".join(f"{SIDE_NAMES[s]} {state.score(s)}" for s in (HUMANS, BEASTS))
    if state.over:
        head = outcome_text(state)
    elif state.pending is not None:
        head = f"flipping the tile on {square_name(state.pending)}"
    else:
        head = f"{SIDE_NAMES[state.side_to_move]} to move"
    phase = (f" · end phase: {state.end_left} turns left"
             if state.end_left is not None and not state.over else "")
    return f"Halali!{match} · {head} · points: {scores}{phase}"


def render_svg(state: HalaliState) -> str:
    """The forest with every square, the exits, file letters and rank numbers, and a caption
    with the side to move (or the outcome) and the points."""
    side = 2 * MARGIN + SIZE * STEP
    caption = textwrap.wrap(_caption(state), width=int(side / 6.5))
    height = side + 16 + 16 * len(caption)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" '
           f'viewBox="0 0 {side} {height}" font-family="sans-serif">',
           f'<rect width="{side}" height="{height}" fill="#f7f1e1"/>']
    for sq in range(SIZE * SIZE):
        out.extend(_square(state, sq))
    out.extend(_exits(state))
    out.extend(_labels())
    for i, line in enumerate(caption):
        out.append(f'<text class="caption" x="{side // 2}" y="{side + 16 + 16 * i}" '
                   f'font-size="12" text-anchor="middle" fill="#333">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
