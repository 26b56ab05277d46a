"""Test-only plug-in for the browser tests: Halali! with a `setup` option that can start a room
in a set-up end phase (every tile face up, a hunter that can walk out through the d1 exit).

It is loaded only by the test server (`gamehall serve --plugin tests.web.halali_setup`), where it
replaces the registered `halali` game for that process; a production hall never imports it, so
the option does not exist there.
"""

from __future__ import annotations

import copy
from typing import Any

from gamehall.core import Option
from gamehall.core.registry import register_game
from gamehall.games.halali.game import HalaliGame
from gamehall.games.halali.rules import HalaliState

# Humans to move in the end phase with 6 turns left: the hunter on d2 may leave through the exit
# beyond d1 (notation d2-exit-d1) or walk up the d file to the d7 exit; the lumberjack on a4
# stands next to the a4 exit. The beasts' fox on g4 may leave through the g4 exit.
END_PHASE: dict[str, Any] = {
    "game": "halali",
    "board": [
        "T . . . . . T",
        ". P . . . D .",
        ". . T . T . .",
        "L . . . . . F",
        ". . T . B . .",
        ". D . H^ . . T",
        "T . . . . . T",
    ],
    "unrevealed": {"bear": 0, "fox": 0, "lumberjack": 0, "hunter^": 0, "hunter>": 0,
                   "hunterv": 0, "hunter<": 0, "pheasant": 0, "duck": 0, "tree": 0},
    "to_move": "humans",
    "flipping": None,
    "captured": {"humans": ["F", "F", "F", "P", "P", "P", "D", "D", "B"],
                 "beasts": ["H>", "H>", "Hv", "Hv", "H<", "H<", "H^", "L", "P", "P", "P",
                            "D", "D"]},
    "exited": {"humans": [], "beasts": ["F", "F"]},
    "previous_move": {"humans": None, "beasts": None},
    "locked": None,
    "end_phase_turns_left": 6,
    "turn": 60,
    "last_turn": None,
    "match_game": 1,
    "first_game": None,
    "over": False,
}


class HalaliWithSetup(HalaliGame):
    """Halali! plus a test-only `setup` option (`end_phase`: start from END_PHASE)."""

    OPTIONS = (*HalaliGame.OPTIONS,  # type: ignore[assignment]
               Option("setup", str, "none", doc="test only: start from a set-up position",
                      choices=("none", "end_phase")))

    def new_initial_state(self, seed: int | None = None) -> HalaliState:
        if self.options["setup"] != "end_phase":
            return super().new_initial_state(seed)
        data = copy.deepcopy(END_PHASE)
        data["options"] = dict(self.options)
        return self.state_from_json(data)


register_game(HalaliWithSetup)
