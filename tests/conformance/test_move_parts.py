"""Move parts (`State.action_parts`), checked on every registered game over seeded random games.

Every game: the parts of each legal action are flat JSON scalars under names that leave room for
the protocol's own (`move`, `seat`), have a `kind` whenever there are any, tell the legal actions
apart, and reading them changes nothing. The built-in games: the notation rebuilt from the parts
is the notation itself, and what the parts say beyond it (a ship's field, the square being
flipped) matches the position.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from gamehall.core import State, load_game
from gamehall.games.halali.tiles import FROM_TOKEN, tile_name
from tests.conformance.configs import Config, configs

CONFIGS = configs()
RESERVED = {"move", "seat"}

Parts = dict[str, Any]


def _hula(_state: State, p: Parts, _last: Parts) -> str:
    return {"place": lambda: p["cell"], "swap": lambda: "swap"}[p["kind"]]()


def _haugaz(state: State, p: Parts, _last: Parts) -> str:
    kind = p["kind"]
    if kind == "move":
        assert p["from"] in state.view(None)["stacks"], "a move starts from a stack"
        return f"{p['from']}-{p['to']}"
    return {"place": lambda: p["cell"], "pass": lambda: "pass",
            "cake": lambda: f"{p['colour']} {p['cell']}",
            "side": lambda: f"play {p['colour']}"}[kind]()


def _halali(state: State, p: Parts, last: Parts) -> str:
    kind = p["kind"]
    if kind == "reveal":
        assert last.get("kind") == "flip" and p["cell"] == last["cell"], \
            "a chance outcome reveals the square just flipped"
        return tile_name(FROM_TOKEN[p["tile"].lower()])
    return {"flip": lambda: f"flip {p['cell']}", "move": lambda: f"{p['from']}-{p['to']}",
            "capture": lambda: f"{p['from']}x{p['to']}",
            "exit": lambda: f"{p['from']}-exit-{p['exit']}", "pass": lambda: "pass"}[kind]()


def _hotu_matua(state: State, p: Parts, _last: Parts) -> str:
    kind = p["kind"]
    if kind == "step":
        ships = {s["id"]: s["field"] for s in state.view(None)["ships"]}
        assert ships[p["piece"]] == p["from"], "a step starts where the ship is"
        return f"{p['piece']}>{p['to']}"
    return {"end": lambda: "end", "roll": lambda: f"roll {p['value']}"}[kind]()


def _hau_la(_state: State, p: Parts, _last: Parts) -> str:
    return {"piece": lambda: p["piece"], "take": lambda: f"take {p['piece']}",
            "hole": lambda: p["cell"], "rotation": lambda: f"r{p['degrees']}",
            "sides": lambda: p["sides"],
            "tag": lambda: f"tag {p['cell']} {p['face']}"}[p["kind"]]()


NOTATION: dict[str, Callable[[State, Parts, Parts], str]] = {
    "hula": _hula, "haugaz": _haugaz, "halali": _halali, "hotu_matua": _hotu_matua,
    "hau_la": _hau_la,
}
"""The built-in games: each move's notation, rebuilt from its parts ("" where it cannot be)."""


def _check_generic(state: State) -> list[Parts]:
    before = json.dumps(state.to_json(), sort_keys=True)
    legal = state.legal_actions()
    parts = [state.action_parts(a) for a in legal]
    for p in parts:
        assert isinstance(p, dict)
        assert not RESERVED & set(p), f"parts may not use {RESERVED}: {p}"
        for key, value in p.items():
            assert isinstance(key, str) and key
            assert isinstance(value, str | int | float | bool), f"{key}: {value!r} is no scalar"
        json.dumps(p)
    if any(parts):
        assert all(isinstance(p.get("kind"), str) and p["kind"] for p in parts), parts
        keys = [tuple(sorted(p.items())) for p in parts]
        assert len(set(keys)) == len(keys), "two legal actions with the same parts"
    assert json.dumps(state.to_json(), sort_keys=True) == before, "action_parts changed the state"
    assert [state.clone().action_parts(a) for a in legal] == parts
    return parts


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.id)
def test_move_parts_along_random_games(cfg: Config) -> None:
    game = load_game(cfg.game, **dict(cfg.options))
    rebuild = NOTATION.get(cfg.game)
    rng = random.Random(f"parts:{cfg.id}")
    for g in range(cfg.deep_games):
        state = game.new_initial_state(seed=g)
        last: Parts = {}
        while not state.is_terminal():
            parts = _check_generic(state)
            legal = state.legal_actions()
            if rebuild is not None:
                for action, p in zip(legal, parts, strict=True):
                    text = rebuild(state, p, last)
                    if text:
                        assert text == state.action_to_string(action), p
            i = rng.randrange(len(legal))
            if state.is_chance_node():
                action = state.sample_chance(rng)
                i = legal.index(action)
            last = parts[i]
            state.apply_action(legal[i])


def test_the_default_names_no_parts() -> None:
    """A game that does not take its moves apart still works: clients get the notation only."""
    from tests.server.games import RaceGame

    state = RaceGame().new_initial_state(seed=1)
    assert all(state.action_parts(a) == {} for a in state.legal_actions())
