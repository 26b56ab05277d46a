"""MCTS levels: names for budgets, and the ``mcts[:LEVEL]`` bot factory.

| level    | budget per move                               | deterministic with a seed        |
| -------- | --------------------------------------------- | -------------------------------- |
| `easy`   | 100 simulations (at most 0.5 s)               | yes, unless the 0.5 s cap bites  |
| `medium` | 1000 simulations (at most 1.0 s)              | yes, unless the 1.0 s cap bites  |
| `hard`   | 1.8 s of wall time (as many simulations as fit)| no (depends on machine load)    |

``mcts:N`` asks for exactly N simulations (no time cap) and ``mcts:Xs`` for X seconds. A
trailing ``+pw`` (``mcts:hard+pw``, ``mcts:300+pw``) switches on progressive widening at chance
nodes (`WIDENING`), so its effect can be measured with ``gamehall selfplay``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamehall.ai.mcts import MCTSBot
from gamehall.core import GamehallError


@dataclass(frozen=True)
class Budget:
    """Simulations and/or seconds per move (whichever runs out first)."""

    simulations: int | None
    seconds: float | None


LEVELS: dict[str, Budget] = {
    "easy": Budget(simulations=100, seconds=0.5),
    "medium": Budget(simulations=1000, seconds=1.0),
    "hard": Budget(simulations=None, seconds=1.8),
}
DEFAULT_LEVEL = "medium"
WIDENING = (1.0, 0.5)
"""(k, alpha) of ``+pw``: a chance node visited n times keeps ceil(sqrt(n + 1)) outcomes."""
PW_SUFFIX = "+pw"


def _split(level: str | None) -> tuple[str | None, bool]:
    """The level without its ``+pw`` suffix, and whether it had one."""
    text = (level or "").strip().lower()
    if text.endswith(PW_SUFFIX):
        return text[: -len(PW_SUFFIX)] or None, True
    return level, False


def parse_level(level: str | None) -> Budget:
    """A level name, ``N`` simulations, or ``Xs`` seconds (``+pw`` allowed), as a budget."""
    text = (_split(level)[0] or DEFAULT_LEVEL).strip().lower()
    if text in LEVELS:
        return LEVELS[text]
    if re.fullmatch(r"\d+", text) and int(text) > 0:
        return Budget(simulations=int(text), seconds=None)
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)s", text)
    if match and float(match.group(1)) > 0:
        return Budget(simulations=None, seconds=float(match.group(1)))
    names = ", ".join(LEVELS)
    raise GamehallError(
        f"no MCTS level {level!r} (levels: {names}; or a number of simulations like mcts:500, "
        "or seconds like mcts:2.5s)")


def make_mcts(level: str | None, seed: int | None) -> MCTSBot:
    """The ``mcts`` entry of the bot factory."""
    budget = parse_level(level)
    widening = WIDENING if _split(level)[1] else None
    return MCTSBot(seed, simulations=budget.simulations, seconds=budget.seconds,
                   chance_widening=widening)
