"""Register the toy games for the AI tests only, and remove them afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.core import register_game, registry
from tests.ai.toy_games import TOY_GAMES


@pytest.fixture(autouse=True, scope="package")
def toy_games() -> Iterator[None]:
    for cls in TOY_GAMES:
        register_game(cls)
    yield
    for cls in TOY_GAMES:
        registry._extra.pop(cls.name, None)
