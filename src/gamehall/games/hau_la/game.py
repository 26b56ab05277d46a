"""The Hau La game object: options, seats, sizes, the factories of states, and the package's
presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gamehall.core import Game, Option, State
from gamehall.games.hau_la import explain, jsonform, svg, view
from gamehall.games.hau_la.data import Model, model
from gamehall.games.hau_la.notation import layout
from gamehall.games.hau_la.rules import HauLaState


class HauLaGame(Game):
    """Hau La (SAIEN 2009): build the highest building of foam strips without touching."""

    name = "hau_la"
    title = "Hau La"
    web_board = "hau_la"
    howto_moves = 40
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of players (seats are named by tag colour)",
               choices=(2, 3, 4), label="players"),
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

    def new_initial_state(self, seed: int | None = None) -> HauLaState:
        return HauLaState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> HauLaState:
        return jsonform.state_from_json(self, data)

    # --- presentation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return jsonform.state_to_json(_hau_la(state))

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.state_view(_hau_la(state), seat)

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any]:
        return view.seat_overlay(_hau_la(state), seat)

    def outcome_text(self, state: State) -> str:
        return view.outcome_text(_hau_la(state))

    def starts_turn(self, state: State, action: int) -> bool:
        """A placement (piece, holes, sides, tag) is one turn: its first chosen step starts it."""
        return _hau_la(state).table.chosen() == 0

    def explain_illegal(self, state: State, action: int) -> str:
        return explain.explain_illegal(_hau_la(state), action)

    def read_move(self, state: State, text: str) -> int:
        return explain.read_move(_hau_la(state), text)

    def render_text(self, state: State, seat: int | None = None) -> str:
        return view.render_text(_hau_la(state), seat)

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one placement (terminal play)."""
        return view.render_step(_hau_la(state), seat)

    def render_svg(self, state: State | None = None) -> str:
        return svg.render_svg(_hau_la(state if state is not None else self.new_initial_state()))


def _hau_la(state: State) -> HauLaState:
    """`state` as the Hau La state it is (the contract passes states as `State`)."""
    assert isinstance(state, HauLaState), f"not a Hau La state: {state!r}"
    return state
