"""Notation, the JSON form, terminal rendering, the action space on big boards, and the CLI."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gamehall.ai import RandomBot
from gamehall.cli import app
from gamehall.core import (
    GameRecord,
    NotationError,
    StateFormatError,
    load_game,
    state_from_json,
)
from gamehall.play.terminal import Seat, play_game
from tests.games.haugaz.helpers import B, W, play, position


def test_action_numbers_and_notation() -> None:
    game = load_game("haugaz")
    state = game.new_initial_state()
    n = 64
    assert game.num_distinct_actions == 11 * n + 3
    assert state.action_to_string(9 * n + 1 + 27) == "black d4"
    assert state.action_to_string(10 * n + 1 + 54) == "white g7"
    assert state.action_to_string(11 * n + 1) == "play black"
    assert state.action_to_string(11 * n + 2) == "play white"
    assert state.action_to_string(9 * n) == "pass"
    assert state.action_to_string(27) == "d4"
    assert state.string_to_action(" Black  D4 ") == 9 * n + 1 + 27


def test_a_whole_turn_typed_at_once_is_explained() -> None:
    state = position({"c3": [B], "h8": [W]})
    with pytest.raises(NotationError, match="two steps"):
        state.string_to_action("d4 c3-c4")
    with pytest.raises(NotationError, match="not a point"):
        state.string_to_action("z9")


def test_size_19_action_space_and_a_whole_random_game() -> None:
    game = load_game("haugaz", size=19)
    assert game.num_distinct_actions == 11 * 361 + 3
    state = game.new_initial_state()
    assert state.string_to_action("black s19") == 9 * 361 + 1 + 360
    moves = state.random_playout(random.Random(3))  # type: ignore[attr-defined]
    assert state.is_terminal() and moves == len(state.history()) <= game.max_game_length


def test_json_form_is_the_documented_one_and_round_trips() -> None:
    state = play(position({"d4": [B, W, B], "h8": [W]}, black_seat=1), "h1")
    data = state.to_json()
    assert data == {
        "game": "haugaz", "options": dict(state.game.options), "phase": "play",
        "black_seat": 1, "to_move": "black", "placed": "h1", "passes": 0,
        "opened": {"black": True, "white": True},
        "stacks": {"h1": ["black"], "d4": ["black", "white", "black"], "h8": ["white"]},
    }
    again = state_from_json(json.loads(json.dumps(data)))
    assert again == state and again.legal_actions() == state.legal_actions()


def test_setup_phases_in_json() -> None:
    state = load_game("haugaz").new_initial_state()
    play(state, "black d4")
    data = state.to_json()
    assert data["phase"] == "cake_white" and data["black_seat"] is None
    assert data["to_move"] is None and data["stacks"] == {"d4": ["black"]}
    assert state_from_json(data).legal_actions() == state.legal_actions()


@pytest.mark.parametrize(("change", "message"), [
    ({"stacks": {"z1": ["black"]}}, "not a point"),
    ({"stacks": {"a1": ["red"]}}, "'black' or 'white'"),
    ({"stacks": {"a1": []}}, "non-empty"),
    ({"phase": "dinner"}, "'phase'"),
    ({"black_seat": 2}, "'black_seat'"),
    ({"to_move": None}, "'to_move'"),
    ({"placed": "a1"}, "one piece of the mover"),
    ({"passes": 3}, "'passes'"),
    ({"options": {"size": 9}}, "options differ"),
])
def test_malformed_json_is_refused(change: dict, message: str) -> None:
    data = position({"d4": [B, W], "h8": [W]}).to_json()
    data.update(change)
    with pytest.raises(StateFormatError, match=message):
        load_game("haugaz").state_from_json(data)


def test_render_text_shows_height_owner_and_the_placed_stack() -> None:
    state = play(position({"d4": [B, W, B], "h8": [W, B, W, B, W, B, W, B, W, B, W]}), "a1")
    text = state.game.render_text(state, 0)
    assert "B3" in text and "W11" in text and "B1[/]*" in text
    assert "Black (first) placed on a1: now move a stack" in text
    mixed = position({"d4": [B, B, W], "h8": [W]}, grow_colour="mover_opponent")
    assert "d4 BBW" in mixed.game.render_text(mixed, None)
    svg = state.game.render_svg(state)
    assert svg.startswith("<svg") and svg.count("<circle") == 3


def test_terminal_game_typed_in_notation_against_the_random_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person typing legal moves in notation (place, then move, as two prompts) to the end."""
    game = load_game("haugaz", size=6, cake=False)
    rng = random.Random(5)
    states = []
    make = game.new_initial_state
    monkeypatch.setattr(game, "new_initial_state", lambda seed=None: states.append(make(seed))
                        or states[-1])

    def ask(prompt: str) -> str:
        return states[0].action_to_string(rng.choice(states[0].legal_actions()))

    out = io.StringIO()
    record = tmp_path / "game.json"
    state = play_game(game, [Seat("you"), Seat("bot", RandomBot(2))], Console(file=out, width=120),
                      seed=1, record_path=record, ask=ask)
    assert state.is_terminal() and "Game over" in out.getvalue()
    assert GameRecord.from_dict(json.loads(record.read_text())).replay() == state


def test_cli_plays_a_whole_game_with_options() -> None:
    result = CliRunner().invoke(app, ["play", "haugaz", "--seats", "random,random", "--seed", "4",
                                      "--size", "6", "--cake", "off"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "6x6, cake off" in result.output
    result = CliRunner().invoke(app, ["play", "haugaz", "--seats", "random,random", "--seed", "4",
                                      "--size", "5", "--cake-distance", "7"])
    assert result.exit_code == 2 and "cake_distance must be at most 4" in result.output
