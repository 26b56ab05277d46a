"""Test-only Hula with a `setup` option that can start a room in a race (`race`): size 5, no
pie, first to move, where first closes the ring around the centre with one stone and second,
the other side of it, closes its own wider ring with one stone too
(the position of `tests.ai.test_review.hula_blunder` before its blunder, written as a board, so
the room's record starts there and holds only what is played in the room).

Importing this module registers nothing: the test server's plug-in (`tests.web.hula_setup`)
registers the class, and a test builds the race from the class itself, so the test process's
`hula` stays the real one (the review test once registered it for the whole process on import,
and every later test there got a Hula with a `setup` option).
"""

from __future__ import annotations

from gamehall.core import Option
from gamehall.games.hula.game import HulaGame
from gamehall.games.hula.rules import HulaState
from tests.ai.test_review import HULA_FAR, HULA_RING, HULA_RING2

RACE_MOVES = [m for pair in zip(HULA_RING + HULA_FAR, HULA_RING2, strict=True) for m in pair]
"""The 22 placements that make the race (first's ring of five, second's of eleven)."""


class HulaWithSetup(HulaGame):
    """Hula plus a test-only `setup` option (`race`: start from the race, size 5, no pie)."""

    OPTIONS = (*HulaGame.OPTIONS,  # type: ignore[assignment]
               Option("setup", str, "none", doc="test only: start from a set-up position",
                      choices=("none", "race")))

    def new_initial_state(self, seed: int | None = None) -> HulaState:
        state = super().new_initial_state(seed)
        if self.options["setup"] != "race":
            return state
        if self.options["size"] != 5 or self.options["pie"]:
            raise ValueError("the race is set up on size 5 without the pie rule")
        for move in RACE_MOVES:
            state.apply_action(state.string_to_action(move))
        data = state.to_json()  # the board only: the record starts at the race
        data["options"] = dict(self.options)
        return self.state_from_json(data)

