"""What a seat sees of a Hula game (JSON for the browser) and the board drawn for a terminal."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gamehall.core.messages import Message, msg, render
from gamehall.core.phrases import seat
from gamehall.games.hula.jsonform import state_to_json
from gamehall.games.hula.loops import Score, shortest_loop, shortest_loop_cells
from gamehall.games.hula.notation import SEATS, STONE_NAMES, action_name
from gamehall.games.hula.rules import HulaState

GLYPHS = ("[bold red]●[/]", "[bold blue]○[/]", "[bold]◆[/]")
CENTRE = "[magenta] ⊙ [/]"


def winning_loop(state: HulaState) -> list[int]:
    """The winner's best loop (fewest cells, then fewest neutrals), in order; [] before the end."""
    if state.winner is None:
        return []
    return shortest_loop_cells(state.geo, state.stones[state.winner], state.neutral)


def loop_scores(state: HulaState) -> tuple[Score | None, Score | None]:
    """Each colour's best (length, neutrals) loop, or None where it has none."""
    return tuple(  # type: ignore[return-value]
        shortest_loop(state.geo, state.stones[c], state.neutral) for c in (0, 1))


def seat_overlay(state: HulaState, seat: int) -> dict[str, Any]:
    """What differs between a seat's view and a spectator's: which seat "you" are, and (for
    the seat to move only, as the state message's own list) its legal moves."""
    return {"you": SEATS[seat],
            "legal_moves": ([text for _, text in state.legal_notation()]
                            if seat == state.current_player() else [])}


def state_view(state: HulaState, seat: int | None) -> dict[str, Any]:
    """Public information only (Hula hides nothing), plus what a front end needs to draw it;
    `legal_moves` only for the seat to move."""
    geo = state.geo
    data = state_to_json(state)
    data.update({
        "size": geo.size,
        "row_lengths": geo.row_lengths,
        "centre": geo.names[geo.centre],
        "you": None,
        "colours": {SEATS[s]: STONE_NAMES[state.colour_of_seat(s)] for s in (0, 1)},
        "legal_moves": [],
        "loop": [geo.names[c] for c in winning_loop(state)],
        "double_loop": state.double,
    })
    if state.double:
        data["loop_scores"] = {
            STONE_NAMES[c]: {"length": s[0], "neutrals": s[1]} if s else None
            for c, s in enumerate(loop_scores(state))
        }
    if seat is not None:
        data.update(seat_overlay(state, seat))
    return data


def outcome_message(state: HulaState) -> Message:
    """How the game ended, with the tie-break step that decided a double loop."""
    if state.winner is None:
        return msg("game.hula.outcome.not_over")
    won = msg("game.hula.outcome.loop", seat=seat(SEATS[state.seat_of_colour(state.winner)]),
              colour=STONE_NAMES[state.winner])
    if not state.double:
        return won
    first, second = loop_scores(state)
    assert first is not None and second is not None
    if first[0] != second[0]:
        why = msg("game.hula.why.shorter", short=min(first[0], second[0]),
                  long=max(first[0], second[0]))
    elif first[1] != second[1]:
        why = msg("game.hula.why.neutrals", length=first[0], few=min(first[1], second[1]),
                  many=max(first[1], second[1]))
    else:
        why = msg("game.hula.why.equal", length=first[0], neutrals=first[1])
    return msg("game.hula.outcome.double", won=won, why=why)


def outcome_text(state: HulaState) -> str:
    """`outcome_message` in English (the terminal and the drawings)."""
    return outcome_message(state).text


def _token(state: HulaState, cell: int, loop: set[int]) -> str:
    geo = state.geo
    if cell == geo.centre:
        return CENTRE
    bit = geo.bit[cell]
    masks = (state.stones[0], state.stones[1], state.neutral)
    kind = next((k for k, m in enumerate(masks) if m & bit), None)
    if kind is None:
        return f"[dim]{geo.number_of[cell]:>2}[/] "
    glyph = GLYPHS[kind]
    if cell in loop:
        glyph = f"[reverse]{glyph}[/reverse]"
    if cell == state.last:
        return f"({glyph})"
    return f" {glyph} "


def render_text(state: HulaState, seat: int | None) -> str:
    """The hex board, top row first, row letters on both sides and cell numbers on empty cells."""
    geo = state.geo
    loop_cells = winning_loop(state)
    loop = set(loop_cells)
    widest = max(geo.row_lengths)
    lines = []
    start = geo.num_cells
    for row in reversed(range(geo.num_rows)):
        length = geo.row_lengths[row]
        start -= length
        letter = chr(ord("a") + row)
        tokens = " ".join(_token(state, c, loop) for c in range(start, start + length))
        lines.append(f"{' ' * (2 * (widest - length))}{letter}  {tokens}  {letter}")
    lines.append("")
    lines.extend(_legend(state, seat))
    if loop_cells:
        names = " ".join(geo.names[c] for c in loop_cells)
        neutrals = sum(1 for c in loop_cells if state.neutral & geo.bit[c])
        lines.append(f"loop ({len(loop_cells)} stones, {neutrals} neutral): {escape(names)}")
    return "\n".join(lines)


def _legend(state: HulaState, seat: int | None) -> list[str]:
    """Who plays which colour, named as the board draws them (the page's own words,
    ``page.hula.plays``: "first plays blue — you" after a swap), and who moves."""
    out = []
    for s in (0, 1):
        colour = STONE_NAMES[state.colour_of_seat(s)]
        plays = render("page.hula.plays", {"colour": colour, "you": "yes" if seat == s else "no"})
        out.append(f"{GLYPHS[state.colour_of_seat(s)]} {SEATS[s]} {plays}")
    out.append(f"{GLYPHS[2]} neutral   [magenta]⊙[/] centre   (x) last move")
    if state.last is not None:
        out.append(f"last move: {action_name(state.geo, state.last)}")
    if state.winner is not None:
        out.append(f"[bold green]{escape(outcome_text(state))}[/]")
    else:
        mover = state.current_player()
        to_move = msg("game.hula.to_move", seat=SEATS[mover], colour=STONE_NAMES[state.turn])
        out.append(f"{to_move} ({GLYPHS[state.turn]})")
        if state.swap_open:
            out.append("the answer [bold]swap[/] is allowed: take over the first stone and colour")
    return out
