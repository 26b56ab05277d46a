"""`HulaGame`: the game with its options (board size, pie rule), its facts, its factories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, Option, State
from gamehall.games.hula.geometry import SIZES, geometry
from gamehall.games.hula.jsonform import SEATS
from gamehall.games.hula.rules import HulaState


class HulaGame(Game):
    """Hula on a hex-hex board of side 5, 6 or 7, with or without the pie rule."""

    name = "hula"
    title = "Hula"
    web_board = "hula"
    OPTIONS = (
        Option("size", int, 6, "side of the hexagonal board, in cells", choices=SIZES),
        Option("pie", bool, True, "after the first stone the other player may answer 'swap'"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.geo = geometry(int(self.options["size"]))
        self.pie = bool(self.options["pie"])

    @property
    def seat_names(self) -> tuple[str, ...]:
        return SEATS

    @property
    def num_distinct_actions(self) -> int:
        return self.geo.num_cells + 1

    @property
    def max_game_length(self) -> int:
        return self.geo.num_cells - 1 + (1 if self.pie else 0)

    @property
    def observation_shape(self) -> tuple[int, int]:
        """Planes × cells of `HulaState.observation_tensor` (for the OpenSpiel/PettingZoo
        adapters)."""
        from gamehall.games.hula.view import OBSERVATION_PLANES

        return (len(OBSERVATION_PLANES), self.geo.num_cells)

    def new_initial_state(self, seed: int | None = None) -> HulaState:
        template = self.__dict__.get("_template")
        if template is None:
            template = self._template = HulaState(self)
        return template.copy(seed)

    def state_from_json(self, data: Mapping[str, Any]) -> HulaState:
        from gamehall.games.hula.jsonform import state_from_json

        return state_from_json(self, data)

    def render_text(self, state: State, seat: int | None = None) -> str:
        from gamehall.games.hula.view import render_text

        assert isinstance(state, HulaState)
        return render_text(state, seat)
