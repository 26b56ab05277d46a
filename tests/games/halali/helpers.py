"""Hand-written Halali! positions for the rule tests, written in the game's JSON form."""

from __future__ import annotations

from typing import Any

from gamehall.core import load_game
from gamehall.games.halali.jsonform import unrevealed_keys
from gamehall.games.halali.rules import HalaliState

EMPTY_ROW = ". . . . . . ."


def board(**squares: str) -> list[str]:
    """A 7-row board (rank 7 first) that is empty except for `squares`, e.g. c3="H^"."""
    grid = [["."] * 7 for _ in range(7)]
    for name, token in squares.items():
        f, r = "abcdefg".index(name[0]), int(name[1]) - 1
        grid[6 - r][f] = token
    return [" ".join(row) for row in grid]


def position(rows: list[str], *, to_move: str = "humans", rifles: str = "two_each",
             match: bool = False, unrevealed: dict[str, int] | None = None,
             end: int | None = None, previous: dict[str, str | None] | None = None,
             locked: str | None = None, captured: dict[str, list[str]] | None = None,
             exited: dict[str, list[str]] | None = None, turn: int = 10,
             match_game: int = 1, first_game: dict[str, list[int]] | None = None,
             seed: int | None = None) -> HalaliState:
    """Build a state from a board; face-down squares default to trees, and a position with
    none face down defaults to the end phase's first turn."""
    hidden = sum(row.split().count("?") for row in rows)
    counts = dict.fromkeys(unrevealed_keys(rifles == "random"), 0)
    counts.update(unrevealed if unrevealed is not None else {"tree": hidden})
    data: dict[str, Any] = {
        "game": "halali",
        "options": {"rifles": rifles, "match": match},
        "board": rows,
        "unrevealed": counts,
        "to_move": to_move,
        "flipping": None,
        "captured": {"humans": [], "beasts": [], **(captured or {})},
        "exited": {"humans": [], "beasts": [], **(exited or {})},
        "previous_move": {"humans": None, "beasts": None, **(previous or {})},
        "locked": locked,
        "end_phase_turns_left": end if end is not None or hidden else 10,
        "turn": turn,
        "last_turn": None,
        "match_game": match_game,
        "first_game": first_game,
        "over": False,
    }
    state = load_game("halali", rifles=rifles, match=match).state_from_json(data)
    if seed is not None:
        state.rng.seed(seed)
    return state


def moves(state: HalaliState) -> set[str]:
    """The legal actions in notation."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(state: HalaliState, *notations: str) -> HalaliState:
    """Apply moves written in notation, in order."""
    for text in notations:
        state.apply_action(state.string_to_action(text))
    return state
