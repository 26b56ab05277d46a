"""What a seat (or a spectator) sees of a Halali! position, and the terminal board.

Halali! has no secrets between the players: what nobody may know is the identity of face-down
tiles, and the state does not hold it. A view is therefore the public JSON form plus derived
facts (scores, phase, seats, legal moves for the seat to move).
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gamehall.core.messages import Message, msg
from gamehall.core.phrases import beside
from gamehall.games.halali.jsonform import state_to_json
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import (
    BEASTS,
    EMPTY,
    GREEN_MOVABLE,
    HIDDEN,
    HUMANS,
    OWN,
    SIDE_NAMES,
    SIZE,
    TOKENS,
    square,
    square_name,
)


def phase(state: HalaliState) -> str:
    """over, flip (a tile is being turned: chance decides), end (the end phase) or play."""
    if state.over:
        return "over"
    if state.pending is not None:
        return "flip"
    return "end" if state.end_left is not None else "play"


def state_view(state: HalaliState, seat: int | None) -> dict[str, Any]:
    """The public position plus derived facts; `legal_moves` only for the seat to move."""
    data = state_to_json(state)
    scores, taken = state.totals()
    to_move = None if state.over else state.to_move
    data.update({
        "seat": None,
        "side": None,
        "seats": {name: state.seat_of(s) for s, name in enumerate(SIDE_NAMES)},
        "to_move_seat": to_move,
        "phase": phase(state),
        "face_down": state.hidden,
        "scores": {name: state.score(s) for s, name in enumerate(SIDE_NAMES)},
        "tiles_taken": {name: state.taken(s) for s, name in enumerate(SIDE_NAMES)},
        "seat_totals": {"scores": scores, "taken": taken},
        "legal_moves": [],
        "result": ({"returns": state.returns(), **beside("outcome", outcome_message(state))}
                   if state.over else None),
    })
    if seat is not None:
        data.update(seat_overlay(state, seat))
    return data


def seat_overlay(state: HalaliState, seat: int) -> dict[str, Any]:
    """What differs between a seat's view and a spectator's: the seat, its side, and (for the
    seat to move) its legal moves. Nothing hidden differs: face-down tiles are hidden from
    every seat alike."""
    return {"seat": seat, "side": SIDE_NAMES[state.side_of_seat(seat)],
            "legal_moves": ([text for _, text in state.legal_notation()]
                            if seat == state.current_player() else [])}


# --- terminal ----------------------------------------------------------------------------------
STYLE = {HUMANS: "bold dark_orange3", BEASTS: "bold dodger_blue1"}
GREEN_STYLE = "bold green3"
TREE_STYLE = "green4"
HIDDEN_CELL = "[grey42]░░[/]"
EMPTY_CELL = "[grey35]· [/]"


def outcome_message(state: HalaliState) -> Message:
    """Who won the game (or the match), by points, else by tiles taken."""
    scores, taken = state.totals()
    r = state.returns()
    if r[0] == r[1]:
        return msg("game.halali.outcome.draw", a=scores[0], b=scores[1], taken=taken[0])
    w = 0 if r[0] > r[1] else 1
    winner = (msg("game.halali.match_seat", seat=w, side=SIDE_NAMES[w]) if state.match
              else msg("game.halali.side", side=SIDE_NAMES[w]))
    match = "yes" if state.match else "no"
    if scores[0] != scores[1]:
        return msg("game.halali.outcome.points", winner=winner, match=match, a=scores[w],
                   b=scores[1 - w])  # the winner's points first, as people say a result
    return msg("game.halali.outcome.tiles", winner=winner, match=match, won=taken[w],
               lost=taken[1 - w], points=scores[0])


def outcome_text(state: HalaliState) -> str:
    """`outcome_message` in English (the terminal and the drawings)."""
    return outcome_message(state).text


def tile_markup(code: int, width: int = 0) -> str:
    """A face-up tile's token in its side's colour, padded to `width` characters."""
    if code in OWN[HUMANS]:
        style = STYLE[HUMANS]
    elif code in OWN[BEASTS]:
        style = STYLE[BEASTS]
    else:
        style = GREEN_STYLE if code in GREEN_MOVABLE else TREE_STYLE
    return f"[{style}]{escape(TOKENS[code].ljust(width))}[/]"


def cell(code: int) -> str:
    """One square as two characters of Rich markup."""
    if code == HIDDEN:
        return HIDDEN_CELL
    if code == EMPTY:
        return EMPTY_CELL
    return tile_markup(code, 2)


def _tile_list(codes: list[int]) -> str:
    return " ".join(tile_markup(c) for c in codes) or "—"


def _board_lines(state: HalaliState) -> list[str]:
    exits_open = state.end_left is not None and not state.over
    mark = "bold yellow" if exits_open else "grey50"
    files = "     " + "  ".join("abcdefg")
    top = " " * 14 + f"[{mark}]▲[/]"
    bottom = " " * 14 + f"[{mark}]▼[/]"
    lines = [files, top]
    for r in range(SIZE - 1, -1, -1):
        cells = " ".join(cell(state.board[square(f, r)]) for f in range(SIZE))
        left = f"[{mark}]◀[/]" if r == 3 else " "
        right = f"[{mark}]▶[/]" if r == 3 else " "
        lines.append(f" {r + 1} {left} {cells} {right} {r + 1}")
    lines += [bottom, files]
    return lines


def _status_lines(state: HalaliState, seat: int | None) -> list[str]:
    lines = []
    match = f" · game {state.game_no + 1} of 2" if state.match else ""
    if state.over:
        head = f"[bold]game over[/] — {escape(state.outcome_text())}"
    elif state.pending is not None:
        head = f"flipping the tile on {escape(square_name(state.pending))}…"
    else:
        side = SIDE_NAMES[state.side_to_move]
        you = " (you)" if seat is not None and seat == state.to_move else ""
        head = f"[{STYLE[state.side_to_move]}]{side}[/]{you} to move"
    turn = f"{state.turns} turns" if state.over else f"turn {state.turns + 1}"
    lines.append(f"[bold]Halali![/]{match} · {turn} · {head}")
    for s, name in enumerate(SIDE_NAMES):
        who = " (you)" if seat is not None and state.side_of_seat(seat) == s else ""
        seat_no = state.seat_of(s)
        seat_name = f" ({state.game.seat_names[seat_no]})" if state.match else ""
        lines.append(
            f"  [{STYLE[s]}]{name}[/]{who} seat {seat_no}{seat_name}: "
            f"[bold]{state.score(s)}[/] points, "
            f"{state.taken(s)} tiles · took {_tile_list(state.captured[s])}"
            f" · out {_tile_list(state.exited[s])}")
    if state.first_game is not None:
        scores, taken = state.totals()
        lines.append(f"  match totals: seat 0 {scores[0]} ({taken[0]} tiles), "
                     f"seat 1 {scores[1]} ({taken[1]} tiles)")
    if state.end_left is not None and not state.over:
        turns = f"{state.end_left} turn{'' if state.end_left == 1 else 's'} left"
        lines.append(f"  [bold yellow]end phase: {turns}[/] — "
                     "your own tiles may leave through the exits ▲▼◀▶")
    else:
        lines.append(f"  face down: {state.hidden}")
    if state.last_turn:
        lines.append(f"  last: {escape(state.last_turn)}")
    return lines


LEGEND = ("  beasts [dodger_blue1]B[/] bear [dodger_blue1]F[/] fox · humans [dark_orange3]L[/] "
          "lumberjack [dark_orange3]H^ H> Hv H<[/] hunter, rifle pointing ^ > v <\n"
          "  [green3]P[/] pheasant [green3]D[/] duck [green4]T[/] tree · [grey42]░░[/] face down"
          " · ▲▼◀▶ exits (open in the end phase)")


def render_text(state: HalaliState, seat: int | None) -> str:
    """The board with exits, scores, taken tiles, the end-phase counter and the last turn."""
    return "\n".join(_status_lines(state, seat) + _board_lines(state) + [LEGEND])
