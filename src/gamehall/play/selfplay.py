"""Self-play tournaments: bots play many seeded games with rotating seats, in one or N processes.

Game `i` of a tournament is fully determined by (game, options, bots, seed, i): the seating, the
game's chance seed and every bot's seed derive from them, so results do not depend on `--jobs`
(bots with a time budget are the exception: they depend on the machine's speed and load).

Two ways to spend less on a pairing, as engine testers do: a sequential test (`--sprt`,
`gamehall.play.sprt`) judges the games in index order and stops as soon as it decides, and
adjudication (`--adjudicate`) ends a 2-player game between two searching bots once both
searches agree who wins (`Adjudication`), counted as that win.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from gamehall.ai import MCTSBot, make_bot
from gamehall.ai.bot import Bot
from gamehall.core import CHANCE, Game, GamehallError, GameRecord, OptionValue, load_game
from gamehall.play.ratings import Standings, elo_from_score
from gamehall.play.sprt import H0, H1, SPRT


@dataclass(frozen=True)
class Adjudication:
    """End a 2-player game early once both searches agree it is decided: the last `moves`
    searches of one seat all value its position at `value` or more (scaled 0..1, the root's
    most visited move) and the other seat's last `moves` all at 1 − `value` or less."""

    value: float = 0.9
    moves: int = 3

    def __post_init__(self) -> None:
        if not 0.5 < self.value <= 1.0:
            raise GamehallError("--adjudicate-value must be above 0.5 and at most 1")
        if self.moves < 1:
            raise GamehallError("--adjudicate-moves must be at least 1")


@dataclass(frozen=True)
class Tournament:
    """What to play: a game with options, bot specs, how many games, and the master seed."""

    game: str
    options: dict[str, OptionValue]
    bots: tuple[str, ...]
    games: int
    seed: int
    keep_records: bool = False
    adjudication: Adjudication | None = None

    def labels(self) -> list[str]:
        """Bot names for tables; a spec listed twice gets ``#2``."""
        seen: dict[str, int] = {}
        out = []
        for spec in self.bots:
            seen[spec] = seen.get(spec, 0) + 1
            out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return out


@dataclass
class GameResult:
    """One finished game: who sat where, the returns, and how long the bots thought."""

    index: int
    seat_bots: list[int]
    returns: list[float]
    moves: int
    seconds: float
    think_total: list[float] = field(default_factory=list)
    think_moves: list[int] = field(default_factory=list)
    think_max: list[float] = field(default_factory=list)
    record: dict[str, Any] | None = None
    adjudicated: bool = False
    think_cpu: list[float] = field(default_factory=list)
    """CPU seconds (`time.process_time`) each seat spent choosing: what an equal-CPU pairing
    (``uct:cpuX``) is checked by."""
    think_searched: list[int] = field(default_factory=list)
    """Each seat's moves with more than one legal action (the ones a search thinks on)."""
    """Ended early by `Adjudication`, `returns` being the win it was counted as."""


class Judge:
    """Watches both searches' root values and names the winner they agree on (`Adjudication`)."""

    def __init__(self, rule: Adjudication, seats: int) -> None:
        self.rule = rule
        self.values: list[deque[float]] = [deque(maxlen=rule.moves) for _ in range(seats)]
        self.off = False

    def see(self, seat: int, bot: Bot) -> int | None:
        """Note `seat`'s search just made; the agreed winner, or None. A search with ordered
        widening (``+order``) turns the judge off for the game: its root value is a turn's best
        continuation, not a winning chance, and adjudicating on it once handed Hau La games to
        the side whose search said so (without adjudication that side lost them all)."""
        if getattr(bot, "ordering", None) is not None:
            self.off = True
        if self.off:
            return None
        value = bot.root_value() if isinstance(bot, MCTSBot) else None
        if value is None:
            return None
        self.values[seat].append(value)
        full = [v for v in self.values if len(v) == self.rule.moves]
        if len(full) < len(self.values):
            return None
        high, low = self.rule.value, 1.0 - self.rule.value
        winners = [s for s, v in enumerate(self.values) if min(v) >= high]
        if len(winners) == 1 and all(max(v) <= low for s, v in enumerate(self.values)
                                     if s != winners[0]):
            return winners[0]
        return None


def seating(index: int, bots: int, seats: int) -> list[int]:
    """Bot index per seat in game `index`: every ordering in turn (or a rotation if too few)."""
    if bots >= seats:
        orders = list(itertools.permutations(range(bots), seats))
        return list(orders[index % len(orders)])
    return [(seat + index) % bots for seat in range(seats)]


def derived_seed(seed: int, *parts: object) -> int:
    """A seed for one game or bot, stable across processes and Python runs."""
    return random.Random("/".join(str(p) for p in (seed, *parts))).randrange(2**31)


def play_one(tour: Tournament, index: int) -> GameResult:
    """Play game `index` of the tournament to the end."""
    game = load_game(tour.game, **tour.options)
    order = seating(index, len(tour.bots), game.num_players)
    bots = [make_bot(tour.bots[b], derived_seed(tour.seed, index, "seat", s))
            for s, b in enumerate(order)]
    game_seed = derived_seed(tour.seed, index, "game")
    state = game.new_initial_state(game_seed)
    n = game.num_players
    total, count, longest, cpu = [0.0] * n, [0] * n, [0.0] * n, [0.0] * n
    searched = [0] * n
    start = time.perf_counter()
    moves = 0
    judge = (Judge(tour.adjudication, n) if tour.adjudication is not None and n == 2
             and all(isinstance(b, MCTSBot) for b in bots) else None)
    winner: int | None = None
    while not state.is_terminal() and winner is None:
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance()
        else:
            searched[player] += len(state.legal_actions()) > 1
            t0, c0 = time.perf_counter(), time.process_time()
            action = bots[player].choose(state)
            spent = time.perf_counter() - t0
            cpu[player] += time.process_time() - c0
            total[player] += spent
            count[player] += 1
            longest[player] = max(longest[player], spent)
            if judge is not None:
                winner = judge.see(player, bots[player])
        state.apply_action(action)
        moves += 1
        if moves > game.max_game_length:
            raise GamehallError(f"game {index} ran past max_game_length")
    labels = tour.labels()
    record = None
    if tour.keep_records:
        record = GameRecord.from_state(state, players=[labels[b] for b in order],
                                       seed=game_seed).to_dict()
    if state.is_terminal():  # the move the searches agreed on ended the game: its own result
        winner = None
    returns = state.returns() if winner is None else [
        game.max_utility if s == winner else game.min_utility for s in range(n)]
    return GameResult(index, order, returns, moves, time.perf_counter() - start,
                      total, count, longest, record, winner is not None, cpu, searched)


def run_tournament(tour: Tournament, jobs: int = 1,
                   on_result: Callable[[GameResult], None] | None = None,
                   stop: Callable[[list[GameResult]], bool] | None = None) -> list[GameResult]:
    """Play every game, in this process or in `jobs` worker processes; results by index.

    With `stop`, the games are judged in index order: each time the run of finished games from
    game 0 grows, `stop(those games)` may end the tournament there. Games finished past that
    point are dropped, so what is returned does not depend on `jobs`."""
    done: dict[int, GameResult] = {}
    prefix: list[GameResult] = []

    def finished(result: GameResult) -> bool:
        done[result.index] = result
        if on_result:
            on_result(result)
        while len(prefix) in done:
            prefix.append(done[len(prefix)])
            if stop is not None and stop(prefix):
                return True
        return False

    if jobs <= 1:
        for i in range(tour.games):
            if finished(play_one(tour, i)):
                return prefix
        return prefix
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        upcoming = iter(range(tour.games))
        running: set[Future[GameResult]] = {
            pool.submit(play_one, tour, i) for i in itertools.islice(upcoming, jobs)}
        while running:
            ready, running = wait(running, return_when=FIRST_COMPLETED)
            for future in ready:
                if finished(future.result()):
                    for other in running:
                        other.cancel()
                    return prefix
                following = next(upcoming, None)
                if following is not None:
                    running.add(pool.submit(play_one, tour, following))
    return prefix


def sprt_counts(results: Sequence[GameResult], first: int = 0) -> tuple[int, int, int]:
    """Wins, draws and losses of bot `first` against the other bot, game by game (a game's
    pairwise score over the seats each held: above ½ a win, ½ a draw, below a loss)."""
    wins = draws = losses = 0
    for r in results:
        scores = [1.0 if r.returns[i] > r.returns[j] else 0.5 if r.returns[i] == r.returns[j]
                  else 0.0 for i, bi in enumerate(r.seat_bots) for j, bj in enumerate(r.seat_bots)
                  if bi == first and bj != first]
        if not scores:
            continue
        mean = sum(scores) / len(scores)
        if mean > 0.5:
            wins += 1
        elif mean < 0.5:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def sprt_line(test: SPRT, tour: Tournament, results: Sequence[GameResult]) -> str:
    """The test's state after `results`: LLR, its bounds, games, and the verdict."""
    wins, draws, losses = sprt_counts(results)
    llr = test.llr(wins, draws, losses)
    verdict = test.verdict(wins, draws, losses)
    first = tour.labels()[0]
    if verdict == H1:
        said = f"H1 accepted: {first} scores {test.s1:g} or more"
    elif verdict == H0:
        said = f"H0 accepted: {first} scores {test.s0:g} or less"
    else:
        said = f"no decision (stopped at {len(results)} of --games {tour.games})"
    return (f"SPRT {test.s0:g},{test.s1:g} (α {test.alpha:g}, β {test.beta:g}): "
            f"LLR {llr:+.2f}, bounds [{test.lower:.2f}, {test.upper:.2f}], "
            f"{len(results)} games ({wins}-{draws}-{losses}): {said}")


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def standings(tour: Tournament, game: Game, results: Sequence[GameResult]) -> Standings:
    table = Standings(tour.labels(), lo=game.min_utility, hi=game.max_utility)
    for r in results:
        table.add_game(r.seat_bots, r.returns)
    return table


class RateColumn(ProgressColumn):
    """Games per minute (or seconds per game when slower than one a minute)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text("-- games/min", style="progress.data.speed")
        if speed * 60 >= 1:
            return Text(f"{speed * 60:.1f} games/min", style="progress.data.speed")
        return Text(f"{1 / speed:.0f} s/game", style="progress.data.speed")


def run_with_progress(tour: Tournament, jobs: int, console: Console,
                      records: Path | None = None,
                      stop: Callable[[list[GameResult]], bool] | None = None
                      ) -> list[GameResult]:
    """Run the tournament under a Rich progress bar, saving records as games finish."""
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), RateColumn(), TimeElapsedColumn(), TextColumn("left"),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(escape(f"{tour.game} {' vs '.join(tour.bots)}"),
                                 total=tour.games)

        def done(result: GameResult) -> None:
            if records is not None and result.record is not None:
                path = records / f"{tour.game}-{result.index + 1:04d}.json"
                path.write_text(json.dumps(result.record, indent=1) + "\n")
            progress.advance(task)

        return run_tournament(tour, jobs, done, stop)


def results_table(tour: Tournament, game: Game, results: Sequence[GameResult],
                  caption: str | None = None) -> Table:
    """Per bot: wins-draws-losses, win rate, score and Elo with 95% CIs, thinking time per move;
    `caption` under it (the sequential test's line).

    Elo's interval (2 bots only) maps the pairwise score's Wilson interval through the Elo curve.
    """
    st = standings(tour, game, results)
    labels = tour.labels()
    anchor = next((i for i, spec in enumerate(tour.bots) if spec == "random"),
                  len(tour.bots) - 1)
    elo = st.elo(anchor)
    opts = " ".join(f"{k}={v}" for k, v in game.options.items())
    table = Table(title=f"{game.title}{' ' + opts if opts else ''}: {len(results)} games, "
                        f"seed {tour.seed}", caption=escape(caption) if caption else None)
    for col in ("bot", "games", "W-D-L", "win %", "score (95% CI)", "Elo (95% CI)", "s/move",
                "max s"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, tally in enumerate(st.tallies):
        low, high = tally.interval()
        mine = [(r, s) for r in results for s, b in enumerate(r.seat_bots) if b == i]
        think = sum(r.think_total[s] for r, s in mine)
        moves = sum(r.think_moves[s] for r, s in mine)
        longest = max((r.think_max[s] for r, s in mine), default=0.0)
        table.add_row(
            escape(labels[i]), str(tally.seat_games),
            f"{tally.wins}-{tally.draws}-{tally.losses}", f"{tally.win_rate:.1%}",
            f"{tally.score:.3f} ({low:.2f}–{high:.2f})", f"{elo[i]:+.0f}{_elo_interval(st, i)}",
            f"{think / moves:.3f}" if moves else "-", f"{longest:.2f}")
    return table


def _elo_interval(st: Standings, bot: int) -> str:
    """Elo CI against the only opponent, from the score's Wilson interval (2 bots only)."""
    if len(st.labels) != 2:
        return ""
    pair = st.pair_interval(bot, 1 - bot)
    if pair is None:
        return ""
    low, _, high = pair
    return f" ({_fmt_elo(elo_from_score(low))}…{_fmt_elo(elo_from_score(high))})"


def _fmt_elo(value: float) -> str:
    if value == float("inf"):
        return "+∞"
    if value == float("-inf"):
        return "−∞"
    return f"{value:+.0f}"


def selfplay_command(console: Console, game: Game, bots: Sequence[str], games: int, seed: int,
                     jobs: int, records: Path | None, sprt: SPRT | None = None,
                     adjudication: Adjudication | None = None) -> list[GameResult]:
    """What ``gamehall selfplay`` does: validate, run with progress, print the table."""
    if games < 1:
        raise GamehallError("--games must be at least 1")
    if jobs < 1:
        raise GamehallError("--jobs must be at least 1")
    if not bots:
        raise GamehallError("--bots needs at least one bot, e.g. mcts:hard,random")
    if sprt is not None and len(bots) != 2:
        raise GamehallError("--sprt tests one pairing: give exactly two bots")
    for spec in bots:
        make_bot(spec)  # fail early on a bad spec
    tour = Tournament(game.name, dict(game.options), tuple(bots), games, seed,
                      keep_records=records is not None, adjudication=adjudication)

    def decided(prefix: list[GameResult]) -> bool:
        assert sprt is not None
        return sprt.verdict(*sprt_counts(prefix)) is not None

    start, cpu = time.perf_counter(), cpu_seconds()
    results = run_with_progress(tour, jobs, console, records,
                                decided if sprt is not None else None)
    caption = sprt_line(sprt, tour, results) if sprt is not None else None
    console.print(results_table(tour, game, results, caption))
    moves = sum(r.moves for r in results) / len(results)
    adjudicated = sum(r.adjudicated for r in results)
    console.print(f"{len(results)} games in {time.perf_counter() - start:.1f} s with {jobs} "
                  f"process{'es' if jobs > 1 else ''} ({cpu_seconds() - cpu:.0f} CPU s); "
                  f"{moves:.1f} actions per game on average"
                  + (f"; {adjudicated} adjudicated" if adjudication is not None else "") + ". "
                  "Score: win 1, draw ½ (returns scaled to 0..1); Elo from pairwise results with "
                  "one virtual draw per pair; " + ("`random`" if "random" in bots else
                                                    escape(tour.labels()[-1])) + " is 0.")
    if records is not None:
        console.print(f"records saved in {escape(str(records))}")
    return results
