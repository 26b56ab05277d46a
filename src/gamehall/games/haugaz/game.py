"""`HaugazGame`: the game with its options, the factory of its states, and the package's
presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from typing import ClassVar

from gamehall.core import InvalidOptionError, Option, State
from gamehall.core.package import GamePackage, PackagedGame
from gamehall.games.haugaz import explain, jsonform, svg, view
from gamehall.games.haugaz.notation import layout
from gamehall.games.haugaz.rules import DISC_COLOURS, HaugazState


class HaugazGame(PackagedGame[HaugazState]):
    """Haugaz: place a stack, jump a stack as far as it is tall, grow the stacks it lands near.

    Seats are ``first`` (places the two cake stacks) and ``second`` (chooses a colour); Black then
    moves first. Without the cake, seat 0 (first) plays Black.
    """

    name = "haugaz"
    title = "Haugaz"
    description = ("Stacks jump exactly as far as they are tall and make the stacks they land near "
                   "grow: the tallest stacks win.")
    web_board = "haugaz"
    seat_colours = {"first": DISC_COLOURS[0], "second": DISC_COLOURS[1]}
    """Without the cake first plays Black; with it, `HaugazState.seat_colours` once chosen."""
    howto_moves = 24
    package = GamePackage(HaugazState, jsonform, view, explain, svg)
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("size", int, 8, "points per side of the board", min=5, max=19,
               label="board size"),
        Option("cake", bool, True, "two-stack cake rule: first places a black and a white stack, "
               "second chooses a side", label="cake start"),
        Option("cake_distance", int, 3, "least king-move distance between the two cake stacks",
               min=1, max=18, label="cake stacks apart"),
        Option("blocking", bool, False, "a moving stack may not jump over other stacks",
               label="jumps", words=((True, "only over empty points"),
                                     (False, "over anything"))),
        Option("grow_colour", str, "flip", "piece added by growth: flip the stack's owner, or "
               "always the mover's opponent's colour", choices=("flip", "mover_opponent"),
               label="growth", words=(("flip", "turns the stack over"),
                                      ("mover_opponent", "in the mover's opponent's colour"))),
        Option("stuck", str, "ends", "a player with no possible move: the game ends, or they "
               "may place alone", choices=("ends", "place_only"), label="when stuck",
               words=(("ends", "the game ends"), ("place_only", "place alone"))),
        Option("objective", str, "tallest", "win by the tallest stacks, or by the most stacks "
               "(tallest breaks a tie)", choices=("tallest", "most_stacks"),
               label="winner", words=(("tallest", "tallest stacks"),
                                      ("most_stacks", "most stacks"))),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        size = int(self.options["size"])
        if self.options["cake"] and int(self.options["cake_distance"]) > size - 1:
            raise InvalidOptionError(
                f"option cake_distance must be at most {size - 1} on a {size}x{size} board")

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        size = int(self.options["size"])
        return layout(size * size).size

    @property
    def max_game_length(self) -> int:
        """Each stack is placed once (at most one per point), a turn takes at most two actions,
        passes never come twice in a row before the end; plus the three setup actions."""
        size = int(self.options["size"])
        return 3 * size * size + 8

    def new_initial_state(self, seed: int | None = None) -> HaugazState:
        return HaugazState(self, seed)

    # --- presentation beyond the package's modules (core.package wires those) ---------------
    def starts_turn(self, state: State, action: int) -> bool:
        """A turn is a placement and its move; the cake is both its stacks."""
        parts = state.action_parts(action)
        return not (parts.get("kind") == "move"
                    or (parts.get("kind") == "cake" and parts.get("colour") == "white"))
