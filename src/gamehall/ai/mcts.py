"""Monte Carlo tree search (UCT) for every game of the contract.

- Each decision node maximises the return of the seat to move there; a node's statistics are the
  normalised return of the seat that chose the edge into it, so 2, 3 or 4 players and multi-step
  turns (the same seat moving again) need nothing special.
- Chance nodes sample an outcome with its probability; each outcome has its own child. With
  `chance_widening=(k, alpha)` a chance node visited n times keeps at most ceil(k·(n+1)^alpha)
  distinct outcomes (progressive widening): a new outcome drawn past that is replaced by one of
  the outcomes already there, drawn in proportion to their probabilities, so the simulations of
  a wide chance node (Halali!'s flips) deepen a few sampled outcomes instead of spreading thin.
- Leaves are valued by an evaluator (default: one random rollout, through the engine's own
  ``random_playout`` where it exists).
- Terminal nodes are exact. In 2-player constant-sum games proven values are backed up
  MCTS-Solver style through decision nodes (never through chance nodes).
- The budget is a number of simulations, a wall time, or both (whichever ends first).
- The tree is kept between moves: the next search starts from the child reached by the actions
  played since, when that position is verified to be the one asked about.
- Opt-in (`rave=k`), in games whose actions are position-independent moves (`ai/rave.py`):
  RAVE/AMAF, every action a seat played later in a simulation counting for that seat's node,
  blended into selection with beta = sqrt(k / (3n + k)).
- Opt-in (`ordering=(k, alpha)`), where the evaluator scores actions (`ai/ordering.py`): a
  decision node expands its actions best-scored first and keeps at most ceil(k·(n+1)^alpha)
  children after n visits (evaluator-ordered progressive widening); a later step of the same
  seat's turn is then worth its best child, not the mean.
- Opt-in (`floor`), for the levels: `choose` keeps to the actions a floor function allows
  (`ai/floor.py`: no pass while a placement exists, no move that loses at once), expanding and
  choosing only among them at the root.
- Opt-in (`track_root_returns`), for reviews: each root child's mean return for every seat, not
  only for its mover (`root_returns`).
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

from gamehall.ai import ordering as order
from gamehall.ai import rave as amaf
from gamehall.ai.bot import Bot
from gamehall.ai.evaluators import Evaluator, default_evaluator
from gamehall.core import CHANCE, TERMINAL, Game, GamehallError, State

Floor = Callable[[State, Sequence[int]], list[int]]
"""Which of a position's legal actions a bot may choose (`ai/floor.py`'s `floor_actions`)."""

WIDE = 32
"""Children from which selection runs in numpy: one vectorised multiply-add and argmax costs a few
microseconds whatever the width, a Python loop about 80 ns a child."""


class Node:
    """A position in the tree, reached from its parent by `action`."""

    __slots__ = ("action", "owner", "player", "n", "w", "q", "isq", "children", "untried",
                 "proven", "proven_norm", "outcomes", "cumulative", "slot", "kids", "arrays",
                 "table", "ordered")

    def __init__(self, action: int, owner: int, player: int) -> None:
        self.action = action
        self.owner = owner
        """The seat that chose `action` (whose return `w` sums), or -1 under a chance node."""
        self.player = player
        """The seat to move here, or CHANCE, or TERMINAL."""
        self.n = 0
        self.w = 0.0
        self.q = math.inf
        """Mean of `w` (exact value once proven); infinite while unvisited, so tried first."""
        self.isq = 0.0
        """1/sqrt(n), kept up to date by the backup (0 once proven: no exploration bonus)."""
        self.children: dict[int, Node] = {}
        self.untried: list[int] = []
        self.proven: list[float] | None = None
        """Exact returns of this position when known (terminal, or solved)."""
        self.proven_norm: list[float] = []
        self.outcomes: list[int] = []
        self.cumulative: list[float] = []
        self.slot = 0
        """This node's place among its parent's children (in the order they were expanded)."""
        self.kids: list[Node] = []
        """For a wide node once selected from: the children in `slot` order, and (`arrays`) their
        `q` and `isq` mirrored in two arrays (see `MCTSBot._select`)."""
        self.arrays: tuple[np.ndarray, np.ndarray] | None = None
        self.table: np.ndarray | None = None
        """With RAVE, at a decision node: its children's and actions' statistics (`ai/rave.py`)."""
        self.ordered = False
        """With ordered widening: `untried` is sorted by the evaluator's scores, best last."""

    def size(self) -> int:
        """Number of nodes in this subtree."""
        return 1 + sum(c.size() for c in self.children.values())


@dataclass
class SearchStats:
    """What the last `choose` did, for benchmarks and tests."""

    simulations: int = 0
    seconds: float = 0.0
    reused_visits: int = 0
    """Visits the root already had from earlier searches (tree reuse)."""
    root_visits: int = 0
    solved: bool = False


@dataclass(frozen=True)
class ChildReturns:
    """One root child after a search with `track_root_returns`: its visits and mean normalised
    return (0..1) per seat — exact where the child is proven."""

    visits: int
    mean: tuple[float, ...]
    proven: bool


class MCTSBot(Bot):
    """UCT with chance sampling, n-player returns, a solver, time or simulation budgets."""

    name = "mcts"

    def __init__(self, seed: int | None = None, *, simulations: int | None = 1000,
                 seconds: float | None = None, uct_c: float = 1.0,
                 evaluator: Evaluator | None = None, solve: bool = True,
                 reuse: bool = True, clock: Callable[[], float] = time.perf_counter,
                 chance_widening: tuple[float, float] | None = None,
                 track_root_returns: bool = False, rave: float | None = None,
                 ordering: tuple[float, float] | None = None,
                 floor: Floor | None = None) -> None:
        super().__init__(seed)
        if simulations is None and seconds is None:
            raise GamehallError("an MCTS budget needs simulations, seconds, or both")
        if simulations is not None and simulations < 1:
            raise GamehallError("simulations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise GamehallError("seconds must be positive")
        self.simulations = simulations
        self.seconds = seconds
        self.clock = clock
        """Where the time budget is read (seconds); tests pass a fake one to count budgets."""
        self.uct_c = uct_c
        if chance_widening is not None and (chance_widening[0] <= 0
                                            or not 0 <= chance_widening[1] <= 1):
            raise GamehallError("chance widening needs k > 0 and 0 <= alpha <= 1")
        self.chance_widening = chance_widening
        """(k, alpha): at most ceil(k·(n+1)^alpha) outcomes under a chance node visited n
        times; None: every outcome drawn gets its child."""
        if rave is not None and rave <= 0:
            raise GamehallError("the RAVE equivalence parameter k must be positive")
        self.rave = rave
        self._k = rave or 1.0
        """k of RAVE's beta = sqrt(k / (3n + k)) (the visits at which a child's own mean and its
        AMAF mean weigh alike, near k/3); None: plain UCT selection."""
        if ordering is not None and (ordering[0] <= 0 or not 0 <= ordering[1] <= 1):
            raise GamehallError("ordered widening needs k > 0 and 0 <= alpha <= 1")
        if ordering is not None and rave is not None:
            raise GamehallError("ordered widening (+order) and RAVE (+rave) do not combine: "
                                "each chooses which untried action a node expands")
        self.ordering = ordering
        """(k, alpha): decision nodes expand best-scored actions first, at most
        ceil(k·(n+1)^alpha) children after n visits (`ai/ordering.py`); None: all, at random."""
        self.floor = floor
        """Narrows `choose`'s legal actions before the search (None: every legal action)."""
        self._allowed: frozenset[int] | None = None
        """During a floored `choose`: the root actions it may expand and choose."""
        self.solve = solve
        self.reuse = reuse
        self.track_root_returns = track_root_returns
        """Sum every seat's return under each root child during a search (`root_returns`): a
        review needs the other seats' chances too, which the nodes do not keep."""
        self._root_sums: dict[int, list[float]] | None = None
        if evaluator is not None and not isinstance(evaluator, Evaluator):
            raise GamehallError(f"{evaluator!r} is no evaluator: it has no evaluate method")
        self._evaluator = evaluator
        self._evaluator_game: Game | None = None
        self.stats = SearchStats()
        self._root: Node | None = None
        self._root_state: State | None = None
        self._root_history: list[int] = []

    # --- the Bot interface ---------------------------------------------------------------------
    def reset(self) -> None:
        self._root = None
        self._root_state = None
        self._root_history = []

    def choose(self, state: State) -> int:
        start = self.clock()
        legal = state.legal_actions()
        allowed = self.floor(state, legal) if self.floor is not None and len(legal) > 1 else legal
        if len(allowed) == 1:  # a forced step (common in multi-step turns): nothing to search
            self.stats = SearchStats(seconds=self.clock() - start)
            return allowed[0]
        deadline = start + self.seconds if self.seconds is not None else None
        self._allowed = frozenset(allowed) if len(allowed) < len(legal) else None
        try:
            root = self.search(state, deadline)
            action = self.best_action(root, state)
        finally:
            self._allowed = None
        self.stats.seconds = self.clock() - start
        return action

    # --- search --------------------------------------------------------------------------------
    def search(self, state: State, deadline: float | None = None) -> Node:
        """Run the budgeted search from `state`; return the root (kept for reuse).

        `state` may be a chance node: then there is no move to choose, but the root's value
        (with `track_root_returns`) is what a review needs after a move that ends in a roll."""
        if state.is_terminal():
            raise GamehallError("nothing to search: the game is over")
        game = state.game
        if self.rave is not None:
            amaf.check_game(game.name)
            self._k = self.rave
            self._np_rng = np.random.default_rng(self.rng.getrandbits(64))
        self._setup(game)
        if self.ordering is not None:
            self._scorer = order.check(self.evaluator, game.name)
        root = self._reused_root(state)
        if root is None:
            root = self._new_node(state, -1, -1)
        allowed = self._allowed
        if allowed is not None and root.table is None:  # (a RAVE root selects over its table)
            root.untried = [a for a in root.untried if a in allowed]
        stats = SearchStats(reused_visits=root.n)
        self._root_sums = {} if self.track_root_returns else None
        limit = self.simulations if self.simulations is not None else math.inf
        done = 0
        clock = self.clock
        slowest = 0.0
        while done < limit and root.proven is None:
            began = clock()
            # stop when the next simulation, if as slow as the slowest so far, would end late
            if deadline is not None and began + slowest >= deadline:
                break
            if self._simulate(root, state, deadline):
                done += 1
            slowest = max(slowest, clock() - began)
        stats.simulations = done
        stats.root_visits = root.n
        stats.solved = root.proven is not None
        self.stats = stats
        self._root = root
        self._root_state = state.clone()
        self._root_history = state.history()
        return root

    def _playout_deadline(self, deadline: float | None) -> float | None:
        """The deadline as evaluators read it (`time.perf_counter`): what is left on the bot's
        own clock, from now."""
        if deadline is None or self.clock is time.perf_counter:
            return deadline
        return time.perf_counter() + (deadline - self.clock())

    def _setup(self, game: Game) -> None:
        if self._evaluator_game != game:
            if self._evaluator_game is not None:
                self.reset()
            self._evaluator_game = game
            self.evaluator = self._evaluator or default_evaluator(game)
            self._lo = game.min_utility
            span = game.max_utility - game.min_utility
            self._scale = 1.0 / span if span > 0 else 1.0
            self._max_utility = game.max_utility
            self._width = game.num_distinct_actions
            self._solving = (self.solve and game.num_players == 2
                             and game.utility_sum is not None)

    def _new_node(self, state: State, action: int, owner: int) -> Node:
        player = state.current_player()
        node = Node(action, owner, player)
        if player == TERMINAL:
            self._set_proven(node, state.returns())
        elif player == CHANCE:
            outcomes = state.chance_outcomes()
            node.outcomes = [a for a, _ in outcomes]
            node.cumulative = list(accumulate(p for _, p in outcomes))
        else:
            node.untried = list(state.legal_actions())  # a copy: we consume it
            if self.rave is not None:
                node.table = amaf.new_table(self._width, node.untried, self._np_rng)
        return node

    def _set_proven(self, node: Node, returns: list[float]) -> None:
        node.proven = list(returns)
        lo, scale = self._lo, self._scale
        node.proven_norm = [(r - lo) * scale for r in returns]
        if node.owner >= 0:
            node.q = node.proven_norm[node.owner]
            node.isq = 0.0

    def _simulate(self, root: Node, root_state: State, deadline: float | None) -> bool:
        """One selection–expansion–evaluation–backup pass; False if cut off by the deadline."""
        state = root_state.clone()
        node = root
        path = [root]
        rng = self.rng
        while node.proven is None:
            player = node.player
            if player == CHANCE:
                action = node.outcomes[
                    bisect_right(node.cumulative, rng.random() * node.cumulative[-1])
                    if len(node.outcomes) > 1 else 0]
                if (self.chance_widening is not None and action not in node.children
                        and node.children and not self._may_widen(node)):
                    action = self._known_outcome(node, rng)
                state.apply_action(action)
                child = node.children.get(action)
                if child is None:
                    child = self._new_node(state, action, -1)
                    node.children[action] = child
                    path.append(child)
                    node = child
                    break
            elif node.table is not None:
                action = amaf.select(node.table, node.n, amaf.EXPLORATION)
                child = node.children.get(action)
                if child is None:
                    if deadline is not None and self.clock() > deadline:
                        return False
                    node.untried.remove(action)
                    node = self._expand(node, state, action, path)
                    break
                state.apply_action(action)
            elif node.untried and (self.ordering is None or len(node.children) < order.allowed(
                    *self.ordering, node.n)):
                if deadline is not None and self.clock() > deadline:
                    return False  # expanding may be costly (a new position's legal actions)
                untried = node.untried
                if self.ordering is not None:
                    if not node.ordered:
                        node.untried = untried = order.ordered(
                            untried, self._scorer.score_actions(state, untried), rng)
                        node.ordered = True
                    action = untried.pop()  # the best-scored action not tried yet
                else:
                    last = len(untried) - 1
                    pick = int(rng.random() * (last + 1))  # a random untried action, O(1)
                    action = untried[pick]
                    untried[pick] = untried[last]
                    untried.pop()
                node = self._expand(node, state, action, path)
                break
            else:
                child = self._select(node)
                state.apply_action(child.action)
            path.append(child)
            node = child
        played = len(state.history()) if self.rave is not None else 0
        if node.proven is not None:
            values = node.proven_norm
        else:
            estimate = self.evaluator.evaluate(state, rng, self._playout_deadline(deadline))
            if estimate is None:
                return False
            lo, scale = self._lo, self._scale
            values = [(r - lo) * scale for r in estimate]
        sqrt = math.sqrt
        parent: Node | None = None
        for visited in path:
            n = visited.n = visited.n + 1
            owner = visited.owner
            if owner >= 0:
                w = visited.w = visited.w + values[owner]
                if visited.proven is None:
                    q = visited.q = w / n
                    isq = visited.isq = 1.0 / sqrt(n)
                    arrays = parent.arrays if parent is not None else None
                    if arrays is not None:
                        arrays[0][visited.slot] = q
                        arrays[1][visited.slot] = isq
                    if parent is not None and parent.table is not None:
                        amaf.record_child(parent.table, visited.action, self._k, n, q)
                elif parent is not None and parent.table is not None:
                    amaf.record_proven(parent.table, visited.action, visited.q)
            parent = visited
        if self.rave is not None:
            self._amaf_update(path, state.history()[played:], values)
        sums = self._root_sums
        if sums is not None and len(path) > 1:
            self._add_root_returns(sums, path[1].action, values)
        if self._solving and node.proven is not None:
            self._propagate_proof(path)
        if self.ordering is not None:
            self._turn_max(path)
        return True

    def _expand(self, node: Node, state: State, action: int, path: list[Node]) -> Node:
        """Play the untried `action` (already taken off `node.untried`) and add its child, the
        leaf of this simulation."""
        state.apply_action(action)
        child = self._new_node(state, action, node.player)
        child.slot = len(node.children)
        node.children[action] = child
        path.append(child)
        return child

    @staticmethod
    def _turn_max(path: list[Node]) -> None:
        """With ordered widening: a node where the seat that chose into it moves again (a later
        step of the same turn) is worth, to that seat, its best child, not the mean of the
        completions tried (bottom-up along `path`, after the means are backed up)."""
        for i in range(len(path) - 2, 0, -1):
            node = path[i]
            if node.owner != node.player or node.proven is not None:
                continue
            # a child cut off by the deadline before its first backup has no value yet
            best = max((c.q for c in node.children.values() if c.n), default=None)
            if best is None:
                continue
            node.q = best
            arrays = path[i - 1].arrays
            if arrays is not None:
                arrays[0][node.slot] = node.q

    @staticmethod
    def _amaf_update(path: list[Node], rollout: list[int], values: list[float]) -> None:
        """RAVE: at each node of `path`, count every action its seat played after it in this
        simulation (seats alternate one action each: see `ai/rave.py`), tree part and rollout."""
        later = np.array([node.action for node in path[1:]] + rollout, dtype=np.intp)
        for i, node in enumerate(path):
            table = node.table
            if table is not None and node.player >= 0:
                amaf.update(table, later[i::2], values[node.player])

    @staticmethod
    def _add_root_returns(sums: dict[int, list[float]], action: int,
                          values: list[float]) -> None:
        """Count one simulation through the root child `action`: [count, sum per seat...]."""
        acc = sums.get(action)
        if acc is None:
            sums[action] = [1.0, *values]
            return
        acc[0] += 1.0
        for i, v in enumerate(values, start=1):
            acc[i] += v

    @property
    def root_returns(self) -> dict[int, ChildReturns]:
        """Each root child of the last search (`track_root_returns` on): visits and mean return
        per seat. Visits count this search's simulations only (a reused subtree's earlier ones
        carry no per-seat sums); a proven child has its exact returns whatever its visits; a
        child no simulation of this search came back through is left out."""
        root, sums = self._root, self._root_sums
        if root is None or sums is None:
            raise GamehallError("root_returns needs a search with track_root_returns=True")
        out: dict[int, ChildReturns] = {}
        for action, child in root.children.items():
            acc = sums.get(action)
            count = int(acc[0]) if acc else 0
            if child.proven is not None:
                out[action] = ChildReturns(count, tuple(child.proven_norm), True)
            elif acc:
                out[action] = ChildReturns(count, tuple(x / acc[0] for x in acc[1:]), False)
        return out

    def _may_widen(self, node: Node) -> bool:
        """Whether the chance node `node` may take one more distinct outcome (widening on)."""
        assert self.chance_widening is not None
        k, alpha = self.chance_widening
        return len(node.children) < math.ceil(k * (node.n + 1) ** alpha)

    @staticmethod
    def _known_outcome(node: Node, rng: random.Random) -> int:
        """One of the outcomes already under the chance node `node`, in proportion to their
        probabilities (so the draw stays the chance distribution restricted to them)."""
        index = {a: i for i, a in enumerate(node.outcomes)}
        cum = node.cumulative
        known = list(node.children)
        weights = [cum[index[a]] - (cum[index[a] - 1] if index[a] else 0.0) for a in known]
        if len(known) == 1:
            return known[0]
        cumulative = list(accumulate(weights))
        pick = bisect_right(cumulative, rng.random() * cumulative[-1])
        return known[min(pick, len(known) - 1)]

    def _select(self, node: Node) -> Node:
        """The child with the best UCT value for the seat to move at `node` (the first on ties).

        Children keep their own mean `q` and `1/sqrt(n)` (a proven child: its exact value and no
        bonus), so the loop is one multiply-add per child. A wide node, the first time it is
        selected from, copies those into two arrays that the backup keeps up to date, and
        selects with one vectorised multiply-add.
        """
        c_log = self.uct_c * math.sqrt(math.log(node.n)) if node.n > 1 else 0.0
        arrays = node.arrays
        if arrays is None and len(node.children) >= WIDE:
            node.kids = kids = list(node.children.values())
            arrays = node.arrays = (np.array([c.q for c in kids]), np.array([c.isq for c in kids]))
        if arrays is not None:
            return node.kids[int((arrays[0] + c_log * arrays[1]).argmax())]
        best: Node | None = None
        best_value = -math.inf
        for child in node.children.values():
            value = child.q + c_log * child.isq
            if value > best_value:
                best_value = value
                best = child
        assert best is not None
        return best

    def _propagate_proof(self, path: list[Node]) -> None:
        """Back a proven value up through decision nodes (2-player constant-sum games only)."""
        for i in range(len(path) - 1, 0, -1):
            child, parent = path[i], path[i - 1]
            player = parent.player
            if parent.proven is not None or player < 0 or child.proven is None:
                return
            if child.proven[player] >= self._max_utility:
                self._set_proven(parent, child.proven)
                self._sync(path, i - 1)
                continue
            if parent.untried:
                return
            best: list[float] | None = None
            for sibling in parent.children.values():
                if sibling.proven is None:
                    return
                if best is None or sibling.proven[player] > best[player]:
                    best = sibling.proven
            assert best is not None
            self._set_proven(parent, best)
            self._sync(path, i - 1)

    @staticmethod
    def _sync(path: list[Node], i: int) -> None:
        """Mirror the value of `path[i]`, just proven, in its parent's selection arrays."""
        if i == 0:
            return
        parent, node = path[i - 1], path[i]
        if parent.arrays is not None:
            parent.arrays[0][node.slot] = node.q
            parent.arrays[1][node.slot] = node.isq
        if parent.table is not None:
            amaf.record_proven(parent.table, node.action, node.q)

    # --- choosing and reuse ----------------------------------------------------------------
    def best_action(self, root: Node, state: State) -> int:
        """The move `choose` plays after `search(state)` returned `root`: an immediate or proven
        win; else the most visited child not proven to lose; during a floored `choose`, among
        the actions the floor allows only."""
        player = root.player
        allowed = self._allowed
        children = [c for c in root.children.values() if allowed is None or c.action in allowed]
        if not children:
            return self.rng.choice(sorted(allowed) if allowed is not None
                                   else state.legal_actions())
        proven = [c for c in children if c.proven is not None]
        if proven:
            top = max(c.proven_norm[player] for c in proven)
            if top >= 1.0 or root.proven is not None:
                return max((c for c in proven if c.proven_norm[player] == top),
                           key=lambda c: c.n).action
            losing = {id(c) for c in proven if c.proven_norm[player] <= 0.0}
            alive = [c for c in children if id(c) not in losing]
            if alive:
                children = alive
        return max(children, key=lambda c: c.n).action

    def root_value(self) -> float | None:
        """The mover's expected return, scaled to 0..1, at the root of the last `choose`'s search
        (its most visited child's mean; exact once proven); None if that move was not searched."""
        root = self._root
        if root is None or self.stats.root_visits == 0 or not root.children:
            return None
        if root.proven is not None:
            return root.proven_norm[root.player]
        best = max(root.children.values(), key=lambda c: c.n)
        return best.q if best.n else None

    def _reused_root(self, state: State) -> Node | None:
        """The kept subtree for `state`, if the actions since the last search lead to it."""
        old, replay = self._root, self._root_state
        if not self.reuse or old is None or replay is None or replay.game != state.game:
            return None
        history = state.history()
        known = self._root_history
        if len(history) < len(known) or history[:len(known)] != known:
            return None
        node = old
        replay = replay.clone()
        for action in history[len(known):]:
            child = node.children.get(action)
            if child is None or not replay.is_legal(action):
                return None
            replay.apply_action(action)
            node = child
        if node.player != state.current_player() or replay.to_json() != state.to_json():
            return None
        node.owner = -1
        return node
