"""Per-game plug-ins found by game name: registered in code, or declared by a game package in
an entry-point group, so that the package never imports `gamehall.ai` (evaluators, rules of
thumb)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

from gamehall.core import Game

T = TypeVar("T")


class GamePlugins(Generic[T]):
    """Factories taking a `Game`, by game name: `register` first, then the entry-point `group`
    (name: the game's registry name; value: the factory)."""

    def __init__(self, group: str) -> None:
        self.group = group
        self.registered: dict[str, Callable[[Game], T]] = {}
        """What `register` added, by game name (tests take theirs out again)."""

    def register(self, game_name: str, factory: Callable[[Game], T]) -> None:
        """Use `factory` for `game_name` (before anything the entry points declare)."""
        self.registered[game_name] = factory

    @cached_property
    def _declared(self) -> dict[str, Any]:
        return {ep.name: ep for ep in entry_points(group=self.group)}

    def factory(self, game: Game) -> Callable[[Game], T] | None:
        """The factory for `game`, or None where none is registered or declared."""
        found = self.registered.get(game.name)
        if found is None and game.name in self._declared:
            found = self._declared[game.name].load()
        return found
