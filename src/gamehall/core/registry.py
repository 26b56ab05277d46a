"""Finds games through the ``gamehall.games`` entry-point group, loading each on first use.

Because of this, core imports no game, and another package can add a game by declaring an entry
point ``mygame = "mypackage:MyGame"`` without touching gamehall.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from gamehall.core.errors import StateFormatError, UnknownGameError
from gamehall.core.game import Game
from gamehall.core.state import State

GROUP = "gamehall.games"

_extra: dict[str, type[Game]] = {}


@cache
def _declared() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def register_game(cls: type[Game]) -> None:
    """Register a game class directly (for plug-ins loaded without an entry point, and tests)."""
    _extra[cls.name] = cls


def unregister_game(name: str) -> None:
    """Undo `register_game` (tests register games for a while and must clean up)."""
    _extra.pop(name, None)


def list_games() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(set(_declared()) | set(_extra))


@cache
def _load_entry(name: str) -> type[Game]:
    cls = _declared()[name].load()
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise UnknownGameError(f"entry point {name!r} does not name a Game class")
    return cls


def game_class(name: str) -> type[Game]:
    """The Game subclass registered as `name`."""
    key = name.strip().lower()
    if key in _extra:
        return _extra[key]
    if key not in _declared():
        raise UnknownGameError(f"no game called {name!r} (games: {', '.join(list_games())})")
    return _load_entry(key)


def load_game(name: str, **options: object) -> Game:
    """The game `name` with `options` validated, e.g. ``load_game("hula", size=7, pie=False)``."""
    return game_class(name)(**options)


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild any game's state from its JSON form (which names the game and its options)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
        raise StateFormatError("a state is a JSON object with a 'game' name")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise StateFormatError("'options' must be an object")
    return load_game(data["game"], **options).state_from_json(data)
