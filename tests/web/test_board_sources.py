"""The page's sources keep to the board contract: no board reads notation (they use the state's
structured `legal` entries and the moves' parts), and outside the board modules themselves the
page names no game (it learns the games and their board modules from /api/games)."""

from __future__ import annotations

import re
from pathlib import Path

from gamehall.core import list_games, load_game

WEB = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web"
BOARDS = WEB / "js" / "boards"


def _code(path: Path) -> str:
    """The file without its comment lines (comments may name a game as an example)."""
    return "\n".join(line for line in path.read_text().splitlines()
                     if not line.lstrip().startswith(("//", "*", "/*")))


def test_no_board_reads_the_notation_list() -> None:
    for path in sorted(BOARDS.glob("*.js")):
        code = _code(path)
        assert "legal_moves" not in code, f"{path.name} reads legal_moves: use state.legal"
        assert not re.search(r"\.move\.(match|split|startsWith|endsWith|slice)\(", code), path.name


def test_the_page_outside_the_board_modules_names_no_game() -> None:
    games = [name for name in list_games() if not name.startswith("test")]
    words = {w for name in games for w in (name, load_game(name).title)}
    shared = [*sorted((WEB / "js").glob("*.js")), WEB / "index.html", BOARDS / "index.js",
              BOARDS / "shell.js"]
    for path in shared:
        code = _code(path).lower()
        named = [w for w in words if re.search(rf"\b{re.escape(w.lower())}\b", code)]
        assert not named, f"{path.relative_to(WEB)} names {named}"
