"""Hula's option sets for the conformance suite, sized to run in well under 90 s in all."""

VARIANTS = [{"size": 5}, {"size": 7}, {"pie": False}]
RANDOM_GAMES = 400
DEEP_GAMES = 8
