"""The Hau La game object: options, seats, sizes, the factories of states, and the package's
presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from typing import ClassVar

from gamehall.core import Option, State
from gamehall.core.package import GamePackage, PackagedGame
from gamehall.games.hau_la import explain, jsonform, svg, view
from gamehall.games.hau_la.data import Model, model
from gamehall.games.hau_la.notation import layout
from gamehall.games.hau_la.rules import HauLaState


class HauLaGame(PackagedGame[HauLaState]):
    """Hau La (SAIEN 2009): build the highest building of foam strips without touching."""

    name = "hau_la"
    title = "Hau La"
    description = ("Add bendy foam strips to one shared building without touching: the highest "
                   "colour tag wins.")
    web_board = "hau_la"
    seat_colours = {"red": "#d33a2c", "blue": "#2f62d0", "yellow": "#f2c200",
                    "orange": "#f07a12"}
    """The seats are named by their tags' colours, drawn so (js/boards/hau_la.js)."""
    howto_moves = 40
    package = GamePackage(HauLaState, jsonform, view, explain, svg)
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

    # --- presentation beyond the package's modules (core.package wires those) ---------------
    def starts_turn(self, state: State, action: int) -> bool:
        """A placement (piece, holes, sides, tag) is one turn: its first chosen step starts it."""
        return self.own(state).table.chosen() == 0

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one placement (terminal play)."""
        return view.render_step(self.own(state), seat)
