"""The toy games are registered while the adapter tests run, and only then."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.core import register_game, unregister_game
from tests.adapters.toys import TOYS


@pytest.fixture(scope="module", autouse=True)
def toys_registered() -> Iterator[None]:
    """Register the toy games for one test module, and take them away again afterwards."""
    for cls in TOYS:
        register_game(cls)
    yield
    for cls in TOYS:
        unregister_game(cls.name)
