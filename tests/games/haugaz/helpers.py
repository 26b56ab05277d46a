"""Building Haugaz positions by hand for the rule tests."""

from __future__ import annotations

from typing import Any

from gamehall.core import load_game
from gamehall.games.haugaz import HaugazState

B, W = "black", "white"


def position(stacks: dict[str, list[str]], to_move: str = B, *, black_seat: int = 0,
             placed: str | None = None, passes: int = 0, phase: str = "play",
             opened: dict[str, bool] | None = None, **options: Any) -> HaugazState:
    """A position in the documented JSON form: `stacks` maps points to bottom-to-top colours."""
    game = load_game("haugaz", **options)
    data: dict[str, Any] = {
        "game": "haugaz", "options": dict(game.options), "phase": phase,
        "black_seat": black_seat if phase == "play" else None,
        "to_move": to_move if phase == "play" else None,
        "placed": placed, "passes": passes, "stacks": stacks,
    }
    if opened is not None:
        data["opened"] = opened
    state = game.state_from_json(data)
    assert isinstance(state, HaugazState)
    return state


def play(state: HaugazState, *moves: str) -> HaugazState:
    """Apply moves written in notation, each checked for legality."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def texts(state: HaugazState) -> set[str]:
    """The legal actions in notation."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def move_targets(state: HaugazState, source: str) -> set[str]:
    """Targets of the legal moves of the stack on `source` (state awaiting a move)."""
    out = set()
    for text in texts(state):
        if "-" in text and text.split("-")[0] == source:
            out.add(text.split("-")[1])
    return out


def stack(state: HaugazState, point: str) -> list[str]:
    """Bottom-to-top colours of the stack on `point` ([] if empty)."""
    return list(state.to_json()["stacks"].get(point, []))
