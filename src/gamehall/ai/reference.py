"""The fixed reference search, ``uct[:N]``: plain UCT that never changes when the levels do.

The ``mcts`` levels are re-tuned (evaluators, rollout policies, exploration) and so move; a
ladder measured against them alone says nothing across versions. ``uct:N`` pins one search:
UCT with c = 1.0 on returns scaled to 0..1, one uniformly random rollout per leaf (the engine's
own uniform ``random_playout`` where it offers one), chance sampled with its probabilities,
exactly N simulations a move (default 1000) and no time cap, no game evaluator, no solver and
no tree reuse. Terminal leaves are exact, so a move that wins at once is taken. Its moves for a
given seed are pinned by a test (tests/ai/test_reference.py).
"""

from __future__ import annotations

import re

from gamehall.ai.evaluators import RandomRollout
from gamehall.ai.mcts import MCTSBot
from gamehall.core import GamehallError

DEFAULT_SIMULATIONS = 1000
REFERENCE_C = 1.0


class UCTBot(MCTSBot):
    """`MCTSBot` with every extra switched off and every knob pinned (see the module doc)."""

    name = "uct"

    def __init__(self, seed: int | None = None, simulations: int = DEFAULT_SIMULATIONS) -> None:
        super().__init__(seed, simulations=simulations, seconds=None, uct_c=REFERENCE_C,
                         evaluator=RandomRollout(), solve=False, reuse=False)


def parse_uct(level: str | None) -> int:
    """The simulations of a ``uct[:N]`` spec (N a positive whole number)."""
    text = (level or str(DEFAULT_SIMULATIONS)).strip()
    if re.fullmatch(r"\d+", text) and int(text) > 0:
        return int(text)
    raise GamehallError(f"no uct budget {level!r}: uct:N takes a number of simulations, "
                        f"like uct:{DEFAULT_SIMULATIONS}")


def make_uct(level: str | None, seed: int | None) -> UCTBot:
    """The ``uct`` entry of the bot factory."""
    return UCTBot(seed, simulations=parse_uct(level))
