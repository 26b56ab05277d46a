"""Seat markers shared by every game: real seats are 0..n-1, the rest are negative markers."""

from __future__ import annotations

from typing import Final

#: The "player" to move at a chance node (same value as OpenSpiel's kChancePlayerId).
CHANCE: Final = -1
#: The "player" to move once the game is over (same value as OpenSpiel's kTerminalPlayerId).
TERMINAL: Final = -4

Seat = int
