"""Terminal play: a whole game against the random bot, and the CLI with two bots."""

from __future__ import annotations

import io
import random

from rich.console import Console
from typer.testing import CliRunner

from gamehall.ai import make_bot
from gamehall.cli import app
from gamehall.core import State, load_game
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import SIDE_NAMES
from gamehall.play.terminal import Seat, play_game


def test_a_person_plays_a_whole_game_against_the_random_bot() -> None:
    game = load_game("halali")
    made: list[State] = []
    new_state = game.new_initial_state

    def tracked(seed: int | None = None) -> State:
        made.append(new_state(seed))
        return made[-1]

    game.new_initial_state = tracked  # type: ignore[method-assign]
    rng = random.Random(5)
    typed: list[str] = []

    def person(prompt: str) -> str:
        state = made[0]
        if not typed:
            typed.append("c3xz9")
            return "c3xz9"  # a typo first: the prompt must explain and ask again
        text = state.action_to_string(rng.choice(state.legal_actions()))
        typed.append(text)
        return text

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    final = play_game(game, [Seat("you"), Seat("random", make_bot("random", 1))], console,
                      seed=5, ask=person)
    text = out.getvalue()
    assert final.is_terminal() and "Game over" in text
    assert "moves look like" in text and len(typed) > 10
    assert "end phase" in text and "beasts (random) plays" in text


def test_cli_plays_halali_between_two_bots() -> None:
    result = CliRunner().invoke(app, ["play", "halali", "--seats", "random,random",
                                      "--seed", "2", "--match", "on", "--rifles", "random"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "game 2 of 2" in result.output


def test_match_prompts_never_name_the_role_a_seat_does_not_play() -> None:
    # In a match's second game seat 0 plays the beasts: a prompt (or a bot line) naming seats by
    # their first-game role would call the person "humans" while they move the beasts.
    game = load_game("halali", match=True)
    made: list[State] = []
    new_state = game.new_initial_state

    def tracked(seed: int | None = None) -> State:
        made.append(new_state(seed))
        return made[-1]

    game.new_initial_state = tracked  # type: ignore[method-assign]
    rng = random.Random(3)
    wrong: list[str] = []

    def person(prompt: str) -> str:
        state = made[0]
        assert isinstance(state, HalaliState)
        other = SIDE_NAMES[1 - state.side_of_seat(state.current_player())]
        if other in prompt:
            wrong.append(f"game {state.game_no + 1}: {prompt!r}")
        return state.action_to_string(rng.choice(state.legal_actions()))

    out = io.StringIO()
    final = play_game(game, [Seat("you"), Seat("random", make_bot("random", 2))],
                      Console(file=out, width=100, color_system=None), seed=3, ask=person)
    assert final.is_terminal() and "game 2 of 2" in out.getvalue()
    assert not wrong, wrong[:3]
    assert "beasts (random) plays" not in out.getvalue().split("game 2 of 2", 1)[1]
