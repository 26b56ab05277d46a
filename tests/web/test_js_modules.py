"""Every page module parses as an ES module (node's ``--check``), so that a broken merge (two
imports of one name, a stray conflict line) fails here, by name, and not as a blank page in
every browser test. Skipped only where node is not installed (a developer's machine: the
browser tests still catch it); .ci/run installs Debian's nodejs, so CI always runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web" / "js"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None and not os.environ.get("CI"),
                    reason="node is not installed (CI installs it: .ci/run; there it must run)")
@pytest.mark.parametrize("module", sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js")))
def test_the_page_module_parses(module: str, tmp_path: Path) -> None:
    copy = tmp_path / "module.mjs"  # .mjs: node reads it as an ES module, as the browser does
    copy.write_text((JS / module).read_text("utf-8"), "utf-8")
    done = subprocess.run([str(NODE), "--check", str(copy)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, f"{module}: {done.stderr}"
