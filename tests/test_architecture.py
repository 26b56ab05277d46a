"""docs/architecture.md stays true: every path it names exists, every function it names in the
path of a move is defined in the file named before it, the path names at most 8 files, and the
server's packages it lists are those on disk. And the rules it states hold: imports point the
way `pyproject.toml`'s import-linter contracts say, no import cycle, a hall built from parts."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

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
    assert ("server/hall/write_path.py", "WritePath.commit") in steps and len(steps) >= 12
    wrong = sorted({f"{file} {name}" for file, name in steps if not _defines(_file(file), name)})
    assert not wrong, f"not defined where docs/architecture.md says: {wrong}"


def test_the_checks_catch_a_wrong_name(tmp_path: Path) -> None:
    assert not _defines(ROOT / "src" / "gamehall" / "server" / "hall" / "hall.py",
                        "Hall.no_such_step")
    assert _defines(ROOT / "src" / "gamehall" / "web" / "js" / "room.js", "showRoom")
    assert not _exists("server/no_such_module.py") and not _exists("playout.py")
    assert _exists("rules.py") and _exists("games/hula/playout.py")


def _numbered_steps(text: str) -> str:
    """The numbered steps of the path of a move (not the lines before and after them)."""
    section = text.split("## The path of a move")[1].split("\n## ")[0]
    return "\n".join(p for p in section.split("\n\n") if re.match(r"\d+\. ", p.strip()))


def test_the_path_of_a_move_names_at_most_8_files() -> None:
    steps = _numbered_steps(PAGE.read_text(encoding="utf-8"))
    files = set(re.findall(r"`([\w/]+\.(?:py|js))`", steps))
    assert 4 <= len(files) <= 8, sorted(files)


def test_the_page_lists_the_server_packages_on_disk() -> None:
    text = PAGE.read_text(encoding="utf-8").split("## The server's packages")[1].split("\n## ")[0]
    listed = set(re.findall(r"^\| `server/(\w+)/`", text, re.M))
    listed |= set(re.findall(r", `server/(\w+)/` \|", text))
    server = ROOT / "src" / "gamehall" / "server"
    on_disk = {p.name for p in server.iterdir() if (p / "__init__.py").is_file()}
    assert listed == on_disk


def test_imports_keep_to_the_contracts() -> None:
    """`lint-imports` (import-linter) with the contracts of pyproject.toml."""
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    result = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


ANNOTATION_PAIRS = {
    frozenset({"gamehall.core.game", "gamehall.core.state"}),
}
"""Import cycles allowed, only through annotations (``if TYPE_CHECKING``): the two halves of the
game contract, a `Game` that makes its `State`s and a `State` that knows its `Game` (as
OpenSpiel's). Nothing imports the other at run time."""


def _cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(frozenset(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return out


def test_no_import_cycle() -> None:
    run_time = grimp.build_graph("gamehall", exclude_type_checking_imports=True,
                                  cache_dir=None)
    assert _cycles(run_time) == [], "modules that import each other when they run"
    everything = grimp.build_graph("gamehall", cache_dir=None)
    assert set(_cycles(everything)) <= ANNOTATION_PAIRS


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _cycles(graph) == [frozenset({"p.a", "p.b", "p.c"})]


def test_the_hall_is_built_from_parts() -> None:
    """`Hall` inherits from no class of the project's own: its concerns are parts it holds."""
    from gamehall.server.hall.hall import Hall

    assert Hall.__mro__ == (Hall, object)
    parts = {type(v).__module__.rsplit(".", 1)[-1] for v in vars(_assembled_hall()).values()}
    assert {"keeper", "watchers", "timekeeper", "rendering", "write_path", "engine_turns",
            "events"} <= parts


def _assembled_hall() -> object:
    from gamehall.server.engines.pool import BotPool
    from gamehall.server.hall.hall import Hall
    from gamehall.server.ops.settings import Settings
    from gamehall.server.pubsub.in_process import InProcessPubSub
    from gamehall.server.storage import SqlStorage

    return Hall(SqlStorage("sqlite://"), InProcessPubSub(), BotPool(0), Settings())


def _stubbed_classes(source: str) -> list[str]:
    """Classes whose body declares attributes under ``if TYPE_CHECKING:`` — a mixin's stubs of
    state that another class owns."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.If) and ast.unparse(item.test).endswith("TYPE_CHECKING"):
                    found.append(node.name)
    return found


def test_no_class_stubs_state_it_shares() -> None:
    server = ROOT / "src" / "gamehall"
    stubbed = {f"{p.relative_to(server)}: {c}" for p in server.rglob("*.py")
               for c in _stubbed_classes(p.read_text(encoding="utf-8"))}
    assert not stubbed
    assert _stubbed_classes("class M:\n    if TYPE_CHECKING:\n        x: int\n") == ["M"]
