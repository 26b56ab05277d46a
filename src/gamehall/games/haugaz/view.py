"""What players see: the per-seat view (JSON), the terminal board, the outcome line."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gamehall.core.messages import Message, msg
from gamehall.core.phrases import seat
from gamehall.games.haugaz import scoring
from gamehall.games.haugaz.board import (
    BLACK,
    CAKE_BLACK,
    CAKE_WHITE,
    CHOOSE,
    COLOURS,
    WHITE,
)
from gamehall.games.haugaz.explain import explain_illegal
from gamehall.games.haugaz.geometry import column_letter
from gamehall.games.haugaz.jsonform import state_to_json
from gamehall.games.haugaz.rules import HaugazState

_STYLE = {BLACK: "bold cyan", WHITE: "bold yellow"}
_LETTER = {BLACK: "B", WHITE: "W"}


def state_view(state: HaugazState, seat: int | None) -> dict[str, Any]:
    """The whole position (nothing is hidden in Haugaz) plus facts a front end wants."""
    data = state_to_json(state)
    data["over"] = state.over
    data["to_move_seat"] = None if state.over else state.current_player()
    data["heights"] = {COLOURS[c]: state.heights(c) for c in (BLACK, WHITE)}
    data["you"] = None
    data["returns"] = state.returns() if state.over else None
    data["unplayable"] = unplayable(state)
    if seat is not None:
        data.update(seat_overlay(state, seat))
    return data


def unplayable(state: HaugazState) -> dict[str, dict[str, Any]]:
    """The empty points where the white cake stack may not go, each with the rules' reason (too
    near the black one): a click there says why instead of doing nothing. Empty outside the
    white cake placement, where a point is either offered or taken."""
    if state.over or state.phase != CAKE_WHITE:
        return {}
    legal = set(state.legal_actions())
    out: dict[str, dict[str, Any]] = {}
    for point, height in enumerate(state.height):
        action = state.lay.cake_white + point
        if not height and action not in legal:
            why = explain_illegal(state, action)
            out[state.geo.names[point]] = {**why.to_json(), "message": why.text}
    return out


def seat_overlay(state: HaugazState, seat: int) -> dict[str, Any]:
    """What differs between a seat's view and a spectator's: the colour "you" play, once
    sides are chosen."""
    return {"you": None if state.black_seat is None
            else COLOURS[BLACK if state.seat_of(BLACK) == seat else WHITE]}


def player_name(state: HaugazState, colour: int) -> str:
    """``Black (second)``: the colour and, once sides are chosen, the seat playing it."""
    name = COLOURS[colour].capitalize()
    if state.black_seat is None:
        return name
    return f"{name} ({state.game.seat_names[state.seat_of(colour)]})"


def outcome_message(state: HaugazState) -> Message:
    """How the game ended and who won, e.g. ``Black (second) wins — two passes in a row; ...``."""
    if not state.over:
        return msg("game.haugaz.outcome.not_over")
    if state.passes >= 2:
        why = msg("game.haugaz.why.passes")
    else:
        why = msg("game.haugaz.why.stuck", player=player_message(state, state.to_move))
    result = state.result()
    verdict = msg("game.outcome.draw") if result == 0 else \
        msg("game.haugaz.wins", player=player_message(state, BLACK if result > 0 else WHITE))
    return msg("game.haugaz.end", verdict=verdict, why=why, decided=decided_message(state))


def decided_message(state: HaugazState) -> Message:
    """The heights that decided the game, only those (`scoring.deciding`): "the tallest stacks
    alike (5 4), then 4 to 3", the winner's first; a side with no stack left said so."""
    black, white = state.heights(BLACK), state.heights(WHITE)
    decision = scoring.deciding(black, white, str(state.game.options["objective"]))
    alike = " ".join(map(str, decision.alike))
    if decision.kind == "taller":
        return msg("game.haugaz.decided.taller", equal=len(decision.alike), alike=alike,
                   won=decision.won, lost=decision.lost)
    if decision.kind == "same":
        return msg("game.haugaz.decided.same", count=decision.won)
    if decision.kind == "count":
        return msg("game.haugaz.decided.count", won=decision.won, lost=decision.lost)
    loser = player_message(state, WHITE if len(black) > len(white) else BLACK)
    if not decision.alike:
        return msg("game.haugaz.decided.none", loser=loser)
    return msg("game.haugaz.decided.more", loser=loser, alike=alike, won=decision.won,
               lost=decision.lost)


def player_message(state: HaugazState, colour: int) -> Message:
    """`player_name` as a message: the colour in the reader's language, the seat as a seat."""
    if state.black_seat is None:
        return msg("game.haugaz.colour", colour=COLOURS[colour])
    return msg("game.haugaz.colour_seat", colour=COLOURS[colour],
               seat=seat(state.game.seat_names[state.seat_of(colour)]))


def outcome_text(state: HaugazState) -> str:
    """`outcome_message` in English (the terminal)."""
    return outcome_message(state).text


def _stacks(count: int) -> str:
    return f"{count} stack{'' if count == 1 else 's'}"


def _status(state: HaugazState) -> str:
    geo = state.geo
    if state.over:
        return "[bold]Final position[/]"  # the outcome: the caller's to say
    if state.phase == CAKE_BLACK:
        return "first places the black cake stack (e.g. [bold]black d4[/])"
    if state.phase == CAKE_WHITE:
        far = state.game.options["cake_distance"]
        black = geo.names[state.cake_black_point()]
        return (f"first places the white cake stack at least {far} points from {black} "
                "(e.g. [bold]white g7[/])")
    if state.phase == CHOOSE:
        return "second chooses a side: [bold]play black[/] or [bold]play white[/]"
    who = escape(player_name(state, state.to_move))
    example = state.action_to_string(state.legal_actions()[0])
    if state.placed >= 0:
        return f"{who} placed on {geo.names[state.placed]}: now move a stack (e.g. {example})"
    if not state.opened[state.to_move]:
        return f"{who} to move: first turn, place a stack alone (e.g. {example}), or pass"
    passed = " — the opponent just passed" if state.passes else ""
    if example == "pass":
        return f"{who} to move{passed}"
    return (f"{who} to move: place (e.g. {example}), then move a stack of yours; "
            f"or pass{passed}")


def _cell(state: HaugazState, p: int) -> str:
    h = state.height[p]
    if not h:
        return "[dim]·[/]   "
    owner = state.owner[p]
    text = f"{_LETTER[owner]}{h}"
    mark = "*" if p == state.placed else " "
    return f"[{_STYLE[owner]}]{text}[/]{mark}" + " " * (3 - len(text))


def render_text(state: HaugazState, seat: int | None) -> str:
    """The board as Rich markup: each stack as owner letter + height (B3 = Black owns a stack of
    three), the stack placed this turn marked *, then each side's heights, and the pieces of any
    stack whose colours do not simply alternate."""
    geo = state.geo
    size = geo.size
    opts = state.game.options
    head = "    " + "".join(f"{column_letter(c):<4}" for c in range(size))
    lines = [f"[bold]Haugaz[/] {size}x{size}, cake {'on' if opts['cake'] else 'off'}"
             + (f" — you play {escape(player_name(state, _seat_colour(state, seat)))}"
                if seat is not None and state.black_seat is not None else ""),
             _status(state), head]
    for row in range(size - 1, -1, -1):
        cells = "".join(_cell(state, row * size + c) for c in range(size))
        lines.append(f"{row + 1:>2}  {cells}{row + 1}")
    lines.append(head)
    for c in (BLACK, WHITE):
        hs = state.heights(c)
        lines.append(f"[{_STYLE[c]}]{_LETTER[c]}[/] {escape(player_name(state, c))}: "
                     f"{_stacks(len(hs))}, heights {' '.join(map(str, hs)) or '-'}")
    mixed = [f"{geo.names[p]} " + "".join("BW"[x] for x in state.stack_colours(p))
             for p in range(len(geo.names)) if not _alternates(state.stack_colours(p))]
    if mixed:
        lines.append("stacks not alternating, bottom to top: " + ", ".join(mixed))
    return "\n".join(lines)


def _alternates(colours: list[int]) -> bool:
    """True when the colours alternate (always so with grow_colour=flip): then the owner and
    the height say it all."""
    return all(a != b for a, b in zip(colours, colours[1:], strict=False))


def _seat_colour(state: HaugazState, seat: int | None) -> int:
    return BLACK if state.seat_of(BLACK) == seat else WHITE
