"""Which games and option sets the conformance suite runs on, and how many random games.

Every registered game runs with its default options. A game's tests may add option sets and size
the number of random games in ``tests/games/<name>/variants.py``:

    VARIANTS = [{"size": 5}, {"size": 7, "pie": False}]   # extra option sets
    RANDOM_GAMES = 2000          # light checks: random games per option set
    DEEP_GAMES = 40              # heavy checks (JSON, clones, every illegal action) per option set
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any

from gamehall.core import list_games

DEFAULT_RANDOM_GAMES = 1000
DEFAULT_DEEP_GAMES = 30


@dataclass(frozen=True)
class Config:
    game: str
    options: tuple[tuple[str, Any], ...]
    random_games: int
    deep_games: int

    @property
    def id(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}[{opts}]" if opts else self.game


def _scale() -> float:
    """GAMEHALL_CONFORMANCE_SCALE multiplies game counts (e.g. 10 for a soak run)."""
    return float(os.environ.get("GAMEHALL_CONFORMANCE_SCALE", "1"))


def configs() -> list[Config]:
    out: list[Config] = []
    for name in list_games():
        try:
            mod = importlib.import_module(f"tests.games.{name}.variants")
        except ModuleNotFoundError:
            mod = None
        variants: list[dict[str, Any]] = [{}] + list(getattr(mod, "VARIANTS", []))
        n_random = int(getattr(mod, "RANDOM_GAMES", DEFAULT_RANDOM_GAMES) * _scale())
        n_deep = int(getattr(mod, "DEEP_GAMES", DEFAULT_DEEP_GAMES) * _scale())
        for opts in variants:
            out.append(Config(name, tuple(sorted(opts.items())), max(1, n_random), max(1, n_deep)))
    return out
