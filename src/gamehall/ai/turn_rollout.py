"""Whole turns judged by playing the game out (`TurnRolloutBot`, ``rollout:N``), for games that
list their turns and score them (`gamehall.core.TurnMoves`, `TurnScorer`: Hau La).

Why: at 4 players Hau La's search over whole turns did not gain from simulations (`turns:1000`
scored 18-0-19 against `turns:40`, benchmarks/README.md): its leaves are valued by the
evaluator on the heights as they are, and with three seats moving between two of one's own
turns, what decides is where the later turns can still reach, which a leaf does not see. Here a
candidate turn is valued by what actually happens after it: the game is played to its end by
every seat taking its best-scored turn (the evaluator's one-ply `score_turns`), now and then
(`epsilon`) one of its few next-best instead, and the result (who won) is what counts. That is
a rollout algorithm over the greedy policy: against opponents who play close to their
best-scored turn (the `medium` search), it sees the end they are heading for.

- the candidates are the position's `width` best-scored turns (a level's floor applied first);
- each is played out once, then the playouts go to the candidates by UCB1 on their win rates;
- the chosen turn is the most played out, the better win rate on a tie, the better score on
  one more (`TurnSearchBot.best_move`; the candidates are in score order, best first).

A playout costs a turn enumeration per turn left (Hau La: 1–4 ms a turn, 20–60 ms a game from
the start).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence

from gamehall.ai.evaluators import Evaluator
from gamehall.ai.turn_search import TurnNode, TurnSearchBot
from gamehall.core import CHANCE, GamehallError, State

WIDTH = 16
"""Candidate turns at the root: the best-scored ones."""
EPSILON = 0.2
"""In a playout, the chance a seat takes one of its next-best turns instead of its best."""
NEXT_BEST = 3
"""How many next-best turns an `EPSILON` choice draws from."""
UCB_C = 0.4
"""UCB1's constant on win rates (0..1)."""


class TurnRolloutBot(TurnSearchBot):
    """Flat Monte Carlo over a position's best-scored turns with greedy playouts to the end."""

    name = "rollout"

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int | None = 48,
        seconds: float | None = None,
        width: int = WIDTH,
        epsilon: float = EPSILON,
        evaluator: Evaluator | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(
            seed, simulations=simulations, seconds=seconds, evaluator=evaluator, clock=clock
        )
        if width < 1:
            raise GamehallError("a rollout search needs at least one candidate turn")
        if not 0 <= epsilon <= 1:
            raise GamehallError("epsilon is a probability: between 0 and 1")
        self.width = width
        self.epsilon = epsilon

    def search(
        self,
        state: State,
        deadline: float | None = None,
        moves: Sequence[tuple[int, ...]] | None = None,
    ) -> TurnNode:
        """Play out the best-scored `width` turns of `state` (or of `moves`) within the budget;
        the root's children are the candidates, each with its playouts (n) and wins (w)."""
        if state.is_terminal():
            raise GamehallError("nothing to search: the game is over")
        self._prepare(state)
        root = TurnNode(state.clone(), (), -1)
        me = self._me = root.player
        ordered = self._ordered_moves(root.state, list(moves) if moves is not None else None)
        for move in reversed(ordered[-self.width :]):  # best-scored first
            self._expand(root, move)
        limit = self.simulations if self.simulations is not None else math.inf
        done, slowest = 0, 0.0
        while done < limit:
            began = self.clock()
            if deadline is not None and began + slowest >= deadline:
                break
            child = root.children[done] if done < len(root.children) else self._ucb(root)
            won = self._playout(child.state)[me]
            child.n += 1
            child.w += won
            root.n += 1
            done += 1
            slowest = max(slowest, self.clock() - began)
        self.simulations_done = done
        return root

    def _ucb(self, root: TurnNode) -> TurnNode:
        log_n = math.log(root.n)
        return max(
            root.children, key=lambda c: c.q + UCB_C * math.sqrt(log_n / c.n) if c.n else math.inf
        )

    def _playout(self, state: State) -> list[float]:
        """Play a copy of `state` to its end, each seat taking its best-scored turn (sometimes
        one of the next-best); the normalised returns."""
        state = state.clone()
        rng = self.rng
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            ranked = self._ordered_moves(state)  # worst first
            pick = -1
            if self.epsilon and len(ranked) > 1 and rng.random() < self.epsilon:
                pick = -1 - rng.randrange(1, min(NEXT_BEST, len(ranked) - 1) + 1)
            for action in ranked[pick]:
                state.apply_action(action)
        return self._normalised(state.returns())


def make_rollout(level: str | None, seed: int | None) -> TurnRolloutBot:
    """The ``rollout:N`` entry of the bot factory: N playouts a move (default 48); ``+wK``:
    K candidate turns (default `WIDTH`); ``+eE``: epsilon E (default `EPSILON`)."""
    text = (level or "").strip().lower()
    number = r"(\d+(?:\.\d*)?|\.\d+)"
    match = re.fullmatch(rf"(\d*)(?:\+w(\d+))?(?:\+e{number})?", text)
    if match is None or (match.group(1) and int(match.group(1)) < 1):
        raise GamehallError(
            f"rollout:N[+wK][+eE] takes a number of playouts and optionally the "
            f"candidate turns and epsilon, not {level!r}"
        )
    return TurnRolloutBot(
        seed,
        simulations=int(match.group(1)) if match.group(1) else 48,
        width=int(match.group(2)) if match.group(2) else WIDTH,
        epsilon=float(match.group(3)) if match.group(3) else EPSILON,
    )


__all__ = ["TurnRolloutBot", "make_rollout"]
