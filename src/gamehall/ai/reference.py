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

``uct:cpuX`` is the same search given X seconds of CPU a move instead of a count (read with
`time.process_time`, this process's CPU, so a shared machine's load barely moves it): the
reference at equal *CPU time*, for games where `hard`'s simulations of random rollouts cannot
fit a session (Hotu Matua's ~2,000-action games, Hau La's slow engine). A rollout is never cut
short (the evaluator gets no deadline); the search starts no simulation that, as slow as its
slowest so far, would end past the budget, so a move overruns by at most its first rollout. Its
moves depend on the machine's speed, not its seed alone; tests give it a fake clock
(`CPU_CLOCK`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from gamehall.ai.evaluators import RandomRollout
from gamehall.ai.levels import level_simulations
from gamehall.ai.mcts import MCTSBot, Node
from gamehall.core import GamehallError, State

AT_HARD = "hard"
"""The ``uct:hard`` budget (the default): `hard`'s simulations in the game being played."""
REFERENCE_C = 1.0
CPU_PREFIX = "cpu"
CPU_CLOCK: Callable[[], float] = time.process_time
"""The clock of ``uct:cpuX`` budgets, read when a bot is made (tests put a fake one here)."""


class UCTBot(MCTSBot):
    """`MCTSBot` with every extra switched off and every knob pinned (see the module doc)."""

    name = "uct"

    def __init__(self, seed: int | None = None, simulations: int | None = None,
                 cpu_seconds: float | None = None) -> None:
        """`simulations` None: `hard`'s budget in each game it plays (``uct:hard``);
        `cpu_seconds`: that much CPU a move instead (``uct:cpuX``, read on `CPU_CLOCK`)."""
        if cpu_seconds is not None:
            super().__init__(seed, simulations=None, seconds=cpu_seconds, uct_c=REFERENCE_C,
                             evaluator=RandomRollout(), solve=False, reuse=False,
                             clock=CPU_CLOCK)
        else:
            super().__init__(seed, simulations=simulations or level_simulations(AT_HARD, ""),
                             seconds=None, uct_c=REFERENCE_C, evaluator=RandomRollout(),
                             solve=False, reuse=False)
        self.at_hard = simulations is None and cpu_seconds is None
        self.cpu_seconds = cpu_seconds

    def _playout_deadline(self, deadline: float | None) -> float | None:
        """Under a CPU budget, no deadline inside a rollout: CPU is not a wall clock, and a
        rollout cut short would be a simulation lost (the search's own check bounds the
        overrun). A count with the hall's wall-clock cap keeps the shared search's deadline."""
        if self.cpu_seconds is not None:
            return None
        return super()._playout_deadline(deadline)

    def search(self, state: State, deadline: float | None = None) -> Node:
        if self.at_hard:
            self.simulations = level_simulations(AT_HARD, state.game.name)
        return super().search(state, deadline)


def _bad_budget(level: str | None) -> GamehallError:
    return GamehallError(f"no uct budget {level!r}: uct:N takes a number of simulations, "
                         "like uct:1000, uct:hard for hard's budget in the game played, or "
                         "uct:cpuX for X seconds of CPU a move, like uct:cpu0.5")


def uct_cpu_seconds(level: str | None) -> float | None:
    """The CPU seconds a move of a ``uct:cpuX`` spec (X positive); None for any other spec."""
    text = (level or "").strip().lower()
    if not text.startswith(CPU_PREFIX):
        return None
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)", text[len(CPU_PREFIX):])
    if match is None or float(match.group(1)) <= 0:
        raise _bad_budget(level)
    return float(match.group(1))


def parse_uct(level: str | None) -> int | None:
    """The simulations of a ``uct[:N]`` spec (N a positive whole number); None for
    ``uct:hard`` or ``uct`` alone (`hard`'s budget in the game played). A ``uct:cpuX`` spec
    has no simulations: `uct_cpu_seconds` reads it."""
    text = (level or AT_HARD).strip().lower()
    if text == AT_HARD:
        return None
    if re.fullmatch(r"\d+", text) and int(text) > 0:
        return int(text)
    raise _bad_budget(level)


def make_uct(level: str | None, seed: int | None) -> UCTBot:
    """The ``uct`` entry of the bot factory."""
    cpu = uct_cpu_seconds(level)
    if cpu is not None:
        return UCTBot(seed, cpu_seconds=cpu)
    return UCTBot(seed, simulations=parse_uct(level))
