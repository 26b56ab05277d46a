"""What ``gamehall review`` prints: the marked moves, each player's accuracy, a progress bar."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from gamehall.ai.ranks import expected_ranks
from gamehall.ai.review import MOVE, Review, ReviewStep, review_budget, review_record
from gamehall.core import GameRecord

SYMBOLS = {"inaccuracy": ("?!", "yellow"), "mistake": ("?", "dark_orange"),
           "blunder": ("??", "bold red")}
"""How each mark is shown (lichess's symbols)."""


def review_command(console: Console, err: Console, record: GameRecord, level: str, seed: int,
                   as_json: bool, every: bool) -> Review:
    """Review `record` under a progress bar (on `err`, so JSON on stdout stays clean), then
    print the review: JSON, or tables of the moves and of the players."""
    search = review_budget(level, record.game)
    simulations = search.simulations
    columns = (TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(),
               TextColumn("positions"), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("review", total=len(record.actions))
        review = review_record(
            record, simulations=simulations, seed=seed, chance_widening=search.widening,
            rave=search.rave,
            progress=lambda done, total: progress.update(task, completed=done, total=total))
    if as_json:
        console.print_json(json.dumps(review.to_dict()))
        return review
    console.print(moves_table(review, every))
    console.print(players_table(review))
    if not review.finished:
        console.print("[yellow]the game did not end by the rules (resigned or unfinished); its "
                      "moves are reviewed all the same[/]")
    how = f" with RAVE (k = {search.rave:g})" if search.rave is not None else ""
    console.print(f"{simulations} simulations a position{how}, seed {seed}; a mark needs the "
                  "drop in the mover's winning chance, less its uncertainty, to reach 0.1 (?!), "
                  "0.2 (?) or 0.3 (??)")
    return review


def _who(review: Review, seat: int | None) -> str:
    if seat is None:
        return "chance"
    name = review.seats[seat]
    player = review.players[seat] if seat < len(review.players) else ""
    return f"{name} ({player})" if player and player != name else name


def _percent(step: ReviewStep) -> str:
    if step.seat is None:
        return ""
    return f"{step.before[step.seat]:.0%} → {step.after[step.seat]:.0%}"


def _rank(step: ReviewStep) -> str:
    """The mover's expected rank before and after the move (from the same chances)."""
    if step.seat is None:
        return ""
    seat = step.seat
    return f"{expected_ranks(step.before)[seat]:.1f} → {expected_ranks(step.after)[seat]:.1f}"


def moves_table(review: Review, every: bool) -> Table:
    """The marked moves (every action with `every`): mover, move, mark, chance, the bot's move."""
    shown = [s for s in review.steps if every or s.mark is not None]
    title = (f"{review.game}: every move" if every else
             f"{review.game}: {len(shown)} marked move{'' if len(shown) == 1 else 's'}")
    table = Table(title=title)
    ranks = review.ranks()  # 3–4 seats: the mover's expected rank too (gamehall.ai.ranks)
    cols = ("#", "turn", "player", "move", "mark", "mover's chance",
            *(("expected rank",) if ranks is not None else ()), "bot's move")
    for col in cols:
        table.add_column(col, justify="right" if col in ("#", "turn") else "left")
    for s in shown:
        rank = () if ranks is None else (_rank(s),)
        symbol, style = SYMBOLS.get(s.mark or "", ("", ""))
        mark = f"[{style}]{symbol} {s.mark}[/]" if s.mark else (
            "" if s.kind == MOVE and s.sure else s.kind if s.kind != MOVE else "unsure")
        best = s.best if s.best is not None and s.best_action != s.action else ""
        table.add_row(str(s.index + 1), str(s.turn), escape(_who(review, s.seat)),
                      escape(s.move), mark, _percent(s), *rank, escape(best or ""))
    return table


def players_table(review: Review) -> Table:
    """Each seat's accuracy and counts of marks."""
    table = Table(title="accuracy")
    for col in ("player", "accuracy", "inaccuracies ?!", "mistakes ?", "blunders ??"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for seat in range(len(review.seats)):
        acc = review.accuracy[seat]
        marks = review.marks(seat)
        table.add_row(escape(_who(review, seat)), "-" if acc is None else f"{acc:.1f}%",
                      str(marks["inaccuracy"]), str(marks["mistake"]), str(marks["blunder"]))
    return table
