"""The adapters sit on top: nothing else in gamehall imports them, so their extras stay optional."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "gamehall"
IMPORT = re.compile(r"^\s*(from|import)\s+gamehall\.adapters\b", re.MULTILINE)


def test_nothing_outside_the_adapters_imports_them() -> None:
    offenders = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if "adapters" not in path.relative_to(SRC).parts and IMPORT.search(path.read_text())
    ]
    assert offenders == []


def test_the_shared_encoding_needs_no_optional_package() -> None:
    text = (SRC / "adapters" / "encoding.py").read_text()
    assert not re.search(r"^\s*(from|import)\s+(pyspiel|open_spiel|pettingzoo|gymnasium)",
                         text, re.MULTILINE)
