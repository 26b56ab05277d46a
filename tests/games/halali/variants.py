"""Conformance sizing for Halali!: the default options plus random rifles in a two-game match."""

VARIANTS = [{"rifles": "random", "match": True}]
RANDOM_GAMES = 150
DEEP_GAMES = 2
