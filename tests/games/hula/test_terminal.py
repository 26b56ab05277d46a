"""Terminal play of Hula through the `gamehall` command, with typed (piped) moves."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gamehall.cli import app
from gamehall.games.hula.geometry import geometry

EVERY_CELL = "\n".join(n for n in geometry(5).names if n != "e5") + "\n"


def test_a_whole_game_against_the_random_bot(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = "help\nmoves\nzz9\ne5\n" + EVERY_CELL
    result = CliRunner().invoke(app, ["play", "hula", "--size", "5", "--seed", "7",
                                      "--record", str(record)], input=typed)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "'zz9' is not a cell" in result.output
    assert "e5 is the centre" in result.output
    assert "Game over:" in result.output and "wins with a loop around the centre" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "hula" and data["result"] in ([1.0, -1.0], [-1.0, 1.0])
    replay = CliRunner().invoke(app, ["replay", str(record), "--quiet"])
    assert replay.exit_code == 0 and "verified" in replay.output


def test_two_people_and_the_swap() -> None:
    result = CliRunner().invoke(app, ["play", "hula", "--size", "5", "--vs", "human"],
                                input="c3\nswap\nquit\n")
    assert result.exit_code == 0, result.output
    assert "last move: swap" in result.output
    assert "Game abandoned" in result.output


def test_the_bot_can_take_the_first_seat() -> None:
    result = CliRunner().invoke(app, ["play", "hula", "--size", "5", "--first", "bot",
                                      "--seed", "2"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "first: random, second: you" in result.output
    assert "first (random) plays" in result.output


def test_a_bad_option_is_a_message_not_a_traceback() -> None:
    result = CliRunner().invoke(app, ["play", "hula", "--size", "9"], input="")
    assert result.exit_code == 2
    assert "size must be one of 5, 6, 7" in result.output
