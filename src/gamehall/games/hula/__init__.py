"""Hula: close a loop around the centre of a hex-hex board, with neutral stones and a tie-break."""

from gamehall.games.hula.game import HulaGame
from gamehall.games.hula.rules import HulaState

__all__ = ["HulaGame", "HulaState"]
