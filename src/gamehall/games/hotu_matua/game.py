"""`HotuMatuaGame`: the game with its options (board file or data, turn limit) and its facts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gamehall.core import Game, Option, State
from gamehall.core.options import is_file_data
from gamehall.games.hotu_matua.board import Board, load_board
from gamehall.games.hotu_matua.notation import NUM_ACTIONS
from gamehall.games.hotu_matua.rules import BASE_DICE, MAX_EXTRA, HotuMatuaState


class HotuMatuaGame(Game):
    """Reinhold Wittig's Hotu Matua (1991): chain your four ships around the island pearls."""

    name: ClassVar[str] = "hotu_matua"
    title: ClassVar[str] = "Hotu Matua"
    web_board: ClassVar[str | None] = "hotu_matua"
    has_chance: ClassVar[bool] = True
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("board", str, "", reads_files=True,
               doc="board file (JSON, see the game's README), or the board's JSON itself; "
                   "empty: the shipped board, a reconstruction of the printed map"),
        Option("turn_limit", int, 200, min=1, max=100_000,
               doc="turns in all (both players) after which more pearls wins, else a draw"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.board: Board = load_board(str(self.options["board"]))
        if is_file_data(self.options["board"]):  # one text per board, whatever was sent
            self.options["board"] = self.board.text
        self.turn_limit = int(self.options["turn_limit"])
        self.adjacent: list[frozenset[int]] = [
            frozenset(self.board.neighbours(f)) for f in range(self.board.num_fields)]

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
        return HotuMatuaState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> HotuMatuaState:
        from gamehall.games.hotu_matua.jsonform import state_from_json

        return state_from_json(self, data)

    def render_text(self, state: State, seat: int | None = None) -> str:
        from gamehall.games.hotu_matua.view import render_text

        assert isinstance(state, HotuMatuaState)
        return render_text(state, seat)

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one turn (terminal play): no map."""
        from gamehall.games.hotu_matua.view import render_step

        assert isinstance(state, HotuMatuaState)
        return None if state.over or state.to_roll else render_step(state, seat)

    def render_svg(self, state: State | None = None) -> str:
        from gamehall.games.hotu_matua.svg import render_svg

        if state is None:
            state = self.new_initial_state()
        assert isinstance(state, HotuMatuaState)
        return render_svg(state)
