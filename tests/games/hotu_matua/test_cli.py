"""The command line: a whole game against the random bot, board files, SVG, records."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from gamehall.cli import app
from gamehall.core import load_game

runner = CliRunner()


def test_a_whole_game_against_the_random_bot(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "moves\nboard\n" + "end\n" * 20
    result = runner.invoke(app, ["play", "hotu_matua", "--seed", "7", "--turn-limit", "8",
                                 "--record", str(record)], input=typed)
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output
    assert "f55" in result.output and "Moves:" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "hotu_matua" and data["options"] == {"board": "", "turn_limit": 8}
    assert any(a["move"].startswith("roll ") for a in data["actions"])
    replay = runner.invoke(app, ["replay", str(record), "--quiet"])
    assert replay.exit_code == 0 and "verified" in replay.output
    svg = tmp_path / "end.svg"
    drawn = runner.invoke(app, ["board", "hotu_matua", "--svg", str(svg), "--state", str(record)])
    assert drawn.exit_code == 0, drawn.output
    ET.fromstring(svg.read_text())


def test_a_human_move_in_notation() -> None:
    # the terminal draws chance from the state's own generator: find north's first legal step
    state = load_game("hotu_matua", turn_limit=2).new_initial_state(seed=1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    step = state.action_to_string(state.legal_actions()[0])
    assert ">" in step
    result = runner.invoke(app, ["play", "hotu_matua", "--seed", "1", "--turn-limit", "2"],
                           input=f"N9>f1\n{step}\n" + "end\n" * 4)
    assert result.exit_code == 0, result.output
    assert "no ship called N9" in result.output
    assert "north (you) plays" not in result.output  # people are not announced, bots are
    assert "south (random) plays" in result.output or "Game over" in result.output


def test_between_steps_of_a_turn_the_map_is_not_drawn_again() -> None:
    state = load_game("hotu_matua").new_initial_state(seed=1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    step = state.action_to_string(state.legal_actions()[0])
    result = runner.invoke(app, ["play", "hotu_matua", "--seed", "1"], input=f"{step}\nquit\n")
    assert result.exit_code == 0, result.output
    before, after = result.output.split("north to move>", 1)
    assert "┌" in before  # the map, at the start of the turn
    assert "┌" not in after and "(board draws the map)" in after and "Dice rolled" in after


def test_bots_play_a_whole_default_length_game() -> None:
    result = runner.invoke(app, ["play", "hotu_matua", "--seats", "random,random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output


def test_board_svg_command(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = runner.invoke(app, ["board", "hotu_matua", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg")


def test_bad_board_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hotu-matua-board/1", "fields": []}')
    result = runner.invoke(app, ["play", "hotu_matua", "--board", str(bad)])
    assert result.exit_code == 2
    assert "needs \"fields\"" in result.output and "Traceback" not in result.output
