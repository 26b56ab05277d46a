"""Constants shared by the rules, the JSON form and the views: colours and setup phases."""

from __future__ import annotations

from gamehall.games.haugaz.scoring import BLACK, WHITE

EMPTY = -1
COLOURS = ("black", "white")
"""Colour number -> name; BLACK = 0, WHITE = 1."""

CAKE_BLACK, CAKE_WHITE, CHOOSE, PLAY = range(4)
PHASES = ("cake_black", "cake_white", "choose", "play")
"""Phase number -> name used in the JSON form."""

__all__ = ["BLACK", "CAKE_BLACK", "CAKE_WHITE", "CHOOSE", "COLOURS", "EMPTY", "PHASES", "PLAY",
           "WHITE"]
