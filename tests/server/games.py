"""Small games for the hall's tests, registered on import (the server loads them with
``--plugin tests.server.games``). They exercise what the real games will: chance nodes, a view
that depends on the seat, options that change the table, three seats.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from gamehall.ai import Bot, register_bot
from gamehall.core import CHANCE, TERMINAL, Game, Option, State, register_game
from gamehall.core.errors import StateFormatError

# --- testrace: chance and a seat-dependent view -----------------------------------------------
ROLL, HOLD, DIE = 0, 1, 10  # die faces are the chance actions 10..15


class RaceState(State):
    """Two runners; on your turn roll a die (a chance node follows) or hold. Each seat also has a
    secret number only its own view shows (drawn from the seed: tests that it survives restarts
    and never reaches anyone else)."""

    game: RaceGame

    def __init__(self, game: RaceGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.pos = [0, 0]
        self.turn = 0
        self.rolling = False
        self.count = 0
        self.secrets = [self.rng.randrange(100000, 999999) for _ in range(2)]

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self.turn

    def _over(self) -> bool:
        goal = int(self.game.options["goal"])
        return max(self.pos) >= goal or self.count >= self.game.max_game_length

    def legal_actions(self) -> list[int]:
        if self._over():
            return []
        return list(range(DIE, DIE + 6)) if self.rolling else [ROLL, HOLD]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 6) for a in range(DIE, DIE + 6)] if self.rolling and not self._over() \
            else []

    def _apply(self, action: int) -> None:
        self.count += 1
        if self.rolling:
            self.pos[self.turn] += action - DIE + 1
            self.rolling = False
            self.turn = 1 - self.turn
        elif action == ROLL:
            self.rolling = True
        else:
            self.turn = 1 - self.turn

    def returns(self) -> list[float]:
        if not self._over() or self.pos[0] == self.pos[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.pos[0] > self.pos[1] else [-1.0, 1.0]

    def action_to_string(self, action: int) -> str:
        if action >= DIE:
            return f"d{action - DIE + 1}"
        return "roll" if action == ROLL else "hold"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.name, "options": dict(self.game.options), "pos": self.pos,
                "turn": self.turn, "rolling": self.rolling, "count": self.count,
                "secrets": self.secrets}

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"pos": list(self.pos), "turn": self.turn, "rolling": self.rolling}
        if seat is not None:
            out["secret"] = self.secrets[seat]
        return out


class RaceGame(Game):
    name = "testrace"
    title = "Test Race"
    has_chance = True
    OPTIONS = (Option("goal", int, 12, "distance to run", min=5, max=40),)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("red", "blue")

    @property
    def num_distinct_actions(self) -> int:
        return DIE + 6

    @property
    def max_game_length(self) -> int:
        return 400

    @property
    def max_chance_outcomes(self) -> int:
        return 6

    def new_initial_state(self, seed: int | None = None) -> RaceState:
        return RaceState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> RaceState:
        self.check_json_header(data)
        try:
            s = RaceState(self)
            s.pos, s.turn = [int(x) for x in data["pos"]], int(data["turn"])
            s.rolling, s.count = bool(data["rolling"]), int(data["count"])
            s.secrets = [int(x) for x in data["secrets"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"bad testrace state: {exc}") from exc
        return s


# --- testline: tic-tac-toe on an n-by-n board, with options ------------------------------------
class LineState(State):
    game: LineGame

    def __init__(self, game: LineGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        n = int(game.options["size"])
        self.cells = [-1] * (n * n)

    @property
    def n(self) -> int:
        return int(self.game.options["size"])

    def _lines(self) -> list[list[int]]:
        n = self.n
        rows = [[r * n + c for c in range(n)] for r in range(n)]
        cols = [[r * n + c for r in range(n)] for c in range(n)]
        return rows + cols + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]

    def _winner(self) -> int | None:
        for line in self._lines():
            first = self.cells[line[0]]
            if first >= 0 and all(self.cells[i] == first for i in line):
                return 1 - first if self.game.options["misere"] else first
        return None

    def current_player(self) -> int:
        if self._winner() is not None or -1 not in self.cells:
            return TERMINAL
        return len(self._history) % 2

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i, c in enumerate(self.cells) if c < 0]

    def _apply(self, action: int) -> None:
        self.cells[action] = len(self._history) % 2

    def returns(self) -> list[float]:
        w = self._winner()
        return [0.0, 0.0] if w is None else [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]

    def action_to_string(self, action: int) -> str:
        return f"{'abcd'[action % self.n]}{action // self.n + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.name, "options": dict(self.game.options),
                "cells": list(self.cells), "moves": len(self._history)}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"cells": list(self.cells)}


class LineGame(Game):
    name = "testline"
    title = "Test Line"
    OPTIONS = (Option("size", int, 3, "board size", min=3, max=4),
               Option("misere", bool, False, "three in a row loses"))

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("x", "o")

    @property
    def num_distinct_actions(self) -> int:
        return int(self.options["size"]) ** 2

    @property
    def max_game_length(self) -> int:
        return int(self.options["size"]) ** 2

    def new_initial_state(self, seed: int | None = None) -> LineState:
        return LineState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> LineState:
        self.check_json_header(data)
        s = LineState(self)
        s.cells = [int(c) for c in data["cells"]]
        s._history = [0] * int(data["moves"])  # only the count matters for whose turn it is
        return s


# --- testtrio: three seats --------------------------------------------------------------------
class TrioState(State):
    """Three seats say a number 1-3 in turn, three rounds; the highest total wins."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.totals = [0, 0, 0]

    def current_player(self) -> int:
        return TERMINAL if len(self._history) >= 9 else len(self._history) % 3

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [1, 2, 3]

    def _apply(self, action: int) -> None:
        self.totals[len(self._history) % 3] += action

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * 3
        best = max(self.totals)
        win = [i for i, t in enumerate(self.totals) if t == best]
        return [1 / len(win) if i in win else 0.0 for i in range(3)]

    def action_to_string(self, action: int) -> str:
        return str(action)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.name, "options": {}, "totals": list(self.totals),
                "moves": len(self._history)}


class TrioGame(Game):
    name = "testtrio"
    title = "Test Trio"
    min_utility = 0.0
    utility_sum = 1.0

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("north", "east", "south")

    @property
    def num_distinct_actions(self) -> int:
        return 4

    @property
    def max_game_length(self) -> int:
        return 9

    def new_initial_state(self, seed: int | None = None) -> TrioState:
        return TrioState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> TrioState:
        self.check_json_header(data)
        s = TrioState(self)
        s.totals = [int(t) for t in data["totals"]]
        s._history = [0] * int(data["moves"])
        return s


for _cls in (RaceGame, LineGame, TrioGame):
    register_game(_cls)


# --- a bot that thinks hard: runs in the server's worker processes ----------------------------
class ThinkingBot(Bot):
    """Spins the CPU for a while (``testthink:SECONDS``, default 1.5), then plays a random legal
    move: if it ran in the event loop, the hall would freeze meanwhile (the tests check not)."""

    name = "testthink"

    def __init__(self, seed: int | None, seconds: float) -> None:
        super().__init__(seed)
        self.seconds = seconds

    def choose(self, state: State) -> int:
        end = time.process_time() + self.seconds
        while time.process_time() < end:
            pass
        return self.rng.choice(state.legal_actions())


register_bot("testthink", lambda level, seed: ThinkingBot(seed, float(level or 1.5)))
