"""Conformance sizing for Hotu Matua. Random games mostly run to the turn limit (about 2300
actions at the default 200 turns, and every view carries the board geometry), so each option set
gets few games; short turn limits add more, different games cheaply."""

VARIANTS = [{"turn_limit": 8}, {"turn_limit": 20}, {"turn_limit": 40}]
RANDOM_GAMES = 10
DEEP_GAMES = 1
