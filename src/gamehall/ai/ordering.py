"""Evaluator-ordered progressive widening for `MCTSBot` (``+order``): a decision node tries its
actions best-scored first and takes one more only as its visits grow; within a multi-step turn a
step is worth its best continuation, not the mean of those tried.

In Hau La a turn is one placement chosen in five steps (piece, holes, rotation, sides, tag), and
its evaluator credits the placer with the best placement still reachable. Plain UCT tries every
option of a step (they are few), then averages each with the worse completions it tries below
it: more simulations drifted an option's value from its best towards the mean of a random
handful, and `medium` did not beat `easy` (`benchmarks/README.md`, the ladder). Here:

- a node, the first time it is expanded from, asks the evaluator for every action's value for
  its mover (`gamehall.core.ActionScorer`: one call, no action played) and expands them in that
  order; a node visited n times keeps at most ceil(k·(n+1)^alpha) children (`allowed`), so the
  simulations follow the likely placements, the opponent's best reply included;
- a node where the seat that chose into it moves again (a later step of its own turn) takes as
  its value its best visited child's (`MCTSBot._turn_max`): the steps of one turn are one
  decision split up. Ordering alone did not measure stronger; with this it did (run 1 and 2 of
  "Hau La: evaluator-ordered widening" in benchmarks/README.md).

Needs an evaluator with `score_actions` (Hau La's); elsewhere the search refuses with a clear
error (`check`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import cast

from gamehall.core import ActionScorer, Evaluator, GamehallError, offers


def check(evaluator: Evaluator, game_name: str) -> ActionScorer:
    """The evaluator as a scorer, or a clear error where it cannot order actions."""
    if not offers(evaluator, ActionScorer):
        raise GamehallError(
            f"ordered widening (+order) needs an evaluator that scores actions (score_actions, "
            f"as Hau La's does); {game_name}'s evaluator ({type(evaluator).__name__}) does not")
    return cast(ActionScorer, evaluator)


def allowed(k: float, alpha: float, visits: int) -> int:
    """How many children a node visited `visits` times may have: ceil(k·(visits+1)^alpha)."""
    return math.ceil(k * (visits + 1) ** alpha)


def ordered(actions: list[int], scores: Sequence[float], rng: random.Random) -> list[int]:
    """`actions` from the worst score to the best (so that ``pop()`` gives the best), equal
    scores in an order drawn from `rng` (deterministic under the bot's seed, not biased towards
    low action numbers)."""
    if len(scores) != len(actions):
        raise GamehallError(f"score_actions gave {len(scores)} scores for {len(actions)} actions")
    keyed = sorted((float(s), rng.random(), a) for s, a in zip(scores, actions, strict=True))
    return [a for _, _, a in keyed]
