"""The hall's check of a client's options and the boards it offers (no server needed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gamehall.core import GamehallError, game_class
from gamehall.server.table.errors import RoomError
from gamehall.server.table.options import Boards
from tests.server.test_live_options import RAW, island

HOTU = game_class("hotu_matua")


def refused(boards: Boards, options: dict[str, object]) -> str:
    with pytest.raises(RoomError) as err:
        boards.check(HOTU, options)
    assert err.value.code == "bad_option"
    return err.value.message


def test_names_and_values_are_checked_before_any_game_is_built() -> None:
    boards = Boards()
    assert "no option 'self'" in refused(boards, {"self": 1})
    assert "no option" in refused(boards, {"": 1})
    assert "at least 1" in refused(boards, {"turn_limit": 0})
    assert "number, text or true/false" in refused(boards, {"turn_limit": [1]})
    assert boards.check(HOTU, {" turn_limit ": "7"}) == {"turn_limit": 7}


def test_a_file_option_gets_data_or_an_offered_name_never_a_path(tmp_path: Path) -> None:
    (tmp_path / "Island.json").write_text(json.dumps(island()))
    boards = Boards.load(tmp_path, max_bytes=20_000)
    data = boards.check(HOTU, {"board": "ISLAND"})["board"]
    assert json.loads(str(data))["name"] == "Test island"
    assert boards.check(HOTU, {"board": "default"}) == {"board": ""}
    assert boards.check(HOTU, {"board": ""}) == {"board": ""}
    text = json.dumps(RAW)
    assert boards.check(HOTU, {"board": text}) == {"board": text}
    paths = {refused(boards, {"board": p}) for p in
             ("/etc/passwd", str(tmp_path / "Island.json"), "island.json", "./island")}
    assert len(paths) == 1 and "default, island" in paths.pop()
    big = dict(island(), note="n" * 20_000)
    assert "limited to 20000 bytes" in refused(boards, {"board": json.dumps(big)})
    for option in HOTU.OPTIONS:
        assert not option.reaches_files(boards.check(HOTU, {option.name: option.default})[
            option.name])
    board = next(o for o in boards.describe(HOTU) if o["name"] == "board")
    assert board["offered"][1]["value"] == "island" and board["max_bytes"] == 20_000


def test_a_bad_boards_folder_stops_the_start_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(GamehallError, match="is not a folder"):
        Boards.load(tmp_path / "nowhere")
    bad = dict(island())
    bad["pearls"] = bad["pearls"][:4]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(GamehallError, match=r"bad.json: Hotu Matua: .*not 5"):
        Boards.load(tmp_path)
    (tmp_path / "bad.json").unlink()
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(GamehallError, match="pipe.json is not a regular file"):
        Boards.load(tmp_path)
    (tmp_path / "pipe.json").unlink()
    (tmp_path / "latin.json").write_bytes(b"{\"name\": \"\xe9\"}")
    with pytest.raises(GamehallError, match="latin.json is not UTF-8"):
        Boards.load(tmp_path)
    (tmp_path / "latin.json").unlink()
    (tmp_path / "default.json").write_text(json.dumps(RAW))
    with pytest.raises(GamehallError, match="file name"):
        Boards.load(tmp_path)
