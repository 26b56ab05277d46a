"""Game-specific leaf evaluators, plugged in by game name (the search itself knows no game).

They read only a game's documented JSON form (`state.to_json()`), never its modules, so `ai` still
imports no game. Registered in `gamehall.ai.__init__`.

- ``hau_la``: a random rollout costs about a second (every turn enumerates and touch-checks all
  placements), so a search of a few seconds could afford only a handful. Instead a leaf in the
  middle of a placement is completed at random (the rest of that seat's steps), and the position
  is scored by the seats' current tag heights: a softmax, so the highest tag is the likely winner
  and the estimates sum to 1 like Hau La's returns.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from gamehall.core import CHANCE, TERMINAL, Game, State


class HeightEvaluator:
    """Hau La: finish the placement under way at random, then softmax over tag heights."""

    def __init__(self, game: Game, temperature: float = 2.0) -> None:
        self.seats = game.seat_names
        self.temperature = temperature

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        data = state.to_json()
        pending = data.get("pending")
        if isinstance(pending, dict) and pending.get("step") not in (None, "kind"):
            mover = state.current_player()
            while state.current_player() == mover:
                if deadline is not None and time.perf_counter() > deadline:
                    return None
                state.apply_action(rng.choice(state.legal_actions()))
            data = state.to_json()
        player = state.current_player()
        if player == TERMINAL:
            return state.returns()
        assert player != CHANCE  # Hau La has no chance
        return self.softmax(data.get("heights") or {})

    def softmax(self, heights: dict[str, float | None]) -> list[float]:
        values = [heights.get(seat) for seat in self.seats]
        known = [v for v in values if v is not None]
        floor = min(known) - 3 * self.temperature if known else 0.0
        scaled = [(v if v is not None else floor) / self.temperature for v in values]
        top = max(scaled)
        weights = [math.exp(v - top) for v in scaled]
        total = sum(weights)
        return [w / total for w in weights]
