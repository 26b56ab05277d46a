"""The engine against a plain, independent reading of the rules, on positions from random games:
every full turn (place, move) offered is exactly the rules' set, and growth matches."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.core import load_game
from gamehall.games.haugaz import HaugazState

STEPS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
Point = tuple[int, int]


def _point(name: str) -> Point:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def _name(p: Point) -> str:
    return f"{chr(ord('a') + p[0])}{p[1] + 1}"


def _moves(stacks: dict[Point, list[str]], size: int, colour: str, skip: Point | None,
           blocking: bool) -> set[tuple[Point, Point]]:
    out = set()
    for src, pieces in stacks.items():
        if pieces[-1] != colour or src == skip:
            continue
        h = len(pieces)
        for dx, dy in STEPS:
            dst = (src[0] + h * dx, src[1] + h * dy)
            if not (0 <= dst[0] < size and 0 <= dst[1] < size) or dst in stacks:
                continue
            between = [(src[0] + k * dx, src[1] + k * dy) for k in range(1, h)]
            if blocking and any(p in stacks for p in between):
                continue
            out.add((src, dst))
    return out


def reference_turns(data: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(placed, from, to) of every complete turn the rules allow (opened players, stuck=ends)."""
    size = data["options"]["size"]
    stacks = {_point(k): v for k, v in data["stacks"].items()}
    colour = data["to_move"]
    turns = set()
    for x in range(size):
        for y in range(size):
            if (x, y) in stacks:
                continue
            after = {**stacks, (x, y): [colour]}
            for src, dst in _moves(after, size, colour, (x, y), data["options"]["blocking"]):
                turns.add((_name((x, y)), _name(src), _name(dst)))
    return turns


def reference_growth(data: dict[str, Any], placed: str, src: str, dst: str) -> dict[str, list]:
    """The stacks after the turn, by the rules' words."""
    stacks = {_point(k): list(v) for k, v in data["stacks"].items()}
    colour = data["to_move"]
    stacks[_point(placed)] = [colour]
    moving = stacks.pop(_point(src))
    target = _point(dst)
    stacks[target] = moving
    h = len(moving)
    for dx, dy in STEPS:
        q = (target[0] + h * dx, target[1] + h * dy)
        if q in stacks:
            if data["options"]["grow_colour"] == "flip":
                stacks[q].append("white" if stacks[q][-1] == "black" else "black")
            else:
                stacks[q].append("white" if colour == "black" else "black")
    return {_name(p): v for p, v in stacks.items()}


def engine_turns(state: HaugazState) -> set[tuple[str, str, str]]:
    turns = set()
    for place in state.legal_actions():
        if place >= state.lay.move:
            continue
        after = state.clone()
        after.apply_action(place)
        for move in after.legal_actions():
            src, dst = after.action_to_string(move).split("-")
            turns.add((state.action_to_string(place), src, dst))
    return turns


def _random_position(options: dict[str, Any], seed: int, depth: int) -> HaugazState:
    state = load_game("haugaz", **options).new_initial_state()
    assert isinstance(state, HaugazState)
    rng = random.Random(seed)
    for _ in range(depth):
        if state.is_terminal():
            break
        legal = [a for a in state.legal_actions() if a != state.lay.pass_] or state.legal_actions()
        state.apply_action(rng.choice(legal))
    if state.placed >= 0:  # finish the turn under way
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(3, 60), size=st.integers(5, 8),
       blocking=st.booleans(), grow=st.sampled_from(["flip", "mover_opponent"]))
def test_turns_and_growth_match_the_rules(seed: int, depth: int, size: int, blocking: bool,
                                          grow: str) -> None:
    options = {"size": size, "blocking": blocking, "grow_colour": grow}
    state = _random_position(options, seed, depth)
    if state.is_terminal() or state.phase != 3:
        return
    data = state.to_json()
    expected = reference_turns(data)
    assert engine_turns(state) == expected
    if not expected:
        return
    placed, src, dst = sorted(expected)[random.Random(seed).randrange(len(expected))]
    after = state.clone()
    after.apply_action(after.string_to_action(placed))
    after.apply_action(after.string_to_action(f"{src}-{dst}"))
    assert after.to_json()["stacks"] == reference_growth(data, placed, src, dst)
