"""Terminal play and the CLI, driven with scripted input on the toy game."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gamehall.ai import RandomBot
from gamehall.cli import app
from gamehall.core import GameRecord, load_game, register_game, unregister_game
from gamehall.play.terminal import Seat, play_game, read_turn
from tests.core.toy import ToyGame


@pytest.fixture(autouse=True)
def _toy_registered() -> Iterator[None]:
    register_game(ToyGame)
    yield
    unregister_game(ToyGame.name)


def scripted(lines: list[str]):  # noqa: ANN201 - an input function
    it = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def test_bad_input_is_answered_and_reprompted(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100)
    record = tmp_path / "game.json"
    state = play_game(load_game("toy", target=3), [Seat("you"), Seat("bot", RandomBot(1))],
                      console, seed=2, record_path=record,
                      ask=scripted(["jump", "", "moves", "help", "stop"]))
    text = out.getvalue()
    assert "jump is not a legal move here" in text
    assert "type a move" in text
    assert "roll stop" in text
    assert state.is_terminal() and "Game over" in text
    assert GameRecord.from_dict(json.loads(record.read_text())).replay() == state


def test_quitting_abandons_without_traceback() -> None:
    out = io.StringIO()
    state = play_game(load_game("toy"), [Seat("you"), Seat("them")], Console(file=out),
                      ask=scripted(["quit"]))
    assert not state.is_terminal() and "abandoned" in out.getvalue()


def test_cli_play_replay_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    rec = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "toy", "--first", "bot", "--target", "4",
                                 "--seed", "3", "--record", str(rec)], input="stop\n" * 20)
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(rec)])
    assert result.exit_code == 0 and "verified" in result.output
    result = runner.invoke(app, ["play", "toy", "--target", "99"])
    assert result.exit_code == 2 and "at most 20" in result.output
    result = runner.invoke(app, ["play", "toy", "--vs", "genius"])
    assert result.exit_code == 2 and "no bot called 'genius'" in result.output
    rec.write_text('{"game": "toy", "actions": ["roll", "+9"]}')
    result = runner.invoke(app, ["replay", str(rec)])
    assert result.exit_code == 2 and "move 2" in result.output


def test_several_steps_of_one_turn_on_one_line() -> None:
    state = load_game("haugaz", size=6, cake=False).new_initial_state()
    rng = __import__("random").Random(0)
    while True:
        a = rng.choice(state.legal_actions())
        probe = state.clone()
        probe.apply_action(a)
        if probe.current_player() == state.current_player():
            b = probe.legal_actions()[0]
            line = f"{state.action_to_string(a)} {probe.action_to_string(b)}"
            assert read_turn(state, line) == [a, b]
            assert read_turn(state, state.action_to_string(a)) == [a]
            return
        state = probe
