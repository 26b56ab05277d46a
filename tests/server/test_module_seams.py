"""The server's modules that only refuse (accounts, boards, rules pages, bots) do not import the
room for its error class: `RoomError` has a module of its own, and so has the room's JSON.

Read from the source (ast), so an import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "server"


def _imports(module: str) -> set[str]:
    tree = ast.parse((SERVER / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.parametrize("module", ["accounts/identity", "table/options", "api/routes/howto",
                                    "engines/pool"])
def test_refusing_modules_do_not_import_the_room(module: str) -> None:
    imported = _imports(module)
    assert "gamehall.server.table.room" not in imported
    assert "gamehall.server.table.errors" in imported


def test_the_room_error_and_the_rooms_json_live_apart_from_the_room() -> None:
    from gamehall.server.table import errors
    from gamehall.server.table import room as rooms
    from gamehall.server.table import room_json as roomjson

    assert rooms.RoomError is errors.RoomError  # the room raises the one error class
    assert not any(isinstance(node, ast.ClassDef) and node.name == "RoomError"
                   for node in ast.walk(ast.parse((SERVER / "table" / "room.py").read_text())))
    assert {"render", "render_head", "snapshot", "summary"} <= set(vars(roomjson))
