"""Haugaz: a two-player stacking game on the points of a square board with diagonals."""

from gamehall.games.haugaz.game import HaugazGame
from gamehall.games.haugaz.rules import HaugazState

__all__ = ["HaugazGame", "HaugazState"]
