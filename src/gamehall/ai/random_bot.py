"""The random bot: a uniformly random legal action. The baseline every other bot must beat."""

from __future__ import annotations

from gamehall.ai.bot import Bot
from gamehall.core import State


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
