"""Steps per second through the OpenSpiel and PettingZoo adapters, beside the bare engine.

    python -m benchmarks.adapters [GAME ...] [--seconds 3] [--seed 1] [--option key=value ...]

For each game (default: every registered game), uniformly random games from the initial state
to the end, counting every action applied (chance outcomes included), measured as:
- ``engine``: the public contract, ``legal_actions()`` / ``apply_action()`` / ``sample_chance()``;
- ``openspiel``: the same loop on ``gamehall_<name>`` through pyspiel (no observations);
- ``openspiel+obs``: as above, plus ``observation_tensor()`` for the player to move each step;
- ``pettingzoo``: ``agent_iter()`` / ``last()`` / ``step()`` on ``env(name)`` with masked random
  actions (``last()`` builds the observation and the mask, as an RL loop would).
An adapter whose package is missing is skipped. Prints one Markdown table row per game.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gamehall.core import list_games, load_game

Runner = Callable[[random.Random], int]
"""Plays one game with the given generator and returns the number of actions applied."""

COLUMNS = ("engine", "openspiel", "openspiel+obs", "pettingzoo")


def steps_per_second(run: Runner, seconds: float, seed: int) -> float:
    """Actions per second over whole games, for at least `seconds` (and at least one game)."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while True:
        steps += run(rng)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def engine_runner(name: str, options: dict[str, Any]) -> Runner:
    game = load_game(name, **options)

    def run(rng: random.Random) -> int:
        state = game.new_initial_state(rng.getrandbits(32))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return len(state.history())

    return run


def openspiel_runner(name: str, options: dict[str, Any], observe: bool) -> Runner | None:
    try:
        from gamehall.adapters.openspiel import load
    except ImportError:
        return None
    game = load(name, **options)

    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]
                state.apply_action(outcomes[pick][0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return run


def pettingzoo_runner(name: str, options: dict[str, Any]) -> Runner | None:
    try:
        from gamehall.adapters.pettingzoo import env
    except ImportError:
        return None
    environment = env(name, **options)

    def run(rng: random.Random) -> int:
        environment.reset(seed=rng.getrandbits(32))
        for _ in environment.agent_iter():
            obs, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return len(environment.unwrapped.state.history())

    return run


def measure(name: str, options: dict[str, Any], seconds: float, seed: int) -> dict[str, float]:
    options = dict(load_game(name, **options).options)  # typed, as OpenSpiel wants them
    runners: dict[str, Runner | None] = {
        "engine": engine_runner(name, options),
        "openspiel": openspiel_runner(name, options, observe=False),
        "openspiel+obs": openspiel_runner(name, options, observe=True),
        "pettingzoo": pettingzoo_runner(name, options),
    }
    return {label: steps_per_second(run, seconds, seed)
            for label, run in runners.items() if run is not None}


def row(label: str, figures: dict[str, float]) -> str:
    base = figures["engine"]
    cells = [f"{figures['engine']:,.0f}"]
    for column in COLUMNS[1:]:
        value = figures.get(column)
        cells.append("—" if value is None else f"{value:,.0f} ({value / base:.2f}x)")
    return f"| {label} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: all registered)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value (applies to every game named)")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    print("| game | engine steps/s | openspiel | openspiel+obs | pettingzoo |")
    print("|------|---------------:|----------:|--------------:|-----------:|")
    for name in args.games or list_games():
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(row(label, measure(name, options, args.seconds, args.seed)), flush=True)


if __name__ == "__main__":
    main()
