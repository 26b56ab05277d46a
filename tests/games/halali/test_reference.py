"""The move generator against a plain, independent reading of the rules on positions from
seeded random games (both rifle options): flips, moves, captures, both no-reversal rules,
exits and the forced pass must be exactly the rules' set, in every position reached."""

from __future__ import annotations

import random

import pytest

from gamehall.core import load_game
from gamehall.games.halali.rules import HalaliState

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # up, right, down, left: a hunter's ^ > v <
RIFLE = "^>v<"
PREY = {"B": "HL", "F": "DP", "L": "T", "H": "BFDP"}  # first letter of each token
SIDE = {"humans": "HL", "beasts": "BF"}
EXITS = {"d7": 0, "g4": 1, "d1": 2, "a4": 3}  # edge square -> direction out of the board


def _name(f: int, r: int) -> str:
    return f"{'abcdefg'[f]}{r + 1}"


def _grid(state: HalaliState) -> dict[str, str]:
    rows = state.to_json()["board"]
    return {_name(f, 6 - i): tok for i, row in enumerate(rows) for f, tok in enumerate(row.split())}


def reference_moves(state: HalaliState) -> set[str]:
    """Every legal turn, read from the public JSON form only."""
    data = state.to_json()
    grid = _grid(state)
    side = data["to_move"]
    prev = data["previous_move"][side]
    out = {f"flip {sq}" for sq, tok in grid.items() if tok == "?"}
    for sq, tok in grid.items():
        mine = tok[0] in SIDE[side]
        if not (mine or (tok in "DP" and sq != data["locked"])):
            continue
        reach = 1 if tok in "BL" else 7
        f0, r0 = "abcdefg".index(sq[0]), int(sq[1]) - 1
        for d, (df, dr) in enumerate(STEPS):
            f, r = f0, r0
            for _ in range(reach):
                f, r = f + df, r + dr
                if not (0 <= f < 7 and 0 <= r < 7):
                    edge = _name(f - df, r - dr)
                    if data["end_phase_turns_left"] is not None and mine and EXITS.get(edge) == d:
                        out.add(f"{sq}-exit-{edge}")
                    break
                to = _name(f, r)
                back = prev == f"{to}-{sq}"
                if grid[to] == ".":
                    if not back:
                        out.add(f"{sq}-{to}")
                    continue
                target = grid[to]
                shoots = tok[0] != "H" or tok[1] == RIFLE[d]
                if target != "?" and target[0] in PREY.get(tok[0], "") and shoots and not back:
                    out.add(f"{sq}x{to}")
                break
    return out or {"pass"}


@pytest.mark.parametrize("rifles", ["two_each", "random"])
def test_legal_moves_match_an_independent_reading_of_the_rules(rifles: str) -> None:
    game = load_game("halali", rifles=rifles)
    for seed in range(10):
        state = game.new_initial_state(seed=seed)
        assert isinstance(state, HalaliState)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            got = {state.action_to_string(a) for a in state.legal_actions()}
            assert got == reference_moves(state), (seed, state.turns)
            state.apply_action(rng.choice(state.legal_actions()))
