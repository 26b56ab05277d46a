"""Evaluator-ordered progressive widening for `MCTSBot` (``+order``): a decision node tries its
actions best-scored first and takes one more only as its visits grow.

Plain UCT tries every action of a node once, in random order, before it follows any of them
again. In Hau La a turn is one placement chosen in five steps (piece, holes, rotation, sides,
tag), and its evaluator credits the placer with the best placement still reachable; a node's
children are then first valued at their best and, as UCT averages in the siblings it tries,
drift towards the mean of a random subset of placements: more simulations meant more random
candidates, not a better choice (`benchmarks/README.md`, the ladder). Here a node, the first
time it is expanded from, asks the evaluator for every action's value for its mover
(`gamehall.core.ActionScorer`, one cheap call, no action played) and expands them in that order;
a node visited n times keeps at most ceil(k·(n+1)^alpha) children (`allowed`), so the
simulations go deeper along the likely placements, the opponent's best reply included, instead
of wider.

The scores only order the expansions; values still come from the evaluator and the backup.
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
