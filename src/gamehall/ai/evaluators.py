"""Leaf evaluators for MCTS: random rollouts by default, game-specific plug-ins by game name.

An evaluator estimates every seat's return from a non-terminal position. The search hands it a
scratch copy of the position, so it may play the game forward on it. Plug-ins come from
`register_evaluator` or from the ``gamehall.evaluators`` entry-point group (name: the game's
registry name; value: a callable taking the `Game` and returning an evaluator), so a game package
can ship one without importing `gamehall.ai` (the interface, `gamehall.core.Evaluator`, is a
protocol).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import cast

from gamehall.ai.plugins import GamePlugins
from gamehall.core import (
    CHANCE,
    TERMINAL,
    Evaluator,
    FastPlayout,
    Game,
    GamehallError,
    State,
    offers,
)

GROUP = "gamehall.evaluators"


class RandomRollout:
    """Plays uniformly random moves to the end (chance sampled with its probabilities).

    Uses the engine's own ``state.random_playout(rng)`` when the state offers it (the
    `FastPlayout` ability: it plays to the end in place); otherwise loops over the public
    contract, which is slower but works for every game and can stop at the deadline.
    """

    def __init__(self, rollouts: int = 1) -> None:
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        self.rollouts = rollouts

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        if self.rollouts == 1:
            return playout(state, rng, deadline)
        total: list[float] | None = None
        for _ in range(self.rollouts):
            result = playout(state.clone(), rng, deadline)
            if result is None:
                return None
            total = list(result) if total is None else [t + r for t, r in zip(total, result,
                                                                                strict=True)]
        assert total is not None
        return [t / self.rollouts for t in total]


def playout(state: State, rng: random.Random, deadline: float | None = None) -> list[float] | None:
    """Play `state` to the end at random, in place; its returns, or None past `deadline`."""
    if offers(state, FastPlayout):
        cast(FastPlayout, state).random_playout(rng)
        return state.returns()
    choice = rng.choice
    clock = time.perf_counter
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state.returns()
        if player == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(choice(state.legal_actions()))
        if deadline is not None and clock() > deadline:
            return None


EvaluatorFactory = Callable[[Game], Evaluator]
_plugins: GamePlugins[Evaluator] = GamePlugins(GROUP)
_registered = _plugins.registered


def register_evaluator(game_name: str, factory: EvaluatorFactory) -> None:
    """Use `factory(game)` as the default MCTS evaluator for `game_name`."""
    _plugins.register(game_name, factory)


def default_evaluator(game: Game) -> Evaluator:
    """The game's registered evaluator if there is one, else one random rollout."""
    factory = _plugins.factory(game)
    if factory is None:
        return RandomRollout()
    evaluator = factory(game)
    if not isinstance(evaluator, Evaluator):
        raise GamehallError(f"the evaluator registered for {game.name} has no evaluate method")
    return evaluator
