"""The Halali! game object: options, seats, action-space facts, the state factories, and the
package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from typing import Any

from gamehall.core import Option, State
from gamehall.core.package import GamePackage, PackagedGame
from gamehall.games.halali import explain, jsonform, svg, view
from gamehall.games.halali.notation import NUM_ACTIONS
from gamehall.games.halali.pictures import load_pictures
from gamehall.games.halali.rules import SIDE_COLOURS, TURN_LIMIT, HalaliState
from gamehall.games.halali.tiles import OUTCOMES, SQUARES


class HalaliGame(PackagedGame[HalaliState]):
    """Halali! (Kosmos; "Tally Ho!"): humans against beasts in a forest of face-down tiles."""

    name = "halali"
    title = "Halali!"
    description = ("Humans against beasts in a forest of face-down tiles: turn them over, hunt, "
                   "and score the most points.")
    web_board = "halali"
    seat_colours = {"humans": SIDE_COLOURS[0], "beasts": SIDE_COLOURS[1],
                    "first": SIDE_COLOURS[0], "second": SIDE_COLOURS[1]}
    """A match's seats by the side they play first (`HalaliState.seat_colours` after)."""
    howto_moves = 24
    package = GamePackage(HalaliState, jsonform, view, explain, svg)
    OPTIONS = (
        Option("rifles", str, "two_each",
               doc="hunters' rifle directions: two per direction (shuffled in) or drawn at "
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

    # --- presentation beyond the package's modules (core.package wires those) ---------------
    def scores(self, state: State) -> list[float] | None:
        """Each seat's points (a match: both games added)."""
        return [float(x) for x in self.own(state).totals()[0]]

    def web_pictures(self) -> dict[str, Any] | None:
        return load_pictures()
