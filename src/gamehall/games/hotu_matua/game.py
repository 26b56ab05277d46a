"""`HotuMatuaGame`: the game with its options (board file or data, turn limit), its facts, and
the package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gamehall.core import Option, State
from gamehall.core.options import is_file_data
from gamehall.core.package import GamePackage, PackagedGame
from gamehall.games.hotu_matua import explain, jsonform, svg, view
from gamehall.games.hotu_matua.board import Board, load_board
from gamehall.games.hotu_matua.notation import NUM_ACTIONS
from gamehall.games.hotu_matua.rules import BASE_DICE, MAX_EXTRA, HotuMatuaState


class HotuMatuaGame(PackagedGame[HotuMatuaState]):
    """Reinhold Wittig's Hotu Matua (1991): chain your four ships around the island pearls."""

    name: ClassVar[str] = "hotu_matua"
    title: ClassVar[str] = "Hotu Matua"
    description: ClassVar[str] = ("Two fleets sail a sea of numbered lines: chain your four "
                                  "ships next to the island pearls to take them.")
    web_board: ClassVar[str | None] = "hotu_matua"
    seat_colours: ClassVar[Mapping[str, str]] = {"north": "#c0392b", "south": "#138a7d"}
    """The fleets' sails as the board draws them (js/boards/hotu_matua.js)."""
    howto_moves: ClassVar[int] = 30
    package = GamePackage(HotuMatuaState, jsonform, view, explain, svg)
    has_chance: ClassVar[bool] = True
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("board", str, "", reads_files=True,
               doc="board file (JSON, see the game's README), or the board's JSON itself; "
                   "empty: the shipped board, a reconstruction of the printed map",
               label="map", words=(("", "the shipped map"),)),
        Option("turn_limit", int, 200, min=1, max=100_000,
               doc="turns in all (both players) after which more pearls wins, else a draw",
               label="turn limit"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.board: Board = load_board(str(self.options["board"]))
        if is_file_data(self.options["board"]):  # one text per board, whatever was sent
            self.options["board"] = self.board.text
        self.turn_limit = int(self.options["turn_limit"])

    def option_label(self, name: str) -> str:
        """A board given as data is shown by its name (cut short) and a piece of its digest."""
        if name != "board":
            return super().option_label(name)
        title = " ".join(self.board.name.split())[:40]
        return f"{title} ({self.board.digest[:6]})" if title else f"board {self.board.digest[:6]}"

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("north", "south")

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_game_length(self) -> int:
        dice = BASE_DICE + MAX_EXTRA
        return self.turn_limit * (2 * dice + 1)

    @property
    def max_chance_outcomes(self) -> int:
        return 4

    def new_initial_state(self, seed: int | None = None) -> HotuMatuaState:
        return HotuMatuaState(self, seed, self.board)

    # --- presentation beyond the package's modules (core.package wires those) ---------------
    def starts_turn(self, state: State, action: int) -> bool:
        """A turn is its roll (one chance action per die) and the ship steps that follow."""
        return state.is_chance_node() and not self.own(state).rolled

    def scores(self, state: State) -> list[float] | None:
        """The pearls each seat owns."""
        return [float(n) for n in self.own(state).owned]

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one turn (terminal play): no map."""
        own = self.own(state)
        return None if own.over or own.to_roll else view.render_step(own, seat)
