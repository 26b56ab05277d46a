"""What a seat sees (everything: Hotu Matua has no hidden information) and the terminal map."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from gamehall.core.messages import Message, msg
from gamehall.core.phrases import beside, seat
from gamehall.games.hotu_matua.board import Board
from gamehall.games.hotu_matua.notation import END, SHIPS_PER_SEAT, ship_label, split_step
from gamehall.games.hotu_matua.rules import WIN_PEARLS, HotuMatuaState

SEATS = ("north", "south")
SHIP_STYLE = ("bold red", "bold bright_cyan")
CELL = 8


def _board_copy(board: Board) -> dict[str, Any]:
    """A fresh copy of the board file content (a view must not share lists with the engine)."""
    data = board.data
    return {
        **data,
        "fields": [{**f, "polygon": [list(p) for p in f["polygon"]]} for f in data["fields"]],
        "lines": [{"fields": list(x["fields"]), "number": x["number"]} for x in data["lines"]],
        "start": {k: list(v) for k, v in data["start"].items()},
        "pearls": list(data["pearls"]),
    }


def state_view(state: HotuMatuaState, seat: int | None) -> dict[str, Any]:
    """The position for `seat` (None: a spectator) with the board geometry the browser draws."""
    board = state.board
    ids = board.ids
    steps = []
    if not state.over and state.to_roll == 0:
        for action, line in state.steps():
            k, _ = split_step(action)
            here = state.ship_field(state.player, k)
            steps.append({"action": action, "move": state.action_to_string(action),
                          "ship": ship_label(state.player, k), "from": ids[here],
                          "to": ids[board.other_end(line, here)],
                          "number": board.line_number[line]})
    data = state.to_json()
    view = {
        "game": data["game"],
        "options": state.game.shown_options(),  # the board itself follows, once
        "seat": None,
        "board": _board_copy(board),
        "board_digest": board.digest,
        "to_move": data["to_move"],
        "phase": "over" if state.over else ("roll" if state.to_roll else "move"),
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "ships": [{"id": label, "seat": SEATS[label[0] == "S"], "field": field}
                  for label, field in data["ships"].items()],
        "pearls_left": data["pearls"],
        "pearls_owned": data["owned"],
        "dice": {**data["dice"], "passing_on": state.passing_on()},
        "crossed": data["crossed"],
        "legal_moves": [],
        "steps": steps,
        "over": state.over,
        "winner": data["winner"],
        "result": state.returns() if state.over else None,
        **beside("outcome", outcome_message(state) if state.over else None),
    }
    if seat is not None:
        view.update(seat_overlay(state, seat))
    return view


def seat_overlay(state: HotuMatuaState, seat: int) -> dict[str, Any]:
    """What differs between a seat's view and a spectator's: the viewer's seat, and (for the
    seat to move only, as the state message's own list) its legal moves."""
    return {"seat": SEATS[seat],
            "legal_moves": ([text for _, text in state.legal_notation()]
                            if seat == state.current_player() else [])}


# --- terminal -----------------------------------------------------------------------------------

def outcome_message(state: HotuMatuaState) -> Message:
    """Who won and how (three pearls or the turn limit), or the draw, with the pearl count."""
    pearls = {"north": state.owned[0], "south": state.owned[1]}
    if state.winner is None:
        return msg("game.hotu_matua.outcome.draw", **pearls)
    how = "pearls" if state.owned[state.winner] >= WIN_PEARLS else "limit"
    return msg("game.hotu_matua.outcome.win", winner=seat(state.game.seat_names[state.winner]),
               how=how, **pearls)


def outcome_text(state: HotuMatuaState) -> str:
    """`outcome_message` in English (the terminal and the drawings)."""
    return outcome_message(state).text


def render_text(state: HotuMatuaState, seat: int | None) -> str:
    """A text map (fields with ids, numbers on every line) when the board is a grid, a list of
    what matters otherwise; then pearls, dice, each ship's ways out, and the legal moves."""
    board = state.board
    parts = [_grid_map(state) if board.grid is not None else _list_view(state)]
    parts.append(_status(state, seat))
    if not state.over and not state.to_roll:
        parts.append(_ways_out(state))
    return "\n".join(parts)


def render_step(state: HotuMatuaState, seat: int | None) -> str:
    """Between the steps of a turn under way: the status and the ways out, without the map (one
    ship moved since it was drawn; `board` draws it again)."""
    return "\n".join([_status(state, seat), _ways_out(state),
                      "[dim]([bold]board[/] draws the map)[/]"])


def _occupant(state: HotuMatuaState, field: int) -> tuple[str, str]:
    """(text, style) shown in a field: a ship, a pearl, or nothing."""
    if field in state.ships:
        i = state.ships.index(field)
        s = i // SHIPS_PER_SEAT
        return ship_label(s, i % SHIPS_PER_SEAT), SHIP_STYLE[s]
    if field in state.pearls:
        return "(o)", "bold white"
    return "", ""


def _start_mark(board: Board, field: int) -> str:
    if field in board.start[0]:
        return "^n"
    if field in board.start[1]:
        return "^s"
    return ""


def _hot_lines(state: HotuMatuaState) -> set[int]:
    """Lines the mover can cross now: their numbers are highlighted on the map."""
    if state.over or state.to_roll:
        return set()
    return {line for _, line in state.steps()}


def _number(board: Board, line: int | None, hot: set[int]) -> str:
    if line is None:
        return " "
    text = str(board.line_number[line])
    return f"[bold yellow]{text}[/]" if line in hot else f"[dim]{text}[/]"


def _grid_map(state: HotuMatuaState) -> str:
    board = state.board
    assert board.grid is not None
    at = {rc: f for f, rc in enumerate(board.grid)}
    rows = max(r for r, _ in board.grid) + 1
    cols = max(c for _, c in board.grid) + 1
    line_of = {frozenset(p): x for x, p in enumerate(board.line_fields)}
    hot = _hot_lines(state)

    def join(a: tuple[int, int], b: tuple[int, int]) -> int | None:
        if a in at and b in at:
            return line_of.get(frozenset((at[a], at[b])))
        return None

    out = ["  ┌" + "┬".join("─" * CELL for _ in range(cols)) + "┐"]
    for r in range(rows):
        top, low = ["  │"], ["  │"]
        for c in range(cols):
            f = at.get((r, c))
            if f is None:
                top.append(" " * CELL)
                low.append(" " * CELL)
            else:
                fid, mark = board.ids[f], _start_mark(board, f)
                top.append(f" [dim]{escape(fid)}[/]" + " " * (CELL - len(fid) - len(mark) - 2)
                           + (f"[green]{mark}[/]" if mark else "") + " ")
                text, style = _occupant(state, f)
                pad = CELL - len(text)
                body = f"[{style}]{escape(text)}[/]" if text else ""
                low.append(" " * (pad // 2) + body + " " * (pad - pad // 2))
            last = c == cols - 1
            top.append("│" if last else _number(board, join((r, c), (r, c + 1)), hot))
            low.append("│")
        out += ["".join(top), "".join(low)]
        if r < rows - 1:
            seps = []
            for c in range(cols):
                num = _number(board, join((r, c), (r + 1, c)), hot)
                seps.append("─" * (CELL // 2) + num + "─" * (CELL - CELL // 2 - 1))
            out.append("  ├" + "┼".join(seps) + "┤")
    out.append("  └" + "┴".join("─" * CELL for _ in range(cols)) + "┘")
    return "\n".join(out)


def _list_view(state: HotuMatuaState) -> str:
    """For boards without a grid: the fields that hold something, with their lines."""
    board = state.board
    out = ["Board (list view; this board has no grid for a map):"]
    for f in range(board.num_fields):
        text, style = _occupant(state, f)
        mark = _start_mark(board, f)
        if not text and not mark:
            continue
        ways = ", ".join(f"{board.line_number[x]}→{board.ids[board.other_end(x, f)]}"
                         for x in board.sides[f] if x >= 0)
        what = f"[{style}]{escape(text)}[/]" if text else "-"
        out.append(f"  {escape(board.ids[f])} {mark:2} {what:>3}  lines {escape(ways)}")
    return "\n".join(out)


def _status(state: HotuMatuaState, seat: int | None) -> str:
    board = state.board
    limit = state.turn_limit
    names = state.game.seat_names
    lines = []
    pearls = " ".join(board.ids[p] for p in state.pearls) or "none"
    lines.append(f"Pearls: north {state.owned[0]}, south {state.owned[1]} "
                 f"(three win); on the board: {escape(pearls)}")
    if state.over:  # the outcome: the caller's to say (terminal play and replay print it)
        lines.append("[bold]Final position[/]")
        return "\n".join(lines)
    who = names[state.player]
    you = " (you)" if seat == state.player else ""
    lines.append(f"Turn {state.turn + 1} of {limit}: [{SHIP_STYLE[state.player]}]{who}[/]{you} "
                 f"with {5 + state.extra} dice ({state.extra} carried over)")
    rolled = " ".join(map(str, state.rolled)) or "-"
    unused = " ".join(str(v) for v in range(1, 5) for _ in range(state.unused[v])) or "-"
    if state.to_roll:
        lines.append(f"Rolling: {rolled}  ({state.to_roll} still to roll)")
    else:
        lines.append(f"Dice rolled: {rolled}   unused: [bold yellow]{unused}[/]   "
                     f"ending now passes {state.passing_on()} to the opponent")
    return "\n".join(lines)


def _ways_out(state: HotuMatuaState) -> str:
    """Each of the mover's ships: the numbered lines out of its field and where they lead."""
    board = state.board
    out = []
    for k in range(SHIPS_PER_SEAT):
        here = state.ship_field(state.player, k)
        ways = []
        for x in board.sides[here]:
            if x < 0:
                continue
            to = board.other_end(x, here)
            note = ("ship" if to in state.ships else "pearl" if to in state.pearls
                    else "crossed" if x in state.crossed[k] else "")
            ok = not note and state.unused[board.line_number[x]] > 0
            text = f"{board.line_number[x]}→{board.ids[to]}" + (f" ({note})" if note else "")
            ways.append(f"[bold yellow]{escape(text)}[/]" if ok else f"[dim]{escape(text)}[/]")
        label = ship_label(state.player, k)
        out.append(f"  [{SHIP_STYLE[state.player]}]{label}[/] on {board.ids[here]}: "
                   + "  ".join(ways))
    moves = [state.action_to_string(a) for a in state.legal_actions() if a != END]
    out.append("Moves: " + escape(" ".join(moves + ["end"])))
    return "\n".join(out)
