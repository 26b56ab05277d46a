"""docs/architecture.md stays true: every path it names exists, and every function it names in
the path of a move is defined in the file named before it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
OUTSIDE = ("src/", "tests/", "deploy/", "benchmarks/", "tools/", "docs/")
"""Paths with these prefixes are from the repository root; the others from src/gamehall/, and a
bare file name is a file of the games' skeleton (in every game package)."""
PATH = re.compile(r"`([\w<>./-]+(?:\.py|\.js|\.md|\.html|/))`")
GAMES = sorted(p.name for p in (ROOT / "src" / "gamehall" / "games").iterdir()
               if (p / "__init__.py").is_file())


def _file(path: str) -> Path:
    return ROOT / path if path.startswith(OUTSIDE) else ROOT / "src" / "gamehall" / path


def _exists(path: str) -> bool:
    if "/" not in path and not _file(path).exists():
        return all(_file(f"games/{game}/{path}").is_file() for game in GAMES)
    return _file(path).exists()


def _paths(text: str) -> set[str]:
    out = set()
    for path in PATH.findall(text):
        out |= {path.replace("<name>", g) for g in GAMES} if "<name>" in path else {path}
    return out


def _defines(file: Path, name: str) -> bool:
    """Whether `file` defines `name` (the last part of ``Class.method``), in Python or JS."""
    last = name.rsplit(".", 1)[-1]
    text = file.read_text(encoding="utf-8")
    if file.suffix == ".py":
        return re.search(rf"^\s*(?:async def|def|class) {last}\b", text, re.M) is not None
    return re.search(rf"(?:function\*? {last}\b|class {last}\b|^\s*{last}\s*\()", text,
                     re.M) is not None


def test_every_path_the_page_names_exists() -> None:
    paths = _paths(PAGE.read_text(encoding="utf-8"))
    assert {"server/hall/hall.py", "server/table/room.py", "server/storage/sql.py",
            "server/pubsub/in_process.py", "server/api/app.py"} <= paths
    missing = sorted(p for p in paths if not _exists(p))
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def _steps(text: str) -> list[tuple[str, str]]:
    """(file, function) for every function the path of a move names: each paragraph's quoted
    names in order, a function belonging to the file named last before it."""
    path_of_a_move = text.split("## The path of a move")[1].split("\n## ")[0]
    steps = []
    for paragraph in path_of_a_move.split("\n\n"):
        file = None
        for token in re.findall(r"`([^`]+)`", " ".join(paragraph.split())):
            if re.fullmatch(r"[\w/]+\.(?:py|js)", token):
                file = token
            elif re.fullmatch(r"[A-Za-z_][\w.]*", token) and file is not None:
                steps.append((file, token))
    return steps


def test_every_step_of_the_move_names_a_function_of_its_file() -> None:
    steps = _steps(PAGE.read_text(encoding="utf-8"))
    assert ("server/hall/write_path.py", "WritePath._commit") in steps and len(steps) >= 20
    wrong = sorted({f"{file} {name}" for file, name in steps if not _defines(_file(file), name)})
    assert not wrong, f"not defined where docs/architecture.md says: {wrong}"


def test_the_checks_catch_a_wrong_name(tmp_path: Path) -> None:
    assert not _defines(ROOT / "src" / "gamehall" / "server" / "hall.py", "Hall.no_such_step")
    assert _defines(ROOT / "src" / "gamehall" / "web" / "js" / "room.js", "showRoom")
    assert not _exists("server/no_such_module.py") and not _exists("playout.py")
    assert _exists("rules.py") and _exists("games/hula/playout.py")
