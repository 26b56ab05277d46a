"""The Halali! game object: options, seats, action-space facts, the state factories, and the
package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, Option, State
from gamehall.games.halali import explain, jsonform, svg, view
from gamehall.games.halali.notation import NUM_ACTIONS
from gamehall.games.halali.pictures import load_pictures
from gamehall.games.halali.rules import TURN_LIMIT, HalaliState
from gamehall.games.halali.tiles import OUTCOMES, SQUARES


class HalaliGame(Game):
    """Halali! (Kosmos; "Tally Ho!"): humans against beasts in a forest of face-down tiles."""

    name = "halali"
    title = "Halali!"
    web_board = "halali"
    howto_moves = 24
    OPTIONS = (
        Option("rifles", str, "two_each",
               doc="hunters' rifle directions: two_each (2 per direction, shuffled in) or "
                   "random (each hunter's direction drawn when it is flipped)",
               choices=("two_each", "random"), label="rifles",
               words=(("two_each", "two per direction"), ("random", "drawn at random"))),
        Option("match", bool, False,
               doc="play two games with roles swapped and add the scores",
               label="match of two games"),
    )
    has_chance = True

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Seat 0 plays the humans, seat 1 the beasts. In a match the roles swap for the second
        game, so the seats are named by when they joined (`first`, `second`) instead: a role name
        would call a seat by the role it does not play half of the time."""
        return ("first", "second") if self.options["match"] else ("humans", "beasts")

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_game_length(self) -> int:
        one_game = TURN_LIMIT + (SQUARES - 1)  # every turn one action, plus one draw per flip
        return one_game * (2 if self.options["match"] else 1)

    @property
    def max_chance_outcomes(self) -> int:
        return len(OUTCOMES)

    def new_initial_state(self, seed: int | None = None) -> HalaliState:
        return HalaliState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> HalaliState:
        return jsonform.state_from_json(self, data)

    # --- presentation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return jsonform.state_to_json(_halali(state))

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.state_view(_halali(state), seat)

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any]:
        return view.seat_overlay(_halali(state), seat)

    def outcome_text(self, state: State) -> str:
        return view.outcome_text(_halali(state))

    def scores(self, state: State) -> list[float] | None:
        """Each seat's points (a match: both games added)."""
        return [float(x) for x in _halali(state).totals()[0]]

    def explain_illegal(self, state: State, action: int) -> str:
        return explain.explain_illegal(_halali(state), action)

    def read_move(self, state: State, text: str) -> int:
        return explain.read_move(_halali(state), text)

    def render_text(self, state: State, seat: int | None = None) -> str:
        return view.render_text(_halali(state), seat)

    def render_svg(self, state: State | None = None) -> str:
        return svg.render_svg(_halali(state if state is not None else self.new_initial_state()))

    def web_pictures(self) -> dict[str, Any] | None:
        return load_pictures()


def _halali(state: State) -> HalaliState:
    """`state` as the Halali! state it is (the contract passes states as `State`)."""
    assert isinstance(state, HalaliState), f"not a Halali! state: {state!r}"
    return state
