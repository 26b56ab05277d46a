"""`HulaGame`: the game with its options (board size, pie rule), its facts, its factories, and
the package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, Option, State
from gamehall.games.hula import explain, jsonform, svg, view
from gamehall.games.hula.geometry import SIZES, geometry
from gamehall.games.hula.notation import SEATS
from gamehall.games.hula.observation import OBSERVATION_PLANES
from gamehall.games.hula.rules import HulaState


class HulaGame(Game):
    """Hula on a hex-hex board of side 5, 6 or 7, with or without the pie rule."""

    name = "hula"
    title = "Hula"
    web_board = "hula"
    howto_moves = 16
    OPTIONS = (
        Option("size", int, 6, "side of the hexagonal board, in cells", choices=SIZES,
               label="board size"),
        Option("pie", bool, True, "after the first stone the other player may answer 'swap'",
               label="swap (pie rule)"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.geo = geometry(int(self.options["size"]))
        self.pie = bool(self.options["pie"])
        self._template: HulaState | None = None

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
        return (len(OBSERVATION_PLANES), self.geo.num_cells)

    # --- factories ---------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> HulaState:
        template = self._template
        if template is None:
            template = self._template = HulaState(self)
        return template.copy(seed)

    def state_from_json(self, data: Mapping[str, Any]) -> HulaState:
        return jsonform.state_from_json(self, data)

    # --- presentation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return jsonform.state_to_json(_hula(state))

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.state_view(_hula(state), seat)

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any]:
        return view.seat_overlay(_hula(state), seat)

    def outcome_text(self, state: State) -> str:
        return view.outcome_text(_hula(state))

    def explain_illegal(self, state: State, action: int) -> str:
        return explain.explain_illegal(_hula(state), action)

    def read_move(self, state: State, text: str) -> int:
        return explain.read_move(_hula(state), text)

    def render_text(self, state: State, seat: int | None = None) -> str:
        return view.render_text(_hula(state), seat)

    def render_svg(self, state: State | None = None) -> str:
        return svg.render_svg(_hula(state if state is not None else self.new_initial_state()))


def _hula(state: State) -> HulaState:
    """`state` as the Hula state it is (the contract passes states as `State`)."""
    assert isinstance(state, HulaState), f"not a Hula state: {state!r}"
    return state
