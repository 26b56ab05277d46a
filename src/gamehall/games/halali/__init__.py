"""Halali!: humans and beasts hunt each other in a forest of face-down tiles (chance on flip)."""

from gamehall.games.halali.game import HalaliGame

__all__ = ["HalaliGame"]
