"""Conformance sizing for Halali!: the default options plus random rifles in a two-game match."""

VARIANTS = [{"rifles": "random", "match": True}]
RANDOM_GAMES = 250
DEEP_GAMES = 3
