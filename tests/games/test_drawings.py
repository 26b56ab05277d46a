"""Every game can be drawn: an SVG of the start and of a position read from a file, from the
command line too, and `gamehall board --help` says what each game can draw."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamehall.cli import app
from gamehall.core import GameRecord, load_game

GAMES = sorted(ep.name for ep in entry_points(group="gamehall.games"))
"""The installed games (tests elsewhere may register toy games for a while)."""

runner = CliRunner()


def _midgame(name: str, moves: int = 12):  # noqa: ANN202 - a State
    state = load_game(name).new_initial_state(2)
    rng = random.Random(2)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_every_game_draws_its_start_and_a_position(name: str) -> None:
    game = load_game(name)
    assert ET.fromstring(game.render_svg()).tag.endswith("svg")
    state = _midgame(name)
    assert ET.fromstring(game.render_svg(state)).tag.endswith("svg")


@pytest.mark.parametrize("name", GAMES)
def test_the_command_draws_the_start_and_a_state_file(name: str, tmp_path: Path) -> None:
    out = tmp_path / "start.svg"
    result = runner.invoke(app, ["board", name, "--svg", str(out)])
    assert result.exit_code == 0, result.output
    ET.fromstring(out.read_text())
    state = _midgame(name)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state.to_json()))
    drawn = tmp_path / "state.svg"
    result = runner.invoke(app, ["board", name, "--svg", str(drawn), "--state", str(saved)])
    assert result.exit_code == 0, result.output
    assert drawn.read_text() == state.game.render_svg(state)
    record = tmp_path / "record.json"
    record.write_text(json.dumps(GameRecord.from_state(state, seed=2).to_dict()))
    result = runner.invoke(app, ["board", name, "--svg", str(drawn), "--state", str(record)])
    assert result.exit_code == 0, result.output
    ET.fromstring(drawn.read_text())


def test_without_svg_the_board_is_printed() -> None:
    result = runner.invoke(app, ["board", "hula", "--size", "5"])
    assert result.exit_code == 0, result.output
    assert "first to move" in result.output


def test_a_state_of_another_game_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(load_game("hula").new_initial_state().to_json()))
    result = runner.invoke(app, ["board", "halali", "--svg", str(tmp_path / "x.svg"),
                                 "--state", str(saved)])
    assert result.exit_code == 2 and "not halali" in result.output


def test_help_lists_what_each_game_can_draw() -> None:
    result = runner.invoke(app, ["board", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    lines = {line.strip(" │").split(":")[0]: line for line in result.output.splitlines()
             if ":" in line}
    for name in GAMES:
        assert name in lines and "svg" in lines[name], result.output
    assert "step status" in lines["hotu_matua"] and "step status" not in lines["hula"]
