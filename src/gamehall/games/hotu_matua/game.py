"""`HotuMatuaGame`: the game with its options (board file or data, turn limit), its facts, and
the package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gamehall.core import Game, Option, State
from gamehall.core.options import is_file_data
from gamehall.games.hotu_matua import explain, jsonform, svg, view
from gamehall.games.hotu_matua.board import Board, load_board
from gamehall.games.hotu_matua.notation import NUM_ACTIONS
from gamehall.games.hotu_matua.rules import BASE_DICE, MAX_EXTRA, HotuMatuaState


class HotuMatuaGame(Game):
    """Reinhold Wittig's Hotu Matua (1991): chain your four ships around the island pearls."""

    name: ClassVar[str] = "hotu_matua"
    title: ClassVar[str] = "Hotu Matua"
    web_board: ClassVar[str | None] = "hotu_matua"
    howto_moves: ClassVar[int] = 30
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

    def state_from_json(self, data: Mapping[str, Any]) -> HotuMatuaState:
        return jsonform.state_from_json(self, data)

    # --- presentation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return jsonform.state_to_json(_hotu(state))

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.state_view(_hotu(state), seat)

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any]:
        return view.seat_overlay(_hotu(state), seat)

    def outcome_text(self, state: State) -> str:
        return view.outcome_text(_hotu(state))

    def starts_turn(self, state: State, action: int) -> bool:
        """A turn is its roll (one chance action per die) and the ship steps that follow."""
        return state.is_chance_node() and not _hotu(state).rolled

    def scores(self, state: State) -> list[float] | None:
        """The pearls each seat owns."""
        return [float(n) for n in _hotu(state).owned]

    def explain_illegal(self, state: State, action: int) -> str:
        return explain.explain_illegal(_hotu(state), action)

    def read_move(self, state: State, text: str) -> int:
        return explain.read_move(_hotu(state), text)

    def render_text(self, state: State, seat: int | None = None) -> str:
        return view.render_text(_hotu(state), seat)

    def render_step(self, state: State, seat: int | None = None) -> str | None:
        """A compact status between the steps of one turn (terminal play): no map."""
        own = _hotu(state)
        return None if own.over or own.to_roll else view.render_step(own, seat)

    def render_svg(self, state: State | None = None) -> str:
        return svg.render_svg(_hotu(state if state is not None else self.new_initial_state()))


def _hotu(state: State) -> HotuMatuaState:
    """`state` as the Hotu Matua state it is (the contract passes states as `State`)."""
    assert isinstance(state, HotuMatuaState), f"not a Hotu Matua state: {state!r}"
    return state
