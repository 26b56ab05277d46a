"""What a user installs: every file the docs point to ships, the version is written once.

The cheap checks read pyproject.toml's package-data the way setuptools does (globs relative to the
package folder). `test_the_built_sdist_and_wheel_hold_everything` really builds both (about 15 s,
more on a busy machine); it is marked `slow`: `pytest -m slow tests/test_packaging.py` runs it
alone, `-m "not slow"` leaves it out.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import gamehall
from gamehall.cli import app as cli
from gamehall.server.api.app import PROTOCOL_URL, create_app

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gamehall"
DOC_PATH = re.compile(r"src/gamehall/[\w./<>-]+")
"""A path inside the package named in a document, e.g. `src/gamehall/games/<name>/README.md`."""
UNTRACKED = (".git", ".venv", "*.egg-info", "build", "dist", "__pycache__", "*.pyc", ".*_cache",
             ".hypothesis", "*.db", "*.sqlite3")
"""What a working tree holds besides the project's files (.gitignore's entries)."""


def _pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def _shipped() -> set[str]:
    """The data files (relative to the package) that package-data puts in the wheel."""
    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["gamehall"]
    return {p.relative_to(PACKAGE).as_posix() for pattern in patterns
            for p in PACKAGE.glob(pattern) if p.is_file()}


def _data_files() -> set[str]:
    """Every file of the package that is not Python code."""
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts}


def _named_in_docs() -> set[str]:
    """Package paths (relative to the package) that the project's Markdown files point to, with
    `<name>` expanded to every game."""
    docs = [ROOT / "README.md", *PACKAGE.rglob("*.md"), *(ROOT / "docs").glob("*.md"),
            *(ROOT / "benchmarks").glob("*.md")]
    games = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())
    named = set()
    for doc in docs:
        for path in DOC_PATH.findall(doc.read_text(encoding="utf-8")):
            rel = path.rstrip(".").removeprefix("src/gamehall/")
            named |= {rel.replace("<name>", g) for g in games} if "<name>" in rel else {rel}
    return named


def test_every_data_file_of_the_package_ships_in_the_wheel() -> None:
    missing = _data_files() - _shipped()
    assert not missing, f"add these to [tool.setuptools.package-data]: {sorted(missing)}"


def test_every_package_file_the_docs_point_to_exists_and_ships() -> None:
    named = _named_in_docs()
    assert {"ai/README.md", "adapters/README.md", "server/protocol.md",
            "games/hula/README.md"} <= named
    for rel in named:
        assert (PACKAGE / rel).exists(), f"a document points to src/gamehall/{rel}: not there"
        if (PACKAGE / rel).is_file() and not rel.endswith(".py"):
            assert rel in _shipped(), f"src/gamehall/{rel} is named in the docs but not shipped"


def test_only_gamehall_is_a_package_to_install() -> None:
    """setuptools finds packages under src/ only, and src/ holds gamehall alone: deploy/, tools/,
    benchmarks/ and tests/ run from a checkout and are never installed as top-level packages."""
    assert _pyproject()["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    found = sorted(p.name for p in (ROOT / "src").iterdir()
                   if p.is_dir() and not p.name.endswith(".egg-info") and p.name != "__pycache__")
    assert found == ["gamehall"]


def test_the_version_is_written_once_and_the_installed_metadata_agrees() -> None:
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gamehall.__version__"}
    assert importlib.metadata.version("gamehall") == gamehall.__version__, \
        "the installed metadata is older than gamehall.__version__: reinstall (pip install -e .)"


def test_gamehall_version_prints_the_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and result.output == f"gamehall {gamehall.__version__}\n"


def test_the_license_file_is_mit_as_pyproject_says() -> None:
    project = _pyproject()["project"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert text.startswith("MIT License") and "the gamehall authors" in text


def test_the_hall_serves_its_protocol_and_names_its_version(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", web_dir=tmp_path)
    with TestClient(app) as client:
        doc = client.get(PROTOCOL_URL)
        info = client.get("/openapi.json").json()["info"]
    assert doc.status_code == 200 and doc.headers["content-type"].startswith("text/plain")
    assert doc.text == (PACKAGE / "server" / "protocol.md").read_text(encoding="utf-8")
    assert info["version"] == gamehall.__version__ and f"]({PROTOCOL_URL})" in info["description"]


@pytest.mark.slow
def test_the_built_sdist_and_wheel_hold_everything(tmp_path: Path) -> None:
    # Built from a clean copy: setuptools would otherwise add what an old egg-info lists. `python
    # -m build` makes the sdist, then the wheel from the unpacked sdist: so the wheel's contents
    # also prove that the sdist holds everything the wheel needs.
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*UNTRACKED))
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(tree)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("*.whl")
    (sdist,) = tmp_path.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = set(whl.namelist())
    info = f"gamehall-{gamehall.__version__}.dist-info"
    assert {f"gamehall/{rel}" for rel in _shipped() | _named_in_docs()
            if not rel.endswith(".py") and (PACKAGE / rel).is_file()} <= in_wheel
    assert f"{info}/licenses/LICENSE" in in_wheel
    # Only `gamehall` is importable from the wheel: not deploy/ (the cluster's test topology) nor
    # tools/ (what runs from a checkout), nor the tools that once sat inside the game packages.
    assert {name.split("/")[0] for name in in_wheel} == {"gamehall", info}
    with zipfile.ZipFile(wheel) as whl:
        assert whl.read(f"{info}/top_level.txt").decode().split() == ["gamehall"]
    assert {"gamehall/games/hau_la/audit.py", "gamehall/games/hotu_matua/make_board.py"} \
        & in_wheel == set()
    with tarfile.open(sdist) as tar:
        top = f"gamehall-{gamehall.__version__}/"
        in_sdist = {n.removeprefix(top) for n in tar.getnames()}
    wanted = {p.relative_to(tree).as_posix()
              for folder in ("tests", "benchmarks", "docs", "deploy", "tools")
              for p in (tree / folder).rglob("*") if p.is_file()}
    assert {"LICENSE", "README.md", "pyproject.toml", "tests/test_packaging.py"} <= in_sdist
    missing = wanted - in_sdist
    assert not missing, f"not in the sdist: {sorted(missing)}"
