"""Sizes as warnings, not as a reason to cut a file (issue 40): files are cut along concerns, so a
module past `WARN_LINES` is a question — does it still hold one concern? — asked as a warning in
the test report; only a module past `MOST_LINES` (surely more than one concern) fails. No function
over 150 lines. The page's JavaScript modules (web/js) keep the line limit; their functions are
measured by tests/web/test_function_length.py.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gamehall"
WARN_LINES = 700
MOST_LINES = 1200
MOST_FUNCTION_LINES = 150


class SizeWarning(UserWarning):
    """A module has grown past `WARN_LINES`: read it and split it if it holds two concerns."""


def module_lines(package: Path, pattern: str = "*.py") -> dict[str, int]:
    """Each module of `package` whose name matches `pattern` (relative path) with its number of
    lines."""
    return {p.relative_to(package).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for p in sorted(package.rglob(pattern)) if "__pycache__" not in p.parts}


def long_functions(package: Path) -> dict[str, int]:
    """`module:line name` of each function (or method) over `MOST_FUNCTION_LINES`, with its
    length from its `def` to its last line."""
    out = {}
    for p in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MOST_FUNCTION_LINES:
                    out[f"{p.relative_to(package).as_posix()}:{node.lineno} {node.name}"] = length
    return out


def test_no_module_is_over_the_limit() -> None:
    sizes = module_lines(PACKAGE)
    over = {m: n for m, n in sizes.items() if n > MOST_LINES}
    assert not over, f"modules over {MOST_LINES} lines (more than one concern: split them): {over}"
    for module, n in sizes.items():
        if n > WARN_LINES:
            warnings.warn(SizeWarning(f"{module} has {n} lines: does it still hold one concern?"),
                          stacklevel=1)


def test_no_page_module_is_over_the_limit() -> None:
    # the page's modules are read by the same newcomer (room.js grew to 725 lines unnoticed)
    sizes = module_lines(PACKAGE / "web" / "js", "*.js")
    assert sizes, "no JavaScript modules found under web/js"
    over = {m: n for m, n in sizes.items() if n > MOST_LINES}
    assert not over, f"page modules over {MOST_LINES} lines (split them): {over}"


def test_no_function_is_over_the_limit() -> None:
    long = long_functions(PACKAGE)
    assert not long, f"functions over {MOST_FUNCTION_LINES} lines (split them): {long}"
