"""Hotu Matua (Reinhold Wittig, 1991): dice choose which numbered lines your ships may cross;
chain all four ships next to the island pearls to take them. Three pearls win."""

from gamehall.games.hotu_matua.game import HotuMatuaGame

__all__ = ["HotuMatuaGame"]
