"""Every game package has the same skeleton, and its imports run one way.

Read from the source (ast), not by importing: an import hidden in a function or under
``TYPE_CHECKING`` counts like any other, so a cycle cannot be dodged either way.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gamehall.core.package import PackagedGame

GAMES = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "games"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())

SKELETON = ("__init__.py", "game.py", "rules.py", "notation.py", "jsonform.py", "view.py",
            "explain.py", "README.md")
ABOVE_RULES = ("game", "jsonform", "view", "explain", "svg", "evaluator", "floor", "__init__")
"""Modules that present or wire the rules: `rules.py` imports none of them, even indirectly."""

CLASS_NAMES = {"hula": "Hula", "haugaz": "Haugaz", "halali": "Halali",
               "hotu_matua": "HotuMatua", "hau_la": "HauLa"}


def _modules(package: str) -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(), filename=str(path))
            for path in sorted((GAMES / package).glob("*.py"))}


def _internal(package: str, node: ast.Import | ast.ImportFrom, names: set[str]) -> set[str]:
    """The modules of `package` that an import statement loads (``__init__`` for the package)."""
    prefix = f"gamehall.games.{package}"
    targets: list[str] = []
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    elif node.level == 0 and node.module is not None:
        if node.module == prefix:  # from gamehall.games.x import submodule (or a name)
            targets = [f"{prefix}.{alias.name}" if alias.name in names else prefix
                       for alias in node.names]
        else:
            targets = [node.module]
    elif node.level > 0:
        raise AssertionError("game packages use absolute imports")
    out = set()
    for target in targets:
        if target == prefix:
            out.add("__init__")
        elif target.startswith(prefix + "."):
            out.add(target[len(prefix) + 1:].split(".")[0])
    return out


def _graph(package: str) -> dict[str, set[str]]:
    modules = _modules(package)
    names = set(modules)
    return {name: {dep for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                   for dep in _internal(package, node, names)} - {name}
            for name, tree in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph`, as a path that comes back to its start, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_the_walk_sees_every_game() -> None:
    assert PACKAGES == ["halali", "hau_la", "haugaz", "hotu_matua", "hula"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"rules": {"view"}, "view": {"jsonform"}, "jsonform": {"rules"}}) == [
        "jsonform", "rules", "view", "jsonform"]
    assert _cycle({"game": {"rules", "view"}, "view": {"rules"}, "rules": set()}) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_has_the_skeleton(package: str) -> None:
    present = {p.name for p in (GAMES / package).iterdir()}
    assert [f for f in SKELETON if f not in present] == []
    for retired in ("position.py", "state_json.py"):
        assert retired not in present
    game = (GAMES / package / "game.py").read_text()
    rules = (GAMES / package / "rules.py").read_text()
    assert (f"class {CLASS_NAMES[package]}Game(PackagedGame[{CLASS_NAMES[package]}State]):"
            in game)
    assert f"class {CLASS_NAMES[package]}State(State):" in rules
    functions = {name: {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
                 for name, tree in _modules(package).items()}
    assert {"state_to_json", "state_from_json"} <= functions["jsonform"]
    assert {"state_view", "render_text", "outcome_message", "outcome_text"} <= functions["view"]
    assert {"explain_illegal", "read_move"} <= functions["explain"]


WIRED = ("state_from_json", "state_to_json", "state_view", "seat_overlay", "outcome_message",
         "explain_illegal", "read_move", "render_text", "render_svg")
"""The hooks `gamehall.core.package.PackagedGame` wires to the package's modules."""


def test_the_wired_hooks_are_the_core_wiring() -> None:
    assert all(name in PackagedGame.__dict__ for name in WIRED)


@pytest.mark.parametrize("package", PACKAGES)
def test_game_py_leaves_the_wiring_to_core(package: str) -> None:
    """A game's `game.py` names its modules once (`GamePackage`); it does not hand the state to
    them again, hook by hook, as five copies of the same block once did."""
    tree = _modules(package)["game"]
    game_class = next(n for n in tree.body
                      if isinstance(n, ast.ClassDef) and n.name.endswith("Game"))
    defined = {n.name for n in game_class.body if isinstance(n, ast.FunctionDef)}
    assert defined & set(WIRED) == set()
    assert "GamePackage(" in ast.unparse(game_class)


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_inside_a_package_have_no_cycle(package: str) -> None:
    assert _cycle(_graph(package)) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_rules_import_nothing_above_them(package: str) -> None:
    assert _reachable(_graph(package), "rules") & set(ABOVE_RULES) == set()


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_inside_a_function(package: str) -> None:
    found = []
    for name, tree in _modules(package).items():
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                found += [f"{name}.py:{n.lineno}" for n in ast.walk(func)
                          if isinstance(n, ast.Import | ast.ImportFrom)]
    assert found == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_type_checking_block(package: str) -> None:
    """Types come from real imports that run downward; a ``TYPE_CHECKING`` block is how a
    back-edge used to hide."""
    found = [f"{name}.py:{n.lineno}" for name, tree in _modules(package).items()
             for n in ast.walk(tree)
             if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)]
    assert found == []
