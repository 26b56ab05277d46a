"""Review of a game record with the bots' eyes: winning chances, marks, accuracy (issue 30).

`review_record(record, simulations=..., seed=..., progress=...)` is a pure function of the
record and its arguments, so a bot worker can run it in the background (one record, a budget of
simulations per position, a progress callback) and a server store what it returns (`to_dict`).

- Every position where a seat chooses among two or more moves is searched afresh by `MCTSBot`
  with exactly `simulations` simulations, no time cap and no tree reuse, seeded from the review's
  seed and the position's index: the same record and seed give the same review on any machine,
  and a position's figures do not depend on which others are reviewed (`positions`).
- A position's value is its best move's value in its own search (`position_value`: the most
  visited move's mean, exact where the solver proved it; at a roll or flip, each outcome's best
  move's value weighted by its odds) — not the mean of all simulations, which the moves UCT
  explores drag down. A move is judged by the search of the position after it, not by its
  average inside the first tree (which stays high for a refuted move), and the move it is held
  against, the search's preferred one, is valued the same way: by a search of the position
  after it (`_best_value`; where the played move is the preferred one, that is its own search
  and the drop is 0). The two values then carry the same bias, and their difference is the
  moves': a most-visited child's mean is the best of many noisy means and reads high for its
  mover, so one side's search against the other's would count that twice against every move
  (0.1-0.3 in Haugaz and Hula at their budgets). For the same reason two values are compared
  only where the same side is to move in both (or one is exact): a step that ends the turn
  (a pass, Hotu Matua's end) is not held against a preferred step after which the turn goes
  on, unless a value is proven (`_comparable`). Every position a judged move touches is
  searched once: before it, after it, after the preferred move, and where its turn ends.
- A turn of several steps is judged as a turn: a step's drop is the lesser of its own and its
  turn's from it on (to the next turn's start or chance), so a step order the rest of the turn
  makes good is no mistake. A step that ends its turn (Hotu Matua's ``end``) where the search
  would go on is held against the turn the search would make, played on by its own preferred
  steps to where it ends (`_turn_end_value`). The move the search prefers is never marked. In a
  player's accuracy a turn counts once, its drop the sum of its steps' (`turn_moves`).
- A drop is marked only where the values are sure (proven, or at least `visit_floor` visits
  behind each), and less one standard deviation of the difference of the two values, from the
  spread measured per game (`review_levels.REVIEW_SPREAD`; none for a proven value). Move
  accuracy uses the same drop, so a move is held against a player only as far as the search
  is sure of it, and counts only where its mover had something to lose (`accuracy.at_stake`).
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
from gamehall.ai.accuracy import (
    at_stake,
    game_accuracy,
    mark,
    move_accuracy,
    volatility_weights,
)
from gamehall.ai.levels import (
    WIDENING,
    Extras,
    level_rave,
    parse_level,
    split_level,
)
from gamehall.ai.mcts import ChildReturns, MCTSBot, Node
from gamehall.ai.ranks import RANKED_SEATS, expected_ranks
from gamehall.ai.review_levels import (
    calibrated_chance,
    review_calibration,
    review_simulations,
    review_spread,
)
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

    def variance(self, spread: float = 0.5) -> float:
        """The value's variance, spread²/visits (`spread`: a simulation's standard deviation as
        measured for the game, `REVIEW_SPREAD`; 0.5 bounds any 0..1 return's); 0 exact, inf
        unvisited."""
        if self.exact:
            return 0.0
        return math.inf if self.visits == 0 else spread * spread / self.visits

    def sure(self, floor: int) -> bool:
        return self.exact or self.visits >= floor


@dataclass(frozen=True)
class PositionSearch:
    """One searched position: the bot's best move, the root's value, each root child's."""

    best: int
    root: Estimate
    """The position's value: its best move's (exact where the root is proven), see
    `position_value`."""
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
    colours: list[str] = field(default_factory=list)
    """Per seat, its colour as the board drew it at the end of the game (`State.seat_colours`:
    after a swap too), for the graph's lines; empty in a review stored before it was kept."""

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
                   finished=bool(data["finished"]), accuracy=list(data["accuracy"]),
                   colours=[str(c) for c in data.get("colours", [])])


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
        return ReviewBudget(review_simulations(budget.level, game), widening, rave)
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
    `simulations` simulations (fewer once the solver proves the root); the position's value
    (`position_value`) and each root child's."""
    bot = MCTSBot(seed, simulations=simulations, seconds=None, reuse=False,
                  chance_widening=chance_widening, track_root_returns=True, rave=rave)
    root = bot.search(state)
    best = bot.best_action(root, state) if state.current_player() >= 0 else -1
    children = bot.root_returns
    return PositionSearch(best, position_value(root, state, children, best), children)


def position_value(root: Node, state: State, children: Mapping[int, ChildReturns],
                   best: int) -> Estimate:
    """A searched position's value per seat: exact where the solver proved it; at a seat's
    choice, the value of the move the search would play (its mean, or exact where proven) —
    not the mean of every simulation, which the moves UCT explores drag down (issue 42: Halali!
    0.50 at 120 simulations for a position whose best move is worth 0.69); at a chance node,
    each outcome's best move's value weighted by the outcome's probability (two seats
    constant-sum, where a node's mean gives both seats'), else the mean over the outcomes."""
    if root.proven is not None:
        return Estimate(tuple(root.proven_norm), root.n, True)
    seats = state.game.num_players
    if best >= 0:
        chosen = children.get(best)
        if chosen is None:
            return Estimate((1.0 / seats,) * seats, 0, False)
        return Estimate(chosen.mean, chosen.visits, chosen.proven)
    if seats == 2 and state.game.utility_sum is not None:
        odds = dict(state.chance_outcomes())
        weight = 0.0
        total = 0
        chances = [0.0, 0.0]
        for action, node in root.children.items():
            own = _node_value(node, children.get(action))
            if own is None:
                continue
            p = odds.get(action, 0.0)
            weight += p
            total += node.n
            for s in (0, 1):
                chances[s] += p * own[s]
        if weight > 0:
            return Estimate(tuple(c / weight for c in chances), total, False)
    visited = sum(c.visits for c in children.values())
    if not visited:
        return Estimate((1.0 / seats,) * seats, 0, False)
    return Estimate(tuple(sum(c.visits * c.mean[s] for c in children.values()) / visited
                          for s in range(seats)), visited, False)


def _node_value(node: Node, returns: ChildReturns | None) -> tuple[float, float] | None:
    """A two-seat decision node's value below a chance root: exact where proven, else its most
    visited child's mean (a proven win first, proven losses last, as `MCTSBot.best_action`),
    else the node's own mean (a leaf); None where no simulation passed."""
    if node.proven is not None:
        return (node.proven_norm[0], node.proven_norm[1])
    kids = list(node.children.values())
    mover = node.player
    if kids and mover in (0, 1):
        wins = [c for c in kids if c.proven is not None and c.proven_norm[mover] >= 1.0]
        alive = [c for c in kids if c.proven is None or c.proven_norm[mover] > 0.0] or kids
        pick = wins[0] if wins else max(alive, key=lambda c: c.n)
        if pick.n > 0 or pick.proven is not None:
            q = pick.proven_norm[mover] if pick.proven is not None else pick.w / pick.n
            return (q, 1.0 - q) if mover == 0 else (1.0 - q, q)
    if returns is not None:
        return (returns.mean[0], returns.mean[1])
    return None


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

    found, last = _walk(record, final, wanted, search, progress)
    steps = _assemble(found, last, final, visit_floor, review_spread(final.game.name),
                      review_calibration(final.game.name))
    end = _normalised(final) if final.is_terminal() else (
        steps[-1].after if steps else _neutral(final))
    review = Review(game=final.game.name, options=dict(final.game.options),
                    players=list(record.players), seats=list(final.game.seat_names),
                    simulations=simulations, seed=seed, steps=steps, final=end,
                    finished=final.is_terminal(), colours=list(final.seat_colours()))
    review.accuracy = _accuracies(review)
    return review


@dataclass(frozen=True)
class _Position:
    """What the walk learnt of one action: who moved, what, where its turn ends, and the search
    of the position before it (where one was made)."""

    index: int
    turn: int
    player: int
    action: int
    move: str
    kind: str
    reviewed: bool
    """Whether this action is judged (a choice, and wanted)."""
    turn_end: int
    """The index of the position where the mover's turn is over: the next action that starts a
    turn or is chance, or the end of the record (chance is nobody's play: luck is left out)."""
    search: PositionSearch | None
    """The search of the position before this action (None: not searched)."""
    best_move: str | None
    """The search's preferred move in notation, where this action is judged."""
    reference: Estimate | None = None
    """The value of the search's preferred move, where this action is judged and is not it: the
    position's value before the move was exact, or the search of the position after the
    preferred move (see `_assemble`)."""
    reference_own: bool = False
    """Whether the mover is to move again after the preferred move (its turn goes on)."""


def _walk(record: GameRecord, final: State, wanted: frozenset[int] | None,
          search: Callable[[State, int], PositionSearch],
          progress: Progress | None) -> tuple[list[_Position], Estimate | None]:
    """Replay the record and search every position a judged move needs: the one before it, the
    one after it and the one that ends its turn; report progress after each action. Returns the
    positions and the value of the position after the last action (exact where the game is
    over, searched where a judged move needs it, else None)."""
    game = final.game
    actions = final.history()  # the record's moves as actions (it may give only notation)
    n = len(actions)
    state = game.new_initial_state(record.seed)
    kinds: list[tuple[int, str, bool]] = []  # (player, kind, starts a turn or is chance)
    for index, action in enumerate(actions):
        player = state.current_player()
        kind = (CHANCE_STEP if player == CHANCE
                else FORCED if len(state.legal_actions()) < 2 else MOVE)
        kinds.append((player, kind, player == CHANCE or index == 0
                      or game.starts_turn(state, action)))
        state.apply_action(action)
    ends = [n] * n
    for index in range(n - 2, -1, -1):
        ends[index] = index + 1 if kinds[index + 1][2] else ends[index + 1]
    reviewed = [kind == MOVE and (wanted is None or index in wanted)
                for index, (_, kind, _) in enumerate(kinds)]
    needed: set[int] = set()
    for index in range(n):
        if reviewed[index]:
            needed.update((index, index + 1, ends[index]))
    state = game.new_initial_state(record.seed)
    found: list[_Position] = []
    turn = 0
    for index, action in enumerate(actions):
        player, kind, _ = kinds[index]
        if index == 0 or game.starts_turn(state, action):
            turn += 1
        result = search(state, index) if index in needed else None
        best = reference = None
        own = False
        if result is not None and reviewed[index]:
            best = state.action_to_string(result.best)
            if result.best != action:
                ends_turn = index + 1 == n or kinds[index + 1][0] != player
                reference, own = _best_value(state, result, index, search,
                                             ends_turn=ends_turn)
        found.append(_Position(index, max(turn, 1), player, action,
                               state.action_to_string(action), kind, reviewed[index],
                               ends[index], result, best, reference, own))
        state.apply_action(action)
        if progress is not None:
            progress(index + 1, n)
    last: Estimate | None = None
    if final.is_terminal():
        last = Estimate(_normalised(final), 0, True)
    elif n in needed:
        last = search(final.clone(), n).root
    return found, last


def _best_value(state: State, result: PositionSearch, index: int,
                search: Callable[[State, int], PositionSearch], *,
                ends_turn: bool = False) -> tuple[Estimate, bool]:
    """The value of the search's preferred move, judged as the played move is: by a search of
    the position after it, seeded as the position after the played move (`index` + 1), so the
    two are searched alike and their difference is the moves', not the searches' (issue 42: a
    most-visited child's mean is the best of many noisy means, so each side's search reads its
    mover's chances high, by 0.1-0.3 in Haugaz and Hula; a drop from one side's search to the
    other's counted that twice against every move). Exact values need no second search. Also
    whether the mover is to move again there (the bias is its then, see `_comparable`).

    Where the played move ends its mover's turn (`ends_turn`: Hotu Matua's ``end``, a move
    after which chance or another seat is next) and the preferred one does not, the preferred
    turn is played on as the search would play it (`_turn_end_value`) to where it ends too, and
    that position's value is the reference: a turn given up early is then held against the
    turn the mover could have made, read with the same side to move (issue 42: a random Hotu
    Matua player's ``end`` after two of its steps was never judged, the two values being read
    with different sides to move)."""
    if result.root.exact:
        return result.root, False
    nxt = state.clone()
    nxt.apply_action(result.best)
    if nxt.is_terminal():
        return Estimate(_normalised(nxt), 0, True), False
    after = search(nxt, index + 1)
    own = nxt.current_player() == state.current_player()
    if own and ends_turn:
        return _turn_end_value(nxt, after, state.current_player(), index, search), False
    return after.root, own


TURN_LINE_LIMIT = 24
"""The most steps a preferred turn is played on by the review's own searches (`_turn_end_value`);
a longer turn is valued where the limit stops it (no installed game's turn is that long)."""


def _turn_end_value(state: State, found: PositionSearch, mover: int, index: int,
                    search: Callable[[State, int], PositionSearch]) -> Estimate:
    """The value where `mover`'s turn ends if it goes on from `state` (its search `found`) by
    the search's preferred step at each position: searched where chance or another seat is
    next, seeded as the position after the played move (`index` + 1), exact at the game's
    end. Its steps are the searches' own choices, so the value is what the search would have
    made of the turn."""
    line = state.clone()
    for _ in range(TURN_LINE_LIMIT):
        if line.is_terminal():
            return Estimate(_normalised(line), 0, True)
        if line.current_player() != mover or found.root.exact:
            return found.root
        line.apply_action(found.best)
        if line.is_terminal():
            return Estimate(_normalised(line), 0, True)
        found = search(line, index + 1)
    return found.root


def _neutral(state: State) -> tuple[float, ...]:
    """Equal chances for every seat, where nothing better is known."""
    n = state.game.num_players
    return (1.0 / n,) * n


def _judged(before: Estimate, later: Estimate, seat: int, spread: float,
            slope: float = 1.0) -> float:
    """The mover's drop in winning chance from `before` to `later`, less the uncertainty of the
    two values: one standard deviation of their difference, from the search's measured spread
    (`spread` per simulation: `REVIEW_SPREAD`), none where a value is exact; at least 0. The
    allowance is taken on the values' own scale, each value moved toward the other by its share
    of the variance, and only then are they read as chances (`slope`: `REVIEW_CALIBRATION`),
    so a calibration that stretches the middle of the scale stretches the sure drop, never the
    noise allowed for."""
    high, low = before.chances[seat], later.chances[seat]
    var_high, var_low = before.variance(spread), later.variance(spread)
    total = var_high + var_low
    if total > 0:
        sd = math.sqrt(total)
        high, low = high - sd * var_high / total, low + sd * var_low / total
    if high <= low:
        return 0.0
    return calibrated_chance(high, slope) - calibrated_chance(low, slope)


def _calibrated(chances: tuple[float, ...], slope: float) -> tuple[float, ...]:
    """Each seat's value read as a winning chance (`calibrated_chance`; symmetric, so a
    two-seat pair that sums to 1 still does)."""
    if slope == 1.0:
        return chances
    return tuple(calibrated_chance(c, slope) for c in chances)


def _comparable(a: Estimate, a_own: bool, b: Estimate, b_own: bool) -> bool:
    """Whether two values of the mover's chances may be subtracted: exact (no search, no bias),
    or both read where the same side is to move. A searched value reads high for the side to
    move there (its most-visited move's mean), so a position where the mover's turn goes on
    reads high for the mover and one where another seat or chance is next reads low; the
    difference of two such values is mostly that bias (issue 42: a Haugaz pass held against a
    placement whose turn went on read 0.25 lower and was marked a mistake)."""
    return a.exact or b.exact or a_own == b_own


def _assemble(positions: list[_Position], last: Estimate | None, final: State, floor: int,
              spread: float, slope: float = 1.0) -> list[ReviewStep]:
    """The steps: values before and after each action, drops, marks, move accuracies.

    A judged step's drop is the lesser of its own (the position before it against the one after
    it) and its turn's from it on (against the position where the turn is over): a step order
    that the rest of the turn makes good is no mistake, however the search read the half-done
    turn (issue 42: a Hotu Matua order that won two steps later read 100% → 47%), while a turn
    that throws the game away is held against the step that did it. The move the search itself
    prefers is never held against its mover: its value is the position's, and a drop between
    the two searches is their noise, not the move's. Every value is shown and judged as a
    winning chance (`slope`: the game's calibration, `REVIEW_CALIBRATION`)."""
    values: list[Estimate | None] = [p.search.root if p.search is not None else None
                                     for p in positions]
    values.append(last)
    chances = [_calibrated(c, slope) for c in _position_values(values, final)]
    steps: list[ReviewStep] = []
    for i, pos in enumerate(positions):
        seat = None if pos.player == CHANCE else pos.player
        before, after, end = values[i], values[i + 1], values[pos.turn_end]
        if not pos.reviewed or pos.search is None or before is None:
            steps.append(ReviewStep(pos.index, pos.turn, seat, pos.action, pos.move, pos.kind,
                                    None, None, chances[i], chances[i + 1], 0.0, 0.0, 0, False,
                                    None, None))
            continue
        p = pos.player
        before_own = True  # the position before the move: the mover's
        if pos.reference is not None:
            before, before_own = pos.reference, pos.reference_own
        elif pos.action == pos.search.best and after is not None and not before.exact:
            before = after  # the preferred move played: its value is the search after it
        before_chances = _calibrated(before.chances, slope)
        after_chances = _calibrated(after.chances, slope) if after is not None else chances[i + 1]
        drop = max(0.0, before_chances[p] - after_chances[p])
        sure = (after is not None and end is not None and before.sure(floor)
                and after.sure(floor) and end.sure(floor))
        sure_drop = 0.0
        if sure and after is not None and end is not None and pos.action != pos.search.best:
            # the position after the move is the mover's where its turn goes on; the turn's
            # end never is
            pairs = [(later, own) for later, own in ((after, pos.turn_end > i + 1), (end, False))
                     if _comparable(before, before_own, later, own)]
            if pairs:
                sure_drop = min(_judged(before, later, p, spread, slope) for later, _ in pairs)
            else:
                sure = False
        visits = after.visits if after is not None and not after.exact else 0
        best = pos.search.best
        steps.append(ReviewStep(
            pos.index, pos.turn, seat, pos.action, pos.move, pos.kind, best, pos.best_move,
            before_chances, after_chances, drop, sure_drop, visits, sure,
            mark(sure_drop) if sure else None,
            move_accuracy(sure_drop) if sure and at_stake(before_chances[p]) else None))
    return steps


def _position_values(values: list[Estimate | None], final: State) -> list[tuple[float, ...]]:
    """Every position's chances for the graph: a searched one's value, the end's exact result;
    between, carried from the position before or, at the very start, from the first position
    that has one."""
    known = next((v.chances for v in values if v is not None), _neutral(final))
    filled: list[tuple[float, ...]] = []
    for v in values:
        known = v.chances if v is not None else (filled[-1] if filled else known)
        filled.append(known)
    return filled


def _accuracies(review: Review) -> list[float | None]:
    """Each seat's game accuracy over its counted turns (`turn_moves`), weighted by the
    volatility of its own chances around each."""
    series = review.chances()
    out: list[float | None] = []
    for seat in range(len(review.seats)):
        weights = volatility_weights([c[seat] for c in series])
        out.append(game_accuracy(turn_moves(review.steps, seat, weights)))
    return out


def turn_moves(steps: list[ReviewStep], seat: int,
               weights: list[float]) -> list[tuple[float, float]]:
    """A seat's (accuracy, weight) pairs for its game accuracy: one per turn, as lichess counts
    one per move, where a turn of several steps (Hotu Matua's ship steps and their end,
    Haugaz's placement and its move) is one move: its drop is the sum of its counted steps'
    sure drops (each judged against the search's preferred step), its weight the volatility at
    its first counted step. Counting every step as a move would spread a turn's loss over its
    steps, each costing little, and fill the mean with the steps that cost nothing (issue 42:
    a random Hotu Matua player, whose turns gave up 0.1-0.15 each, read 87% step by step).
    A game of single-step turns counts each move, as before."""
    turns: dict[int, list[ReviewStep]] = {}
    for step in steps:
        if step.seat == seat and step.accuracy is not None:
            turns.setdefault(step.turn, []).append(step)
    return [(move_accuracy(min(1.0, sum(s.sure_drop for s in taken))), weights[taken[0].index])
            for taken in turns.values()]
