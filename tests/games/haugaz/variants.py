"""Conformance option sets for Haugaz: every combination of the two-way options (cake, blocking,
grow_colour, stuck, objective) on 5x5 and 6x6 boards, plus the cake distance at its extremes.

Sized so the whole Haugaz conformance run stays near a minute on one core: the deep checks try
every action number in every position, and the action space grows with the board (11N + 3).
Bigger boards (up to 19x19) are played in tests/games/haugaz/test_haugaz.py.
"""

from itertools import product
from typing import Any

_COMBOS = product((True, False), (False, True), ("flip", "mover_opponent"),
                  ("ends", "place_only"), ("tallest", "most_stacks"))

VARIANTS: list[dict[str, Any]] = [
    {"size": 5 + i % 2, "cake": cake, "blocking": blocking, "grow_colour": grow,
     "stuck": stuck, "objective": objective}
    for i, (cake, blocking, grow, stuck, objective) in enumerate(_COMBOS)
] + [
    {"size": 5, "cake_distance": 1},
    {"size": 5, "cake_distance": 4},
    {"size": 7, "cake_distance": 6},
]
RANDOM_GAMES = 20
DEEP_GAMES = 2
