"""The `Bot` interface: a seeded policy that picks an action for the seat to move."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from gamehall.core import State


class Bot(ABC):
    """Chooses actions; every random choice comes from its own seeded generator."""

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State) -> int:
        """A legal action for the seat to move (never called at chance or terminal nodes)."""

    def reset(self) -> None:  # noqa: B027 - optional hook, nothing to forget by default
        """Forget anything kept between moves (a new game starts)."""
