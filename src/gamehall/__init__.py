"""gamehall: five board games with exact engines, AI opponents and an online hall."""

from gamehall.core import (
    CHANCE,
    TERMINAL,
    Game,
    GamehallError,
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    State,
    list_games,
    load_game,
    state_from_json,
)

__version__ = "0.1.0"
"""The one place the version is written: pyproject.toml, `gamehall --version` and the hall's
OpenAPI document all read it from here."""

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameRecord",
    "GamehallError",
    "IllegalActionError",
    "InvalidOptionError",
    "NotationError",
    "State",
    "list_games",
    "load_game",
    "state_from_json",
]
