"""A leaf evaluator for MCTS that reads the table instead of playing on (`gamehall.evaluators`).

A Hau La turn is one placement chosen in several steps, and every complete placement of the
current choice is already enumerated (with its touch flag and the height its tag would get) when
the placement starts. So a position in the middle of a placement is valued without playing any
further: once the placer has chosen something, it is credited with the best it can still reach
among the placements left — the highest tag among the touch-free ones, or, for a touching one,
its current height (the building reverts) less a penalty for the piece it loses. Every other seat
keeps its current height. Right after a placement the heights count as they are (a culprit whose
piece is being handed over: less the penalty). The estimate is a softmax over those heights (the
highest tag is the likely winner), blended with a small term for each seat's own height.

Why each part (all found in games against `random`, see `src/gamehall/ai/README.md`):
- the placer is credited only once it has chosen: crediting the next seat's best reply right
  after a touch-free placement, but not after a touching one (there is no table for that yet),
  made touching look safe — the first version announced touching first placements;
- the touch penalty: MCTS averages over a placement's later steps, and a subtree of touching
  placements all keep the height exactly while touch-free siblings may put the tag lower, so the
  search preferred touching (one placement in four, a lost game among them);
- the own-height term: far ahead, the softmax says "won" for every placement alike.

Nothing is applied to the state and no placement is enumerated here: a value costs a few numpy
operations on rows the engine already holds. It imports only the engine (the interface,
`gamehall.core.Evaluator`, is structural); it is registered in ``pyproject.toml`` under
``gamehall.evaluators``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np

from gamehall.core import Game, State
from gamehall.games.hau_la.placements import FIRST, SECOND
from gamehall.games.hau_la.rules import STEP_RANGE, HauLaState
from gamehall.games.hau_la.turns import HANDOVER, OVER, PLACE, Table

HEIGHT_SCALE = 30.0
"""Heights are divided by this (and capped at 1) for the own-height term; tags end near 20."""


class HauLaEvaluator:
    """Softmax over tag heights, with the placer's best reachable completion counted, plus a
    small term for each seat's own height."""

    def __init__(self, game: Game, temperature: float = 1.5, height_weight: float = 0.2,
                 touch_penalty: float = 3.0) -> None:
        self.temperature = temperature
        self.height_weight = height_weight
        self.touch_penalty = touch_penalty

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        assert isinstance(state, HauLaState), "the Hau La evaluator values Hau La states"
        table = state.table
        if table.phase == OVER:
            return state.returns()
        heights = table.heights()
        if started(table):
            heights[table.placer] = best_height(table, self.touch_penalty)
        elif table.phase == HANDOVER:
            h = heights[table.culprit]
            heights[table.culprit] = None if h is None else h - self.touch_penalty
        return mix(softmax(heights, self.temperature), heights, self.height_weight)

    def score_actions(self, state: State, actions: Sequence[int]) -> list[float]:
        """The placer's value after each of `actions` (MCTS's ``+order``), as `evaluate` gives
        it for the position after the action, without playing any: the best of the open
        placements that agree with the action (`outcome_heights`, grouped by the step's value).
        Outside a turn placement (pieces handed over, bonus joints, first-turn pieces) nobody's
        height depends on the choice, so every action scores the position's value."""
        assert isinstance(state, HauLaState), "the Hau La evaluator values Hau La states"
        table = state.table
        seat = table.placer
        step = table.step() if table.phase == PLACE and table.placements is not None else None
        if step is None:
            here = self.evaluate(state, random.Random(0))
            assert here is not None
            return [here[seat]] * len(actions)
        assert table.placements is not None
        outcome = outcome_heights(table, self.touch_penalty)
        values = table.placements.rows[table.rows, step]
        base = state.ranges[STEP_RANGE[step]]
        heights = table.heights()
        scores = []
        for action in actions:
            best = float(outcome[values == action - base].max())
            heights[seat] = None if best == -math.inf else best
            scores.append(mix(softmax(heights, self.temperature), heights,
                              self.height_weight)[seat])
        return scores

    def score_turns(self, state: State, moves: Sequence[tuple[int, ...]]) -> list[float]:
        """The placer's value after each whole placement of `moves` (`HauLaState.turn_moves`:
        `gamehall.core.TurnScorer`), without making any: as `evaluate` credits a placer that
        has chosen, the height that placement leaves it (`outcome_heights`, a touching one less
        the penalty) in the softmax with every other seat's height now. Outside a turn
        placement (hand-overs, bonus joints, first-turn pieces) every move scores the
        position's value."""
        assert isinstance(state, HauLaState), "the Hau La evaluator values Hau La states"
        table = state.table
        seat = table.placer
        if table.phase != PLACE or table.placements is None:
            here = self.evaluate(state, random.Random(0))
            assert here is not None
            return [here[seat]] * len(moves)
        outcome = outcome_heights(table, self.touch_penalty).tolist()
        heights = table.heights()
        memo: dict[float, float] = {}
        by_move: dict[tuple[int, ...], float] = {}
        for move, best in zip(state.turn_moves(), outcome, strict=True):
            value = memo.get(best)
            if value is None:
                heights[seat] = None if best == -math.inf else best
                value = memo[best] = mix(softmax(heights, self.temperature), heights,
                                         self.height_weight)[seat]
            by_move[move] = value
        return [by_move[m] for m in moves]


def started(table: Table) -> bool:
    """Whether a turn placement is under way and its placer has chosen something (forced steps
    keep every row, so they do not count)."""
    found = table.placements
    return table.phase == PLACE and found is not None and len(table.rows) < len(found)


def outcome_heights(table: Table, touch_penalty: float = 0.0) -> np.ndarray:
    """For each placement still open (`table.rows`), the placer's height after it.

    A touch-free placement: the higher of its new tag and the placer's tags it leaves in place
    (a joint between both of a 2-player seat's tag holes lifts both). A touching one: the height
    now (the building reverts), less `touch_penalty` for the piece lost. Only for a turn placement
    (`PLACE`), which always places a tag.
    """
    found = table.placements
    assert found is not None
    rows = table.rows
    seat = table.placer
    now = table.heights()[seat]
    result = found.height[rows].copy()
    plans = found.rows[rows]
    for i, tag in enumerate(table.tags):
        if tag.owner != seat or tag.hole < 0:
            continue
        h = table.tag_height(i)
        assert h is not None
        stays = (plans[:, FIRST] != tag.hole) & (plans[:, SECOND] != tag.hole)
        result = np.where(stays, np.maximum(result, h), result)
    touch = found.touch[rows]
    kept = -math.inf if now is None else now - touch_penalty
    return np.where(touch, kept, np.round(result, 4))


def best_height(table: Table, touch_penalty: float = 0.0) -> float | None:
    """The highest the placer can be after the placement under way (None: no tag anywhere)."""
    best = float(outcome_heights(table, touch_penalty).max())
    return None if best == -math.inf else best


def mix(chances: list[float], heights: Sequence[float | None], weight: float) -> list[float]:
    """`chances` blended with each seat's own height (scaled to 0..1; no tag: 0).

    The softmax saturates: far ahead (or far behind), every placement looks alike to it, and a
    search then chose among them at random, touching ones included (a touch wastes the piece).
    The own-height term keeps "higher is better" visible there; close games are still decided by
    the softmax. The values no longer sum to exactly 1 (MCTS needs only each seat's own value).
    """
    if weight == 0:
        return chances
    return [(1 - weight) * c + weight * (0.0 if h is None else min(1.0, max(0.0, h) / HEIGHT_SCALE))
            for c, h in zip(chances, heights, strict=True)]


def softmax(heights: Sequence[float | None], temperature: float) -> list[float]:
    """Win estimates from heights; a seat without a tag counts as well below the lowest."""
    known = [h for h in heights if h is not None]
    floor = min(known) - 3 * temperature if known else 0.0
    scaled = [(h if h is not None else floor) / temperature for h in heights]
    top = max(scaled)
    weights = [math.exp(v - top) for v in scaled]
    total = sum(weights)
    return [w / total for w in weights]
