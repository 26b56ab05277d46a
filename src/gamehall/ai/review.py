"""Review of a game record with the bots' eyes: winning chances, marks, accuracy (issue 30).

`review_record(record, simulations=..., seed=..., progress=...)` is a pure function of the
record and its arguments, so a bot worker can run it in the background (one record, a budget of
simulations per position, a progress callback) and a server store what it returns (`to_dict`).

- Every position where a seat chooses among two or more moves is searched afresh by `MCTSBot`
  with exactly `simulations` simulations, no time cap and no tree reuse, seeded from the review's
  seed and the position's index: the same record and seed give the same review on any machine,
  and a position's figures do not depend on which others are reviewed (`positions`).
- The search tracks each root child's mean return for every seat (`track_root_returns`). The
  chances *before* a move are the root's value (the mean over all its simulations, which UCT
  spends mostly on the best moves; exact where the solver proved the root); *after*, the move
  played's child in the same search. Where the search hardly tried the move played (fewer than
  `visit_floor` visits, not proven — UCT spends little on what it thinks bad, and none at all
  once the solver proves the root), the position after it is searched too and its value stands
  in: the next position's own search (it is seeded by its index), or a search from the roll or
  flip that follows, as MCTS can search from a chance node. (The best child's mean, not the
  root's, would be the maximum of noisy means — biased up in wide positions, so every move
  would seem to drop.)
- A drop is marked only where the search is sure: both estimates proven or at least
  `visit_floor` visits, and the mark is taken from the lower confidence bound of the drop,
  drop − 0.5·sqrt(1/n_before + 1/n_after) (0.5 bounds the standard deviation of a 0..1 return;
  a proven value has no uncertainty). Move accuracy uses the same bound, so a move is held
  against a player only as far as the search is sure of it.
- Chance steps (dice, flips) are nobody's choice and forced steps (one legal move) none either:
  they are never marked and do not count in the accuracy; they are not searched (their chances
  are carried from their neighbours for the graph).
- Hidden information: the record is the whole game and the search sees the replayed positions.
  In the five games that gives the bot nothing the mover lacked — no state holds a secret
  (Halali!'s face-down tiles and Hotu Matua's dice are chance drawn when they happen). A game
  with secret state would be reviewed as if open; no such game is installed.
- The record may be unfinished (a resigned game): its moves are reviewed all the same. Whether
  a review may run at all — never for a game still being played — is the caller's to decide.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from gamehall.ai import rave as amaf
from gamehall.ai.accuracy import game_accuracy, mark, move_accuracy, volatility_weights
from gamehall.ai.levels import (
    WIDENING,
    Extras,
    level_rave,
    level_simulations,
    parse_level,
    split_level,
)
from gamehall.ai.mcts import ChildReturns, MCTSBot
from gamehall.ai.ranks import RANKED_SEATS, expected_ranks
from gamehall.core import CHANCE, GamehallError, GameRecord, State

DEFAULT_SIMULATIONS = 1000
"""The default budget per position: `medium`'s simulations."""
VISIT_FLOOR = 10
"""Fewer visits than this behind an estimate (and no proof): no mark."""
MOVE, FORCED, CHANCE_STEP = "move", "forced", "chance"
REVIEW_FORMAT = "gamehall-review/1"
"""The `format` of `Review.to_dict`'s JSON (the hall stores it; protocol.md describes it)."""

Progress = Callable[[int, int], None]
"""Called as progress(positions_done, positions_total) after each step of the record."""


@dataclass(frozen=True)
class Estimate:
    """A seat-indexed winning chance (0..1) and how sure it is: `visits` behind it, or exact."""

    chances: tuple[float, ...]
    visits: int
    exact: bool

    def variance(self) -> float:
        """(0.5/sqrt(visits))², a bound on the mean's variance; 0 exact, inf unvisited."""
        if self.exact:
            return 0.0
        return math.inf if self.visits == 0 else 0.25 / self.visits

    def sure(self, floor: int) -> bool:
        return self.exact or self.visits >= floor


@dataclass(frozen=True)
class PositionSearch:
    """One searched position: the bot's best move, the root's value, each root child's."""

    best: int
    root: Estimate
    """The position's value: the mean over every simulation (exact where the root is proven)."""
    children: dict[int, ChildReturns]

    def estimate(self, action: int) -> Estimate | None:
        child = self.children.get(action)
        if child is None:
            return None
        return Estimate(child.mean, child.visits, child.proven)


@dataclass(frozen=True)
class ReviewStep:
    """One action of the record as the review judged it."""

    index: int
    """0-based place of the action in the record (the position before it is `index`)."""
    turn: int
    """1-based turn number (a turn may have several steps: the game's `starts_turn`)."""
    seat: int | None
    """The mover; None for a chance step."""
    action: int
    move: str
    kind: str
    """`move` (a choice), `forced` (the only legal move) or `chance`."""
    best_action: int | None
    best: str | None
    """The bot's preferred move (notation) where it searched; None elsewhere."""
    before: tuple[float, ...]
    after: tuple[float, ...]
    """Each seat's winning chance before and after the action (0..1)."""
    drop: float
    """The mover's chance before less after, at least 0 (0 for chance and forced steps)."""
    sure_drop: float
    """The drop's lower confidence bound (at least 0): what marks and accuracy use."""
    visits: int
    """Visits behind the estimate of the move played (0 where exact or not searched)."""
    sure: bool
    """Whether the search looked enough to judge this move (see the module's docstring)."""
    mark: str | None
    """`inaccuracy`, `mistake`, `blunder` or None."""
    accuracy: float | None
    """The move's accuracy in percent; None where it does not count."""
    best_parts: dict[str, Any] | None = None
    """The preferred move taken apart for a board (`State.action_parts`: from, to, cell, ...),
    filled by `with_parts`; None where there is none or it was not asked for."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReviewStep:
        """A step as `Review.to_dict` wrote it (lists back to tuples)."""
        values: dict[str, Any] = {f.name: data.get(f.name) for f in fields(cls)}
        for name in ("before", "after"):
            values[name] = tuple(float(x) for x in data[name])
        return cls(**values)


@dataclass
class Review:
    """A whole game's review: the steps, the final chances, and each seat's figures."""

    game: str
    options: dict[str, Any]
    players: list[str]
    seats: list[str]
    simulations: int
    seed: int
    steps: list[ReviewStep]
    final: tuple[float, ...]
    """Each seat's chance after the last action (the normalised result where the game ended)."""
    finished: bool
    accuracy: list[float | None] = field(default_factory=list)
    """Per seat, the game accuracy in percent (None: no move of theirs counted)."""

    def chances(self) -> list[tuple[float, ...]]:
        """The graph: every position's chances per seat, from the start to after the last move."""
        return [s.before for s in self.steps] + [self.final]

    def ranks(self) -> list[tuple[float, ...]] | None:
        """For 3–4 seats, the graph's other series: every position's expected rank per seat
        (`ai/ranks.py`: 1 first, n last), from the same chances; None for two seats."""
        if len(self.seats) < RANKED_SEATS:
            return None
        return [expected_ranks(c) for c in self.chances()]

    def marks(self, seat: int) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders `seat` made."""
        counts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for s in self.steps:
            if s.seat == seat and s.mark is not None:
                counts[s.mark] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for storage with the game and for `gamehall review --json`."""
        data: dict[str, Any] = _jsonable(asdict(self))
        data["format"] = REVIEW_FORMAT
        data["marks"] = [self.marks(s) for s in range(len(self.seats))]
        if len(self.seats) >= RANKED_SEATS:  # derived from the written chances: never read
            series = [s["before"] for s in data["steps"]] + [data["final"]]
            data["ranks"] = _jsonable([expected_ranks(c) for c in series])
            for step in data["steps"]:  # the mover's, around its move (as before / after)
                seat = step["seat"]
                step["rank"] = None if seat is None else _jsonable(
                    [expected_ranks(step[k])[seat] for k in ("before", "after")])
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Review:
        """A review read back from `to_dict`'s JSON (a stored one); GamehallError for another
        format."""
        if data.get("format") != REVIEW_FORMAT:
            raise GamehallError(f"not a review ({REVIEW_FORMAT}): {data.get('format')!r}")
        return cls(game=str(data["game"]), options=dict(data["options"]),
                   players=list(data["players"]), seats=list(data["seats"]),
                   simulations=int(data["simulations"]), seed=int(data["seed"]),
                   steps=[ReviewStep.from_dict(s) for s in data["steps"]],
                   final=tuple(float(x) for x in data["final"]),
                   finished=bool(data["finished"]), accuracy=list(data["accuracy"]))


def with_parts(review: Review, record: GameRecord) -> Review:
    """The review with each preferred move taken apart for a board (`ReviewStep.best_parts`),
    from the record's positions: what a page needs to show the better move on its board."""
    state = record.replay().game.new_initial_state(record.seed)
    steps = []
    for step in review.steps:
        parts = None
        if step.best_action is not None and step.best_action >= 0:
            parts = {"move": step.best, **state.action_parts(step.best_action)}
        steps.append(replace(step, best_parts=parts))
        state.apply_action(step.action)
    return replace(review, steps=steps)


def _jsonable(value: Any) -> Any:
    """Tuples as lists and figures to 4 decimals (plenty for a graph; the stored review stays
    small), recursively."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value


@dataclass(frozen=True)
class ReviewBudget:
    """How a review searches each position: what a bot level's spec asks for in one game."""

    simulations: int
    widening: tuple[float, float] | None
    """Progressive widening at chance nodes (``+pw``), or None."""
    rave: float | None
    """RAVE's k: the spec's ``+rave[K]``, else the level's own (`LEVEL_RAVE`: Hula's levels
    search with RAVE), None for plain UCT."""

    def extras(self) -> Extras:
        """The suffixes that ask for this search on a plain count (a capped level's word)."""
        return Extras(self.widening is not None, self.rave)


def review_budget(level: str | None, game: str) -> ReviewBudget:
    """The search per position of a bot level (``easy``, ``medium``, ``hard``: that level's
    budget in `game`; or ``N``; with the suffixes of `SUFFIXES_HELP`), read as the bots read it,
    so that a review at ``medium`` searches as the medium bot plays (RAVE in Hula). A review
    needs a count: a time budget would make it depend on the machine and its load."""
    budget = parse_level(level)
    extras = split_level(level)[1]
    if extras.order is not None:
        raise GamehallError(
            f"a review does not search with +order ({level!r}): its marks read the visits and "
            "mean returns of every move, which ordered widening leaves to a few; reviews of "
            "Hau La search as plain UCT at every level")
    widening = WIDENING if extras.widening else None
    rave = level_rave(budget.level, extras.rave, game)
    if rave is not None:
        amaf.check_game(game)
    if budget.level is not None:
        return ReviewBudget(level_simulations(budget.level, game), widening, rave)
    if budget.simulations is None:
        raise GamehallError(
            f"a review needs a number of simulations, and {level!r} is a time budget (it would "
            "give another review on another machine): use easy, medium, hard or a count like "
            "3000")
    return ReviewBudget(budget.simulations, widening, rave)


def choice_positions(record: GameRecord) -> list[int]:
    """The indices of the record's actions a review searches (a seat with two or more legal
    moves): with the simulations per position, the work a review costs, to budget or split."""
    state = record.replay()
    replay = state.game.new_initial_state(record.seed)
    found: list[int] = []
    for index, action in enumerate(state.history()):
        if replay.current_player() >= 0 and len(replay.legal_actions()) > 1:
            found.append(index)
        replay.apply_action(action)
    return found


def position_seed(seed: int, index: int) -> int:
    """The search seed of position `index`: the same in every review with `seed`, and
    independent of the other positions."""
    return (seed * 1_000_003 + index * 7_919 + 1) % (2**63)


def search_position(state: State, *, simulations: int, seed: int,
                    chance_widening: tuple[float, float] | None = None,
                    rave: float | None = None) -> PositionSearch:
    """Search `state` (a seat to move, or a chance node: then `best` is -1) with exactly
    `simulations` simulations; its root's value and each root child's."""
    bot = MCTSBot(seed, simulations=simulations, seconds=None, reuse=False,
                  chance_widening=chance_widening, track_root_returns=True, rave=rave)
    root = bot.search(state)
    best = bot.best_action(root, state) if state.current_player() >= 0 else -1
    children = bot.root_returns
    if root.proven is not None:
        value = Estimate(tuple(root.proven_norm), root.n, True)
    else:
        total = sum(c.visits for c in children.values())
        seats = state.game.num_players
        value = Estimate(tuple(sum(c.visits * c.mean[s] for c in children.values()) / total
                               for s in range(seats)) if total else (0.5,) * seats, total, False)
    return PositionSearch(best, value, children)


def _normalised(state: State) -> tuple[float, ...]:
    game = state.game
    span = game.max_utility - game.min_utility
    scale = 1.0 / span if span > 0 else 1.0
    return tuple((r - game.min_utility) * scale for r in state.returns())


def review_record(record: GameRecord, *, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0,
                  progress: Progress | None = None, visit_floor: int = VISIT_FLOOR,
                  chance_widening: tuple[float, float] | None = None,
                  positions: Collection[int] | None = None,
                  rave: float | None = None) -> Review:
    """Review every action of `record` (see the module's docstring); `progress` is called after
    each action, and may raise to stop the review (a worker's cancel).

    `positions` (0-based action indices) limits the review to those positions: the others are
    left unjudged. A position's figures are the same whichever others are reviewed (each search
    is seeded by its position), so a review can be split among workers or limited to a stretch
    of a long game. `chance_widening` and `rave` are the search's, as `review_budget` reads
    them from a level."""
    if simulations < 1:
        raise GamehallError("a review needs at least 1 simulation per position")
    if visit_floor < 1:
        raise GamehallError("the visit floor must be at least 1")
    final = record.replay()  # checks every move before any search
    wanted = None if positions is None else frozenset(positions)

    def search(state: State, index: int) -> PositionSearch:
        return search_position(state, simulations=simulations, seed=position_seed(seed, index),
                               chance_widening=chance_widening, rave=rave)

    found = _walk(record, final, wanted, search, visit_floor, progress)
    steps = _assemble(found, final, visit_floor)
    end = _normalised(final) if final.is_terminal() else (
        steps[-1].after if steps else _neutral(final))
    review = Review(game=final.game.name, options=dict(final.game.options),
                    players=list(record.players), seats=list(final.game.seat_names),
                    simulations=simulations, seed=seed, steps=steps, final=end,
                    finished=final.is_terminal())
    review.accuracy = _accuracies(review)
    return review


@dataclass(frozen=True)
class _Position:
    """What the walk learnt of one action: who moved, what, and the searches made there."""

    index: int
    turn: int
    player: int
    action: int
    move: str
    kind: str
    search: PositionSearch | None
    """The review's search of a choice position (None: not reviewed)."""
    value: Estimate | None
    """The position's value where it was searched, for review or as the position after an
    unsure move."""
    best_move: str | None


def _walk(record: GameRecord, final: State, wanted: frozenset[int] | None,
          search: Callable[[State, int], PositionSearch], floor: int,
          progress: Progress | None) -> list[_Position]:
    """Replay the record, searching each wanted position where a seat has a choice, and each
    position that follows a move its search hardly tried (its value stands in for the move's);
    report progress after each action."""
    state = final.game.new_initial_state(record.seed)
    actions = final.history()  # the record's moves as actions (it may give only notation)
    n = len(actions)
    found: list[_Position] = []
    turn = 0
    needed = False  # whether the previous move's child was unsure: search this position too
    for index, action in enumerate(actions):
        if index == 0 or final.game.starts_turn(state, action):
            turn += 1
        player = state.current_player()
        kind = (CHANCE_STEP if player == CHANCE
                else FORCED if len(state.legal_actions()) < 2 else MOVE)
        reviewed = kind == MOVE and (wanted is None or index in wanted)
        result = search(state, index) if reviewed or needed else None
        mine = result if reviewed else None
        best = state.action_to_string(mine.best) if mine is not None else None
        found.append(_Position(index, max(turn, 1), player, action,
                               state.action_to_string(action), kind, mine,
                               result.root if result is not None else None, best))
        own = mine.estimate(action) if mine is not None else None
        needed = mine is not None and (own is None or not own.sure(floor))
        state.apply_action(action)
        if progress is not None:
            progress(index + 1, n)
    return found


def _neutral(state: State) -> tuple[float, ...]:
    """Equal chances for every seat, where nothing better is known."""
    n = state.game.num_players
    return (1.0 / n,) * n


def _assemble(positions: list[_Position], final: State, floor: int) -> list[ReviewStep]:
    """The steps: estimates before and after each action, drops, marks, move accuracies."""
    n = len(positions)
    afters = [_after(positions, i, final, floor) for i in range(n)]
    values = _position_values(positions, afters, final)
    steps: list[ReviewStep] = []
    for i, pos in enumerate(positions):
        search, after = pos.search, afters[i]
        seat = None if pos.player == CHANCE else pos.player
        if search is None:
            steps.append(ReviewStep(pos.index, pos.turn, seat, pos.action, pos.move, pos.kind,
                                    None, None, values[i], values[i + 1], 0.0, 0.0, 0, False,
                                    None, None))
            continue
        before = search.root
        p = pos.player
        after_chances = after.chances if after is not None else values[i + 1]
        drop = max(0.0, before.chances[p] - after_chances[p])
        sure = after is not None and before.sure(floor) and after.sure(floor)
        sure_drop = 0.0
        if sure and after is not None:
            sure_drop = max(0.0, drop - math.sqrt(before.variance() + after.variance()))
        visits = after.visits if after is not None and not after.exact else 0
        steps.append(ReviewStep(
            pos.index, pos.turn, seat, pos.action, pos.move, pos.kind, search.best,
            pos.best_move, before.chances, after_chances, drop, sure_drop, visits, sure,
            mark(sure_drop) if sure else None, move_accuracy(sure_drop) if sure else None))
    return steps


def _after(positions: list[_Position], i: int, final: State, floor: int) -> Estimate | None:
    """The estimate of the position after action `i`, for a reviewed position: the played
    child's, or where that is unsure, the value of the position that follows (searched by the
    walk for that; exact at the end)."""
    search = positions[i].search
    if search is None:
        return None
    own = search.estimate(positions[i].action)
    if own is not None and own.sure(floor):
        return own
    if i + 1 < len(positions):
        ahead = positions[i + 1].value
    else:
        ahead = Estimate(_normalised(final), 0, True) if final.is_terminal() else None
    if ahead is not None and ahead.sure(floor):
        return ahead
    return own


def _position_values(positions: list[_Position], afters: list[Estimate | None],
                     final: State) -> list[tuple[float, ...]]:
    """Every position's chances for the graph: a searched one's value, the end's exact result;
    between, carried from the move before (its estimate of what it led to) or, at the very
    start, from the first position that has one."""
    n = len(positions)
    values: list[tuple[float, ...] | None] = [None] * (n + 1)
    for i, pos in enumerate(positions):
        if pos.value is not None:
            values[i] = pos.value.chances
    if final.is_terminal():
        values[n] = _normalised(final)
    for i in range(1, n + 1):
        if values[i] is None:
            after = afters[i - 1]
            values[i] = after.chances if after is not None else values[i - 1]
    known = next((v for v in values if v is not None), None)
    neutral = _neutral(final)
    filled: list[tuple[float, ...]] = []
    for v in values:
        if v is None:
            v = known if known is not None else neutral
        filled.append(v)
    return filled


def _accuracies(review: Review) -> list[float | None]:
    """Each seat's game accuracy over its counted moves, weighted by the volatility of its own
    chances around each move."""
    series = review.chances()
    out: list[float | None] = []
    for seat in range(len(review.seats)):
        weights = volatility_weights([c[seat] for c in series])
        moves = [(s.accuracy, weights[i]) for i, s in enumerate(review.steps)
                 if s.seat == seat and s.accuracy is not None]
        out.append(game_accuracy(moves))
    return out
