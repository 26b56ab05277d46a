"""Terminal play: people at one keyboard and bots, with a readable board and forgiving input.

The whole board is drawn when a person's turn starts. Between two steps of one person's
multi-step turn (several actions in a row by the same seat, nothing else in between), a game
that offers `render_step` (the `gamehall.core.StepRenderer` ability) shows a compact status
instead; other games redraw the whole board as before. Consecutive chance outcomes are printed
on one line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from gamehall.ai import Bot
from gamehall.core import Game, GamehallError, GameRecord, NotationError, State, StepRenderer

HELP = (
    "Type a move in the game's notation. Other commands: [bold]moves[/] lists the legal moves, "
    "[bold]board[/] redraws the board, [bold]help[/] shows this, [bold]quit[/] ends the game."
)


@dataclass
class _Chance:
    """Chance outcomes not printed yet (printed together on one line)."""

    console: Console
    texts: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.texts.append(text)

    def flush(self) -> None:
        if self.texts:
            self.console.print("  chance: [cyan]" + escape(" · ".join(self.texts)) + "[/]")
            self.texts = []


@dataclass
class Seat:
    """Who sits in a seat: a person (bot is None) or a bot."""

    label: str
    bot: Bot | None = None


def play_game(
    game: Game,
    seats: Sequence[Seat],
    console: Console,
    seed: int | None = None,
    record_path: Path | None = None,
    ask: Callable[[str], str] | None = None,
) -> State:
    """Play one game to the end (or until a person quits); return the final state."""
    state = game.new_initial_state(seed)
    ask = ask or (lambda prompt: console.input(prompt))
    humans = [i for i, s in enumerate(seats) if s.bot is None]
    viewer = humans[0] if len(humans) == 1 else None
    console.print(f"[bold]{escape(game.title)}[/] — " + ", ".join(
        f"{escape(game.seat_names[i])}: {escape(s.label)}" for i, s in enumerate(seats)))
    console.print(HELP)
    shown_board = True
    _show(console, game, state, viewer)
    chance = _Chance(console)
    continuing: int | None = None
    """The seat whose own action was the last one (its turn may go on), else None."""
    try:
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                action = state.sample_chance()
                chance.add(state.action_to_string(action))
                state.apply_action(action)
                shown_board, continuing = False, None
                continue
            chance.flush()
            seat = seats[player]
            if seat.bot is not None:
                action = seat.bot.choose(state)
                console.print(f"  {escape(game.seat_names[player])} ({escape(seat.label)}) plays "
                              f"[bold]{escape(state.action_to_string(action))}[/]")
                state.apply_action(action)
                shown_board, continuing = False, None
                continue
            if not shown_board:
                who = viewer if viewer is not None else player
                if continuing != player or not _show_step(console, game, state, who):
                    _show(console, game, state, who)
                shown_board = True
            chosen = _ask_move(console, state, game.seat_names[player], ask)
            if chosen is None:
                console.print("[yellow]Game abandoned.[/]")
                return state
            for action in chosen:
                state.apply_action(action)
            shown_board, continuing = False, player
    finally:
        chance.flush()
        if record_path is not None:
            _save(console, state, [s.label for s in seats], seed, record_path)
    _show(console, game, state, viewer)
    console.print(f"[bold green]Game over:[/] {escape(state.outcome_text())}  "
                  f"(returns {state.returns()})")
    return state


def _show(console: Console, game: Game, state: State, seat: int | None) -> None:
    console.print(game.render_text(state, seat))


def read_turn(state: State, text: str) -> list[int]:
    """Read one move, or several steps of the same seat's turn on one line (``d4 c3-c5``).

    The whole line is tried as one move first; otherwise it is split at spaces into steps that
    must each be legal in turn and keep the same seat to move between them.
    """
    try:
        return [state.string_to_action(text)]
    except NotationError as whole:
        tokens = text.split()
        for k in range(1, len(tokens)):
            try:
                first = state.string_to_action(" ".join(tokens[:k]))
            except NotationError:
                continue
            probe = state.clone()
            probe.apply_action(first)
            if probe.current_player() != state.current_player():
                continue
            try:
                return [first, *read_turn(probe, " ".join(tokens[k:]))]
            except NotationError:
                continue
        raise whole


def _show_step(console: Console, game: Game, state: State, seat: int | None) -> bool:
    """Print the game's compact status for a turn under way; False if it offers none."""
    if not isinstance(game, StepRenderer):
        return False
    text = game.render_step(state, seat)
    if text is None:
        return False
    console.print(text)
    return True


def _ask_move(console: Console, state: State, seat_name: str,
              ask: Callable[[str], str]) -> list[int] | None:
    """Prompt until a legal move is typed; None when the person quits or input ends."""
    while True:
        try:
            text = ask(f"{seat_name} to move> ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        lower = text.lower()
        if lower in ("quit", "exit", "q"):
            return None
        if lower in ("help", "h", "?"):
            console.print(HELP)
            continue
        if lower in ("moves", "m", "legal"):
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            console.print(escape(" ".join(moves)))
            continue
        if lower == "board":
            console.print(state.game.render_text(state, state.current_player()))
            continue
        try:
            return read_turn(state, text)
        except GamehallError as exc:
            console.print(f"[red]{escape(str(exc))}[/] — type [bold]moves[/] for the legal moves.")


def _save(console: Console, state: State, players: list[str], seed: int | None,
          path: Path) -> None:
    record = GameRecord.from_state(state, players=players, seed=seed)
    path.write_text(json.dumps(record.to_dict(), indent=1) + "\n")
    console.print(f"Record saved to {escape(str(path))}")
