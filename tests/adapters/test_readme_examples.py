"""The examples in the adapters' README run as written (when their game and package are here)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from gamehall.core import list_games

README = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "adapters" / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.DOTALL)


def _named_game(code: str) -> str:
    match = re.search(r'(?:load_game\("gamehall_|env\(")(\w+)"', code)
    assert match, "each example names its game"
    return match.group(1)


@pytest.mark.parametrize("code", BLOCKS, ids=["openspiel", "pettingzoo"])
def test_example_runs(code: str) -> None:
    pytest.importorskip("pyspiel" if "pyspiel" in code else "pettingzoo")
    game = _named_game(code)
    if game not in list_games():
        pytest.skip(f"the example's game {game!r} is not installed")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})  # noqa: S102 - our own README's example
    assert out.getvalue().strip(), "the example prints its result"
