"""MCTS over whole turns (`TurnSearchBot`), for games whose turns take several actions of one
seat and that can list every way to finish one (`gamehall.core.TurnMoves`: Hau La).

Plain MCTS over a turn's steps (piece, hole, rotation, side, tag in Hau La) values a step by
the completions it happened to try below it, and a leaf's value depends on how deep into a turn
it lies: in Hau La it grew weaker with more simulations (benchmarks/README.md, "The ladder
table"). Here an edge is a whole turn, so every leaf is a position between turns:

- a node keeps its position and, once expanded from, its turns (listed once, `turn_moves`) in
  the order the evaluator scores them (`gamehall.core.TurnScorer`: the mover's value after each,
  none played), best first; a node visited n times has at most ceil(k·(n+1)^alpha) children
  (progressive widening), so the simulations go to the likely turns, the replies included;
- selection is UCT on each child's mean return to the seat that chose it (2–4 players alike);
- a leaf is valued by the game's evaluator; a terminal one by its returns;
- chance after a turn is sampled once when the child is made (the node keeps that outcome).

`choose` plays the chosen turn's first action and keeps the rest as its plan for the next
calls, as long as the game goes on along it; a fresh bot in the middle of a turn (the hall makes
one per step) searches the completions of the choices already made.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Collection, Sequence
from typing import cast

from gamehall.ai.bot import Bot
from gamehall.ai.evaluators import Evaluator, default_evaluator
from gamehall.ai.mcts import SearchStats
from gamehall.core import CHANCE, TERMINAL, GamehallError, State, TurnMoves, TurnScorer, offers

WIDENING = (1.0, 0.5)
"""(k, alpha): a node visited n times keeps at most ceil(k·(n+1)^alpha) children."""
UCT_C = 0.1
"""UCT's exploration constant on returns scaled to 0..1: a turn's values differ by hundredths,
so 0.5 spread the visits nearly evenly; 0.1 beat it at 300 simulations (24-0-10, accepted)."""


class TurnNode:
    """A position between turns, reached by the turn `move` of seat `owner`."""

    __slots__ = ("state", "move", "owner", "player", "n", "w", "children", "untried",
                 "proven")

    def __init__(self, state: State, move: tuple[int, ...], owner: int) -> None:
        self.state = state
        self.move = move
        self.owner = owner
        """The seat that played `move` (whose return `w` sums); -1 at the root."""
        self.player = state.current_player()
        self.n = 0
        self.w = 0.0
        self.children: list[TurnNode] = []
        self.untried: list[tuple[int, ...]] | None = None
        """The turns not expanded yet, worst-scored first (None: not listed yet)."""
        self.proven: list[float] | None = None
        """Normalised returns of a terminal position."""

    @property
    def q(self) -> float:
        return self.w / self.n if self.n else 0.0


def check(state: State, evaluator: Evaluator) -> TurnScorer | None:
    """The evaluator as a turn scorer (None: turns are tried in random order); a clear error
    where the game cannot list its turns."""
    if not offers(state, TurnMoves):
        raise GamehallError(f"a search over whole turns needs a game that lists its turns "
                            f"(turn_moves); {state.game.name} does not")
    return cast(TurnScorer, evaluator) if offers(evaluator, TurnScorer) else None


class TurnSearchBot(Bot):
    """MCTS whose moves are whole turns, with evaluator-ordered progressive widening."""

    name = "turns"

    def __init__(self, seed: int | None = None, *, simulations: int | None = 200,
                 seconds: float | None = None, uct_c: float = UCT_C,
                 widening: tuple[float, float] = WIDENING,
                 others_widening: tuple[float, float] | None = None,
                 evaluator: Evaluator | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(seed)
        if simulations is None and seconds is None:
            raise GamehallError("a search budget needs simulations, seconds, or both")
        if simulations is not None and simulations < 1:
            raise GamehallError("simulations must be at least 1")
        if widening[0] <= 0 or not 0 <= widening[1] <= 1:
            raise GamehallError("widening needs k > 0 and 0 <= alpha <= 1")
        self.simulations = simulations
        self.seconds = seconds
        self.uct_c = uct_c
        self.widening = widening
        if others_widening is not None and (others_widening[0] <= 0
                                            or not 0 <= others_widening[1] <= 1):
            raise GamehallError("widening needs k > 0 and 0 <= alpha <= 1")
        self.others_widening = others_widening
        """(k, alpha) at nodes where another seat than the root's moves (None: `widening`);
        alpha 0 with k 1 follows each other seat's best-scored turn only."""
        self._me = -1
        self.clock = clock
        self._evaluator = evaluator
        self._plan: list[int] = []
        self._plan_history: list[int] = []
        self.simulations_done = 0
        """Simulations the last search ran (tests, benchmarks)."""
        self.stats = SearchStats()
        """What the last `choose` did (`MCTSBot`'s form: simulations, seconds, root visits)."""

    def reset(self) -> None:
        self._plan, self._plan_history = [], []

    # --- choosing ------------------------------------------------------------------------------
    def choose(self, state: State, allowed: Collection[int] | None = None) -> int:
        """The next action of the best whole turn; with `allowed` (a level's floor), only turns
        whose next action it allows (all of them if it allows none of their first actions)."""
        start = self.clock()
        self.stats = SearchStats()
        if (self._plan and state.history() == self._plan_history
                and state.is_legal(self._plan[0])
                and (allowed is None or self._plan[0] in allowed)):
            return self._next_of_plan(state)
        moves = cast(TurnMoves, state).turn_moves() if offers(state, TurnMoves) else None
        if moves is None:
            raise GamehallError(f"{state.game.name} does not list its turns (turn_moves)")
        if allowed is not None:
            moves = [m for m in moves if m[0] in allowed] or moves
        if len(moves) == 1:
            best = moves[0]
        else:
            deadline = start + self.seconds if self.seconds is not None else None
            root = self.search(state, deadline, moves)
            best = self.best_move(root) if root.children else self.rng.choice(moves)
            self.stats = SearchStats(simulations=self.simulations_done, root_visits=root.n)
        self.stats.seconds = self.clock() - start
        self._plan = list(best)
        self._plan_history = state.history()
        return self._next_of_plan(state)

    def _next_of_plan(self, state: State) -> int:
        action = self._plan.pop(0)
        self._plan_history = [*state.history(), action]
        return action

    @staticmethod
    def best_move(root: TurnNode) -> tuple[int, ...]:
        """The most visited turn (the better mean on a tie)."""
        return max(root.children, key=lambda c: (c.n, c.q)).move

    # --- search --------------------------------------------------------------------------------
    def search(self, state: State, deadline: float | None = None,
               moves: Sequence[tuple[int, ...]] | None = None) -> TurnNode:
        """Run the budgeted search from `state` (a decision node), over `moves` at the root
        (default: all its turns); return the root."""
        if state.is_terminal():
            raise GamehallError("nothing to search: the game is over")
        self._prepare(state)
        root = TurnNode(state.clone(), (), -1)
        self._me = root.player
        if moves is not None:
            root.untried = self._ordered_moves(root.state, list(moves))
        limit = self.simulations if self.simulations is not None else math.inf
        done = 0
        slowest = 0.0
        while done < limit:
            began = self.clock()
            if deadline is not None and began + slowest >= deadline:
                break
            if not self._simulate(root):
                break  # every turn from the root leads to a proven end: nothing more to learn
            done += 1
            slowest = max(slowest, self.clock() - began)
        self.simulations_done = done
        return root

    def _prepare(self, state: State) -> None:
        """The game's evaluator (as a turn scorer where it is one) and utility scale."""
        game = state.game
        self.evaluator = self._evaluator or default_evaluator(game)
        self._scorer = check(state, self.evaluator)
        self._lo = game.min_utility
        span = game.max_utility - game.min_utility
        self._scale = 1.0 / span if span > 0 else 1.0

    def _simulate(self, root: TurnNode) -> bool:
        node = root
        path = [root]
        while True:
            if node.proven is not None:
                values = node.proven
                break
            if node.untried is None:
                node.untried = self._ordered_moves(node.state)
            k, alpha = (self.others_widening if self.others_widening is not None
                        and node.player != self._me else self.widening)
            if node.untried and len(node.children) < math.ceil(k * (node.n + 1) ** alpha):
                child = self._expand(node, node.untried.pop())
                path.append(child)
                values = child.proven if child.proven is not None else self._value(child.state)
                break
            if not node.children:
                return False
            node = self._select(node)
            path.append(node)
        for visited in path:
            visited.n += 1
            if visited.owner >= 0:
                visited.w += values[visited.owner]
        return True

    def _ordered_moves(self, state: State,
                       moves: list[tuple[int, ...]] | None = None) -> list[tuple[int, ...]]:
        """The position's turns (or `moves`), worst-scored first (so `pop()` gives the best);
        equal scores in an order drawn from the bot's generator."""
        if moves is None:
            moves = cast(TurnMoves, state).turn_moves()
        if self._scorer is None:
            scores: Sequence[float] = [0.0] * len(moves)
        else:
            scores = self._scorer.score_turns(state, moves)
        rng = self.rng
        keyed = sorted((float(s), rng.random(), i) for i, s in enumerate(scores))
        return [moves[i] for _, _, i in keyed]

    def _expand(self, node: TurnNode, move: tuple[int, ...]) -> TurnNode:
        state = node.state.clone()
        for action in move:
            state.apply_action(action)
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(self.rng))
        child = TurnNode(state, move, node.player)
        if child.player == TERMINAL:
            child.proven = self._normalised(state.returns())
        node.children.append(child)
        return child

    def _value(self, state: State) -> list[float]:
        estimate = self.evaluator.evaluate(state, self.rng)
        if estimate is None:
            raise GamehallError("the evaluator gave no value (a turn search has no deadline "
                                "inside an evaluation)")
        return self._normalised(estimate)

    def _normalised(self, returns: Sequence[float]) -> list[float]:
        lo, scale = self._lo, self._scale
        return [(r - lo) * scale for r in returns]

    def _select(self, node: TurnNode) -> TurnNode:
        c_log = self.uct_c * math.sqrt(math.log(node.n)) if node.n > 1 else 0.0
        best = node.children[0]
        best_value = -math.inf
        for child in node.children:
            value = child.q + c_log / math.sqrt(child.n) if child.n else math.inf
            if value > best_value:
                best, best_value = child, value
        return best


def make_turns(level: str | None, seed: int | None) -> TurnSearchBot:
    """The ``turns:N`` entry of the bot factory: N simulations a move (default 200);
    ``+cX``: UCT's constant X (default `UCT_C`); ``+oA``: widening alpha A at the other seats'
    nodes (k 1)."""
    text = (level or "").strip().lower()
    number = r"(\d+(?:\.\d*)?|\.\d+)"
    match = re.fullmatch(rf"(\d*)(?:\+c{number})?(?:\+o{number})?", text)
    if match is None or (match.group(1) and int(match.group(1)) < 1):
        raise GamehallError(f"turns:N[+cX][+oA] takes a number of simulations and optionally "
                            f"UCT's constant and the other seats' widening, not {level!r}")
    simulations = int(match.group(1)) if match.group(1) else 200
    c = float(match.group(2)) if match.group(2) else UCT_C
    others = (1.0, float(match.group(3))) if match.group(3) else None
    return TurnSearchBot(seed, simulations=simulations, uct_c=c, others_widening=others)


__all__ = ["TurnNode", "TurnSearchBot", "make_turns"]
