"""Bots by name: ``random``, or ``KIND:LEVEL`` such as ``mcts:hard``."""

from __future__ import annotations

from collections.abc import Callable

from gamehall.ai.bot import Bot
from gamehall.ai.random_bot import RandomBot
from gamehall.core import GamehallError

BotFactory = Callable[[str | None, int | None], Bot]

_FACTORIES: dict[str, BotFactory] = {
    "random": lambda level, seed: RandomBot(seed),
}


def register_bot(kind: str, factory: BotFactory) -> None:
    """Make `kind[:level]` available to `make_bot`."""
    _FACTORIES[kind] = factory


def bot_kinds() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from a spec like ``random`` or ``mcts:hard``."""
    kind, _, level = spec.strip().lower().partition(":")
    if kind not in _FACTORIES:
        raise GamehallError(f"no bot called {kind!r} (bots: {', '.join(bot_kinds())})")
    return _FACTORIES[kind](level or None, seed)
