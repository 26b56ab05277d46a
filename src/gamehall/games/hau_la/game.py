"""The Hau La game object: options, seats, sizes, and the factories of states."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from gamehall.core import Game, Option, State
from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.data import Model, model
from gamehall.games.hau_la.notation import layout
from gamehall.games.hau_la.turns import Table


class HauLaGame(Game):
    """Hau La (SAIEN 2009): build the highest building of foam strips without touching."""

    name = "hau_la"
    title = "Hau La"
    web_board = "hau_la"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (seats are named by tag colour)",
               choices=(2, 3, 4)),
    )
    has_chance = False
    min_utility = 0.0
    max_utility = 1.0
    utility_sum = 1.0

    @property
    def model(self) -> Model:
        return model()

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.model.colours[: self.players]

    @property
    def num_distinct_actions(self) -> int:
        return layout(self.model)["size"]

    @property
    def max_game_length(self) -> int:
        """Each piece outside the start building is tried at most twice (its owner or the bonus
        placer, then a hand-over), each try at most five actions; plus 3-player extras."""
        m = self.model
        loose = sum(k.in_box for k in m.kinds) - len(m.start)
        return len(m.preparations[self.players].extras) + loose * 2 * 5

    @cached_property
    def start_building(self) -> Building:
        return Building.start(self.model)

    def new_table(self) -> Table:
        return Table.new(self.model, self.players, self.seat_names, self.start_building)

    def new_initial_state(self, seed: int | None = None) -> State:
        from gamehall.games.hau_la.rules import HauLaState

        return HauLaState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        from gamehall.games.hau_la.jsonform import state_from_json

        return state_from_json(self, data)

    def render_text(self, state: State, seat: int | None = None) -> str:
        from gamehall.games.hau_la.view import render_text

        return render_text(state, seat)

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one placement (terminal play)."""
        from gamehall.games.hau_la.view import render_step

        return render_step(state, seat)

    def render_svg(self, state: State | None = None) -> str:
        from gamehall.games.hau_la.svg import render_svg

        return render_svg(state if state is not None else self.new_initial_state())
