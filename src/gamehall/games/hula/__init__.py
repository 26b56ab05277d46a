"""Hula: close a loop around the centre of a hex-hex board, with neutral stones and a tie-break."""

from gamehall.games.hula.rules import HulaGame, HulaState

__all__ = ["HulaGame", "HulaState"]
