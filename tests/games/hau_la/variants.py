"""Conformance sizing for Hau La: a game enumerates and touch-checks every placement each turn,
so a few games per player count (2 by default, then 3 and 4) keep the run well under two minutes."""

VARIANTS = [{"players": 3}, {"players": 4}]
RANDOM_GAMES = 3
DEEP_GAMES = 1
