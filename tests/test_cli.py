"""`gamehall` commands given bad flags or bad files: one clear line, a non-zero exit, never a
traceback, and before anything starts (a game, a server)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamehall.cli import app

ROOT = Path(__file__).resolve().parents[1]


def one_error_line(args: list[str], *, needle: str) -> str:
    result = CliRunner().invoke(app, args)
    text = result.output  # stdout and stderr as a person sees them
    lines = [x for x in text.splitlines() if x.strip()]
    assert result.exit_code == 2, (args, text)
    assert "Traceback" not in text and isinstance(result.exception, SystemExit), (args, text)
    assert len(lines) == 1 and lines[0].startswith("error:"), (args, lines)
    assert needle in lines[0], (args, lines[0])
    return lines[0]


@pytest.mark.parametrize(("flags", "needle"), [
    (["--log-level", "loud"], "--log-level is one of critical, error, warning, info"),
    (["--sqlite-sync", "maybe"], "--sqlite-sync is one of normal, full"),
    (["--plugin", "nosuch"], "--plugin nosuch: cannot import it"),
    (["--db", "/no/such/dir/x.db"], "the folder /no/such/dir does not exist"),
    (["--port", "99999"], "--port is a number from 1 to 65535, not 99999"),
    (["--port", "0"], "--port is a number from 1 to 65535, not 0"),
    (["--db", "nosuchdb://x/y"], "no database kind 'nosuchdb'"),
])
def test_serve_refuses_bad_flags_in_one_line(flags: list[str], needle: str,
                                             tmp_path: Path) -> None:
    one_error_line(["serve", "--db", str(tmp_path / "h.db"), *flags], needle=needle)


def test_serve_says_how_to_install_the_postgresql_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    line = one_error_line(["serve", "--db", "postgresql+psycopg://u:secret@127.0.0.1/x"],
                          needle="PostgreSQL driver is not installed")
    assert 'pip install "gamehall[postgres]"' in line and "secret" not in line


def test_serve_refuses_a_bad_boards_folder(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mine.json").write_text("{\"format\": \"hotu-matua-board/1\"}")
    one_error_line(["serve", "--db", str(tmp_path / "h.db"), "--boards",
                    str(tmp_path / "boards")], needle="--boards: mine.json: Hotu Matua:")


def test_a_real_serve_process_exits_with_one_line(tmp_path: Path) -> None:
    """The same through the installed entry point: nothing listens, nothing is printed twice."""
    for flags in (["--port", "99999"], ["--db", "/no/such/dir/x.db"]):
        done = subprocess.run([sys.executable, "-m", "gamehall", "serve", *flags],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
        lines = [x for x in (done.stdout + done.stderr).splitlines() if x.strip()]
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), lines


def _bad_files(tmp_path: Path) -> list[tuple[Path, str]]:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b"{\"game\": \"hula\", \"name\": \"\xe9\"}")
    text = tmp_path / "notes.json"
    text.write_text("game: hula")
    array = tmp_path / "list.json"
    array.write_text("[1, 2]")
    return [(latin, "is not UTF-8 text"), (text, "is not JSON (line 1, column 1"),
            (array, "holds no JSON object")]


def test_replay_and_board_state_refuse_files_that_are_not_json(tmp_path: Path) -> None:
    for path, needle in _bad_files(tmp_path):
        one_error_line(["replay", str(path)], needle=needle)
        one_error_line(["board", "hula", "--svg", str(tmp_path / "x.svg"), "--state", str(path)],
                       needle=needle)
    assert not (tmp_path / "x.svg").exists()


def test_play_refuses_a_record_in_a_missing_folder_before_the_game(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "x.json"
    result = CliRunner().invoke(app, ["play", "hula", "--seats", "random,random",
                                      "--record", str(target)])
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert result.exit_code == 2 and lines == [f"error: --record: the folder {target.parent} "
                                               "does not exist"], lines
    one_error_line(["play", "hula", "--seats", "random,random", "--record", str(tmp_path)],
                   needle="is a folder")
    good = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "hula", "--seats", "random,random", "--size", "5",
                                      "--seed", "1", "--record", str(good)])
    assert result.exit_code == 0, result.output
    assert json.loads(good.read_text())["game"] == "hula"


def test_a_serve_whose_start_fails_exits_with_3(tmp_path: Path) -> None:
    """Redis unreachable when the server starts: its flags were good, its start fails, and the
    process exits with status 3 (uvicorn's), never 0, so that a service manager starts it
    again."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run([sys.executable, "-m", "gamehall", "serve", "--port", str(port),
                           "--db", str(tmp_path / "h.db"), "--redis", "redis://127.0.0.1:1/0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, (done.stdout + done.stderr)[-2000:]
