"""The fixed reference search, ``uct[:N]``: plain UCT that never changes when the levels do.

The ``mcts`` levels are re-tuned (evaluators, rollout policies, exploration) and so move; a
ladder measured against them alone says nothing across versions. ``uct:N`` pins one search:
UCT with c = 1.0 on returns scaled to 0..1, one uniformly random rollout per leaf (the engine's
own uniform ``random_playout`` where it offers one), chance sampled with its probabilities,
exactly N simulations a move and no time cap, no game evaluator, no solver and no tree reuse.
Terminal leaves are exact, so a move that wins at once is taken. Its moves for a given seed are
pinned by a test (tests/ai/test_reference.py).

``uct:hard`` (and ``uct`` alone) takes N from the game being played: `hard`'s budget there
(`gamehall.ai.levels`), so a ladder compares `hard` with the reference at equal simulations and
measures what the levels' search adds, not how many simulations it runs.
"""

from __future__ import annotations

import re

from gamehall.ai.evaluators import RandomRollout
from gamehall.ai.levels import level_simulations
from gamehall.ai.mcts import MCTSBot, Node
from gamehall.core import GamehallError, State

AT_HARD = "hard"
"""The ``uct:hard`` budget (the default): `hard`'s simulations in the game being played."""
REFERENCE_C = 1.0


class UCTBot(MCTSBot):
    """`MCTSBot` with every extra switched off and every knob pinned (see the module doc)."""

    name = "uct"

    def __init__(self, seed: int | None = None, simulations: int | None = None) -> None:
        """`simulations` None: `hard`'s budget in each game it plays (``uct:hard``)."""
        super().__init__(seed, simulations=simulations or level_simulations(AT_HARD, ""),
                         seconds=None, uct_c=REFERENCE_C, evaluator=RandomRollout(),
                         solve=False, reuse=False)
        self.at_hard = simulations is None

    def search(self, state: State, deadline: float | None = None) -> Node:
        if self.at_hard:
            self.simulations = level_simulations(AT_HARD, state.game.name)
        return super().search(state, deadline)


def parse_uct(level: str | None) -> int | None:
    """The simulations of a ``uct[:N]`` spec (N a positive whole number); None for
    ``uct:hard`` or ``uct`` alone (`hard`'s budget in the game played)."""
    text = (level or AT_HARD).strip().lower()
    if text == AT_HARD:
        return None
    if re.fullmatch(r"\d+", text) and int(text) > 0:
        return int(text)
    raise GamehallError(f"no uct budget {level!r}: uct:N takes a number of simulations, "
                        "like uct:1000, or uct:hard for hard's budget in the game played")


def make_uct(level: str | None, seed: int | None) -> UCTBot:
    """The ``uct`` entry of the bot factory."""
    return UCTBot(seed, simulations=parse_uct(level))
