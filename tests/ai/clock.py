"""A fake clock for bots' time budgets: no test depends on how fast or busy the machine is."""

from __future__ import annotations


class FakeClock:
    """Moves on `tick` seconds each time it is read, so a bot's time budget becomes a count of
    clock readings, the same on any machine however busy."""

    def __init__(self, tick: float) -> None:
        self.now = 1000.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now
