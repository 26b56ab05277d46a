"""ruff and mypy are part of the test suite: a lint error fails the build like a broken rule."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    result = _run(exe, "check", "src", "tests", "benchmarks", "deploy", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr
