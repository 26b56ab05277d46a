"""Game records: game, options, players, seed, actions with notation; replay verifies them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamehall.core.errors import GamehallError, RecordError
from gamehall.core.registry import load_game
from gamehall.core.state import State

FORMAT = "gamehall-record/1"


@dataclass
class GameRecord:
    """A finished or unfinished game, enough to reproduce it exactly."""

    game: str
    options: dict[str, Any]
    players: list[str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    seed: int | None = None
    result: list[float] | None = None
    outcome: str | None = None

    @classmethod
    def from_state(cls, state: State, players: Sequence[str] | None = None,
                   seed: int | None = None) -> GameRecord:
        """Record the game that led to `state`, replaying its history for the notation."""
        game = state.game
        replay = game.new_initial_state(seed)
        actions: list[tuple[int, str]] = []
        for action in state.history():
            actions.append((action, replay.action_to_string(action)))
            replay.apply_action(action)
        done = state.is_terminal()
        return cls(
            game=game.name,
            options=dict(game.options),
            players=list(players) if players else list(game.seat_names),
            actions=actions,
            seed=seed,
            result=state.returns() if done else None,
            outcome=state.outcome_text() if done else None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "actions": [{"action": a, "move": m} for a, m in self.actions],
            "result": self.result,
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record; actions may give the integer, the notation, or both."""
        try:
            if not isinstance(data["game"], str):
                raise RecordError("'game' must be a game name")
            actions: list[tuple[int, str]] = []
            for i, entry in enumerate(data.get("actions", [])):
                if isinstance(entry, str):
                    actions.append((-1, entry))
                elif isinstance(entry, Mapping):
                    actions.append((int(entry.get("action", -1)), str(entry.get("move", ""))))
                else:
                    raise RecordError(f"action {i + 1} is neither a move nor an object")
            result = data.get("result")
            return cls(
                game=data["game"],
                options=dict(data.get("options") or {}),
                players=[str(p) for p in data.get("players") or []],
                actions=actions,
                seed=data.get("seed"),
                result=[float(x) for x in result] if result is not None else None,
                outcome=data.get("outcome"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed record: {exc}") from exc

    def replay(self) -> State:
        """Replay every action, checking each notation and the final result; return the state."""
        try:
            state = load_game(self.game, **self.options).new_initial_state(self.seed)
        except GamehallError as exc:
            raise RecordError(f"cannot set up the game: {exc}") from exc
        for i, (action, move) in enumerate(self.actions, start=1):
            try:
                if action < 0:
                    action = state.string_to_action(move)
                written = state.action_to_string(action) if state.is_legal(action) else None
                if written is None:
                    raise RecordError(f"move {i} ({move or action}) is not legal there")
                if move and move.replace(" ", "").lower() != written.replace(" ", "").lower():
                    raise RecordError(
                        f"move {i}: the record says {move!r}, the action is {written!r}")
                state.apply_action(action)
            except RecordError:
                raise
            except GamehallError as exc:
                raise RecordError(f"move {i} ({move or action}): {exc}") from exc
        if self.result is not None:
            if not state.is_terminal():
                raise RecordError("the record claims a result but the game is not over")
            if [float(x) for x in state.returns()] != self.result:
                raise RecordError(
                    f"the record claims {self.result}, replay gives {state.returns()}")
        return state
