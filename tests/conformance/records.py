"""Seeded game records kept as test data: the proof that a refactor changed no game.

Each record in ``records/`` was made by `play` from its spec (game, options, bots, seeds) and holds
what the game did: every action with its notation, the result, the outcome line, and the final
`to_json()`. `test_records.py` replays each one and plays it again from its spec; both must give
the same thing, byte for byte. Rewrite the files (only when a game's rules change on purpose) with

    .venv/bin/python -m tests.conformance.records
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from gamehall.ai import make_bot
from gamehall.core import GameRecord, load_game

DIRECTORY = Path(__file__).parent / "records"

MAX_ACTIONS = 600
"""Long games (Hotu Matua to its turn limit) are cut here: an unfinished record replays too."""

SPECS: list[dict[str, Any]] = [
    # Hula: every size, with and without the pie rule; MCTS games use the fast playout.
    {"game": "hula", "options": {}, "bots": ["random", "random"], "seed": 1},
    {"game": "hula", "options": {}, "bots": ["random", "random"], "seed": 2},
    {"game": "hula", "options": {"size": 5}, "bots": ["random", "random"], "seed": 3},
    {"game": "hula", "options": {"size": 7, "pie": False}, "bots": ["random", "random"], "seed": 4},
    {"game": "hula", "options": {"size": 5}, "bots": ["mcts:40", "random"], "seed": 5},
    # Haugaz: default and a few option combinations.
    {"game": "haugaz", "options": {}, "bots": ["random", "random"], "seed": 11},
    {"game": "haugaz", "options": {"size": 5, "cake": False, "blocking": True,
                                   "grow_colour": "mover_opponent", "stuck": "place_only",
                                   "objective": "most_stacks"},
     "bots": ["random", "random"], "seed": 12},
    {"game": "haugaz", "options": {"size": 6, "cake_distance": 1},
     "bots": ["random", "random"], "seed": 13},
    {"game": "haugaz", "options": {"size": 5}, "bots": ["mcts:30", "random"], "seed": 14},
    # Halali!: chance (the hidden tiles turn up at random), random rifles, a match.
    {"game": "halali", "options": {}, "bots": ["random", "random"], "seed": 21},
    {"game": "halali", "options": {}, "bots": ["random", "random"], "seed": 22},
    {"game": "halali", "options": {"rifles": "random", "match": True},
     "bots": ["random", "random"], "seed": 23},
    {"game": "halali", "options": {}, "bots": ["uct:20", "random"], "seed": 24},  # rollouts
    # Hotu Matua: dice; short turn limits so the games finish, and one cut at MAX_ACTIONS.
    {"game": "hotu_matua", "options": {"turn_limit": 8}, "bots": ["random", "random"], "seed": 31},
    {"game": "hotu_matua", "options": {"turn_limit": 20}, "bots": ["random", "random"],
     "seed": 32},
    {"game": "hotu_matua", "options": {"turn_limit": 40}, "bots": ["random", "random"],
     "seed": 33},
    {"game": "hotu_matua", "options": {}, "bots": ["random", "random"], "seed": 34},
    {"game": "hotu_matua", "options": {"turn_limit": 8}, "bots": ["mcts:10", "random"],
     "seed": 35},
    # Hau La: 2, 3 and 4 players.
    {"game": "hau_la", "options": {}, "bots": ["random", "random"], "seed": 41},
    {"game": "hau_la", "options": {"players": 3}, "bots": ["random"] * 3, "seed": 42},
    {"game": "hau_la", "options": {"players": 4}, "bots": ["random"] * 4, "seed": 43},
    {"game": "hau_la", "options": {}, "bots": ["mcts:3", "random"], "seed": 44},
]


def spec_name(spec: dict[str, Any]) -> str:
    """The record's file name (without ``.json``); seeds are unique across `SPECS`."""
    return f"{spec['game']}_s{spec['seed']}"


def play(spec: dict[str, Any]) -> dict[str, Any]:
    """Play the game `spec` describes and return its record, final position and checkpoints.

    Chance outcomes are drawn from a generator seeded by the spec, bot `i` is seeded with
    ``seed * 10 + i``, and the state itself with ``seed``.
    """
    game = load_game(spec["game"], **spec["options"])
    seed = int(spec["seed"])
    state = game.new_initial_state(seed)
    chance = random.Random(seed)
    bots = [make_bot(b, seed * 10 + i) for i, b in enumerate(spec["bots"])]
    checkpoints: list[dict[str, Any]] = []
    while not state.is_terminal() and len(state.history()) < MAX_ACTIONS:
        if state.is_chance_node():
            action = state.sample_chance(chance)
        else:
            action = bots[state.current_player()].choose(state)
        state.apply_action(action)
        if len(state.history()) % 50 == 0:
            checkpoints.append(state.to_json())
    record = GameRecord.from_state(state, players=spec["bots"], seed=seed)
    return {
        "spec": spec,
        "record": record.to_dict(),
        "checkpoints": checkpoints,
        "final": state.to_json(),
        "current_player": state.current_player(),
        "returns": state.returns(),
        "outcome": state.outcome_text() if state.is_terminal() else None,
    }


def dump(data: dict[str, Any]) -> str:
    """The stored text of a record (stable key order, one line per action)."""
    return json.dumps(data, sort_keys=True, indent=None, separators=(",", ":")) + "\n"


def write_all() -> None:
    DIRECTORY.mkdir(exist_ok=True)
    for spec in SPECS:
        data = play(spec)
        path = DIRECTORY / f"{spec_name(spec)}.json"
        path.write_text(dump(data))
        print(f"{path.name}: {len(data['record']['actions'])} actions, "
              f"{data['outcome'] or 'unfinished'}")


if __name__ == "__main__":
    write_all()
