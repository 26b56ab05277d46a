"""Hau La: a 3D building of bendable strips; the highest colour tag wins, touching is penalised."""

from gamehall.games.hau_la.game import HauLaGame

__all__ = ["HauLaGame"]
