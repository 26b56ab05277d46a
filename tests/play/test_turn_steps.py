"""Terminal play of multi-step turns: whole board at a turn's start, a compact status between
the steps of one person's turn when the game offers one, chance outcomes on one line."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Console

from gamehall.ai import RandomBot
from gamehall.core import CHANCE, TERMINAL, Game, State
from gamehall.play.terminal import Seat, StepRenderer, play_game

DICE = (10, 11)  # chance: a die shows 1 or 2
TURNS = 4


class StepsGame(Game):
    """Each turn: two dice are rolled (two chance nodes), then the mover picks a letter twice."""

    name: ClassVar[str] = "steps"
    title: ClassVar[str] = "Steps"
    has_chance = True

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("p", "q")

    @property
    def num_distinct_actions(self) -> int:
        return 12

    @property
    def max_game_length(self) -> int:
        return 4 * TURNS

    @property
    def max_chance_outcomes(self) -> int:
        return 2

    def new_initial_state(self, seed: int | None = None) -> StepsState:
        return StepsState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> StepsState:
        raise NotImplementedError

    def render_text(self, state: State, seat: int | None = None) -> str:
        return f"BOARD {' '.join(state.action_to_string(a) for a in state.history())}"


class CompactStepsGame(StepsGame):
    def render_step(self, state: State, seat: int | None) -> str | None:
        assert isinstance(state, StepsState)
        return "STEP second letter" if state.steps == 1 else None


class StepsState(State):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.turn = 0
        self.rolled = 0
        self.steps = 0

    def current_player(self) -> int:
        if self.turn >= TURNS:
            return TERMINAL
        return CHANCE if self.rolled < 2 else self.turn % 2

    def legal_actions(self) -> list[int]:
        if self.turn >= TURNS:
            return []
        return list(DICE) if self.rolled < 2 else [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 0.5) for a in DICE] if self.current_player() == CHANCE else []

    def _apply(self, action: int) -> None:
        if action in DICE:
            self.rolled += 1
        elif self.steps == 0:
            self.steps = 1
        else:
            self.turn, self.rolled, self.steps = self.turn + 1, 0, 0

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def action_to_string(self, action: int) -> str:
        return f"die {action - 9}" if action in DICE else "xy"[action]

    def to_json(self) -> dict[str, Any]:
        return {"game": "steps", "options": {}, "turn": self.turn, "rolled": self.rolled,
                "steps": self.steps}


def run(game: Game, human: str = "x") -> str:
    out = io.StringIO()
    moves = iter([human] * 20)
    play_game(game, [Seat("you"), Seat("bot", RandomBot(3))], Console(file=out, width=100),
              seed=1, ask=lambda prompt: next(moves))
    return out.getvalue()


def test_compact_status_between_steps_of_one_turn() -> None:
    assert isinstance(CompactStepsGame(), StepRenderer)
    text = run(CompactStepsGame())
    lines = text.splitlines()
    # p moves in turns 1 and 3: the whole board at each turn's start, the status in between
    assert sum(line.startswith("BOARD") for line in lines) == 1 + 2 + 1  # start, 2 turns, end
    assert lines.count("STEP second letter") == 2
    first = lines.index("STEP second letter")
    # right after the turn-start board (two dice, no letter yet): no redraw after the first step
    assert lines[first - 1].startswith("BOARD die") and lines[first - 1].count(" ") == 4


def test_games_without_a_step_status_redraw_the_board() -> None:
    assert not isinstance(StepsGame(), StepRenderer)
    text = run(StepsGame())
    assert "STEP" not in text
    assert sum(line.startswith("BOARD") for line in text.splitlines()) == 1 + 4 + 1


def test_consecutive_chance_outcomes_share_one_line() -> None:
    text = run(StepsGame())
    rolls = [line for line in text.splitlines() if "chance:" in line]
    assert len(rolls) == TURNS  # one line per turn's two dice
    assert all(line.count("die ") == 2 and " · " in line for line in rolls)
