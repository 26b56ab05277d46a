"""The conformance checks themselves, run on the toy game so that they are known to work."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.core import register_game, unregister_game
from tests.conformance import test_contract as contract
from tests.conformance.configs import Config
from tests.core.toy import ToyGame


@pytest.fixture(autouse=True)
def _toy_registered() -> Iterator[None]:
    register_game(ToyGame)
    yield
    unregister_game(ToyGame.name)


CFG = Config("toy", (("target", 6),), random_games=200, deep_games=10)


def test_toy_passes_the_light_checks() -> None:
    contract.test_random_games_keep_invariants(CFG)


def test_toy_passes_the_deep_checks() -> None:
    contract.test_deep_checks_along_random_games(CFG)
    contract.test_seeded_chance_is_reproducible(CFG)
