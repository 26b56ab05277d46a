"""Terminal view: who has what, the free holes with their heights, tags and ranks, and a side-view
ASCII sketch of the building (x across, z up; nearer strips drawn over farther ones)."""

from __future__ import annotations

import math
from typing import Any

from rich.markup import escape

from gamehall.core.messages import Message, msg
from gamehall.core.phrases import beside, seat
from gamehall.games.hau_la.notation import sides_text
from gamehall.games.hau_la.placements import FIRST, KIND, ROT, SECOND
from gamehall.games.hau_la.placements import SIDES as SIDES_STEP
from gamehall.games.hau_la.rules import HauLaState
from gamehall.games.hau_la.turns import EXTRAS, HAND, OVER, PLACING, Table

COLOUR_STYLE = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow",
                "orange": "bold dark_orange"}
SKETCH_COLS = 66
X_RANGE = 11.0
STEP_MOVES_WIDTH = 80
"""Longest list of choices the compact step status spells out."""


def state_view(state: HauLaState, seat: int | None) -> dict[str, Any]:
    """Hau La has no hidden information: everyone sees the whole table."""
    data = state.to_json()
    data["viewer"] = None
    data.update(beside("expecting", state.expecting_message()))
    if seat is not None:
        data.update(seat_overlay(state, seat))
    return data


def seat_overlay(state: HauLaState, seat: int) -> dict[str, Any]:
    """What differs between a seat's view and a spectator's: the viewer's seat name."""
    return {"viewer": state.game.seat_names[seat]}


def outcome_message(state: HauLaState) -> Message:
    """Who won, and the height of the winning tag."""
    t = state.table
    if t.phase != OVER:
        return msg("game.hau_la.outcome.not_over")
    top = t.ranking[0]
    h = t.heights()[top]
    if h is None:
        return msg("game.hau_la.outcome.win", winner=seat(t.names[top]))
    return msg("game.hau_la.outcome.win_tag", winner=seat(t.names[top]), height=f"{h:.2f}")


def outcome_text(state: HauLaState) -> str:
    """`outcome_message` in English (the terminal and the drawings)."""
    return outcome_message(state).text


def render_text(state: HauLaState, seat: int | None = None) -> str:
    t = state.table
    lines = [_headline(state, t), *_players(t), _hands_line(t), *_holes(t)]
    pending = _pending(t)
    if pending:
        expecting = state.expecting()
        lines.append(f"{pending} — now {escape(expecting)} ([bold]moves[/] lists them)")
    if t.events:
        lines.append("[dim]" + escape(" · ".join(e.text for e in t.events[-4:])) + "[/]")
    lines.append(sketch(t))
    return "\n".join(lines)


def render_step(state: HauLaState, seat: int | None = None) -> str | None:
    """One line between the steps of a placement already begun: what is chosen, what comes
    next and the choices (the building has not changed, so it is not drawn again). None at a
    placement's start, when the whole view is due."""
    t = state.table
    if t.phase not in PLACING or t.placements is None or t.chosen() == 0:
        return None
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    listed = " ".join(moves)
    choices = (escape(listed) if len(listed) <= STEP_MOVES_WIDTH
               else f"{len(moves)} choices, [bold]moves[/] lists them")
    expecting = state.expecting()
    return (f"{_colour(t, t.names[t.placer])} — {_pending(t)} — now {escape(expecting)}: "
            f"{choices}  [dim]([bold]board[/] draws the building)[/]")


def _colour(t: Table, name: str) -> str:
    return f"[{COLOUR_STYLE.get(name, 'bold')}]{escape(name)}[/]"


def _headline(state: HauLaState, t: Table) -> str:
    if t.phase == OVER:
        return "[bold]Hau La[/] — final position"  # the outcome: the caller's to say
    who = _colour(t, t.names[t.placer])
    doing = {"extras": "chooses a first-turn piece", "place": "to place a piece",
             "handover": f"places {t.names[t.culprit] if t.culprit >= 0 else 'a'}'s "
                         f"{t.model.kinds[t.kind].name} (penalty hand-over, no tag)",
             "bonus": "places a bonus big joint (board hole + piece hole, no tag)",
             "bonus_handover": "places the bonus joint that touched (no tag)"}[t.phase]
    if t.phase == EXTRAS:
        return f"[bold]Hau La[/] — preparation: {who} {escape(doing)}"
    order = " → ".join(t.names[s] for s in t.order)
    return (f"[bold]Hau La[/] — round {t.round} ({escape(order)}), {who} {escape(doing)}; "
            f"bonus stock {t.stock}")


def _players(t: Table) -> list[str]:
    out = []
    ranking = t.live_ranking()
    heights = t.heights()
    for rank, s in enumerate(ranking, start=1):
        tags = []
        for i, tag in enumerate(t.tags):
            if tag.owner != s:
                continue
            colour = t.model.colours[i]
            if tag.hole >= 0:
                tags.append(f"{_colour(t, colour)} tag in {t.building.names[tag.hole]} "
                            f"at {t.tag_height(i):.2f}")
            else:
                tags.append(f"{_colour(t, colour)} tag {'in hand' if tag.hole == HAND else 'out'}")
        h = heights[s]
        height = f"{h:.2f}" if h is not None else "-"
        out.append(f"  {rank}. {_colour(t, t.names[s])} height {height}: " + "; ".join(tags))
    return out


def _hands_line(t: Table) -> str:
    parts = []
    for s in range(t.n):
        hand = " ".join(f"{k.code}×{c}" for k, c in zip(t.model.kinds, t.hands[s], strict=True)
                        if c)
        if t.extra[s] >= 0:
            hand += f" (+{t.model.kinds[t.extra[s]].code} for the first turn)"
        parts.append(f"{_colour(t, t.names[s])}: {escape(hand or 'nothing')}")
    if t.phase == EXTRAS:
        parts.append("to choose: " + " ".join(t.model.kinds[k].code for k in t.extras_left))
    return "Pieces — " + " · ".join(parts)


def _holes(t: Table) -> list[str]:
    b = t.building
    free = sorted(t.free_holes(), key=lambda h: (-b.pos[h][2], h))
    up = [f"{b.names[h]} {b.pos[h][2]:.1f}" for h in free if not b.is_board(h)]
    board = [b.names[h] for h in free if b.is_board(h)]
    return [f"Free holes (height): {escape(', '.join(up) or 'none')}",
            f"Free board holes: {escape(' '.join(board) or 'none')}"]


def _pending(t: Table) -> str:
    if t.placements is None or t.phase == OVER:
        return ""
    m, b, p = t.model, t.building, t.pending
    bits = []
    if KIND in p:
        bits.append(m.kinds[p[KIND]].name)
    if FIRST in p:
        bits.append(f"from {b.names[p[FIRST]]}")
    if SECOND in p:
        bits.append(f"to {b.names[p[SECOND]]}")
    if ROT in p:
        bits.append(f"turned {m.rotations_deg[p[ROT]]}°")
    if SIDES_STEP in p:
        bits.append(f"sides {sides_text(p[SIDES_STEP], m.kinds[p[KIND]].is_joint)}")
    return "Chosen so far: " + escape(", ".join(bits) or "nothing")


def piece_mark(number: int) -> str:
    """One character per piece: 1-9, then a, b, c... for pieces 10, 11, 12..."""
    return str(number) if number < 10 else chr(ord("a") + number - 10)


def sketch(t: Table, cols: int = SKETCH_COLS) -> str:
    """Side view: x across, z up; strips drawn with their piece mark (nearer over farther), free
    piece holes as '*', tags as their colour's initial, the board as '=' with '^' at holes."""
    b = t.building
    top = max([6.0] + [float(p.points[:, 2].max()) for p in b.pieces]
              + [h for i in range(len(t.tags)) if (h := t.tag_height(i)) is not None])
    dx = 2 * X_RANGE / (cols - 1)
    dz = 2 * dx
    rows = int(math.ceil(top / dz)) + 2
    grid = [[" "] * cols for _ in range(rows)]
    depth = [[math.inf] * cols for _ in range(rows)]

    def cell(x: float, z: float) -> tuple[int, int]:
        return rows - 1 - int(round(z / dz)), int(round((x + X_RANGE) / dx))

    def put(x: float, y: float, z: float, ch: str) -> None:
        r, c = cell(x, z)
        if 0 <= c < cols and 0 <= r < rows and y <= depth[r][c]:
            grid[r][c], depth[r][c] = ch, y

    for p in b.pieces:
        for x, y, z in p.points:
            put(x, y, z, piece_mark(p.number))
    for h in t.free_holes():
        if not b.is_board(h):
            put(b.pos[h][0], b.pos[h][1] - 0.3, b.pos[h][2], "*")
    cells = [[escape(ch) for ch in row] for row in grid]
    for i, tag in enumerate(t.tags):
        if tag.hole >= 0:
            x, _, z = b.tag_centre(tag.hole, tag.face)
            r, c = cell(x, z)
            colour = t.model.colours[i]
            if 0 <= c < cols and 0 <= r < rows:
                cells[r][c] = f"[{COLOUR_STYLE[colour]} reverse]{colour[0].upper()}[/]"
    ground = ["="] * cols
    for x, _ in t.model.board:
        c = int(round((x + X_RANGE) / dx))
        if 0 <= c < cols:
            ground[c] = "^"
    lines = ["Side view (x across, z up): 1-9, a=10, b=11… pieces · * free hole · "
             "R B Y O tags"]
    for r, row in enumerate(cells):
        lines.append(f"{(rows - 1 - r) * dz:5.1f} |" + "".join(row).rstrip())
    lines.append("      " + "".join(ground))
    return "\n".join(lines)
