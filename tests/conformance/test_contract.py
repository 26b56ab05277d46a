"""The game contract, checked on every registered game over many seeded random games.

A new game gets these checks for free by registering itself; see ``configs.py`` for sizing.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from gamehall.core import (
    CHANCE,
    TERMINAL,
    GameRecord,
    IllegalActionError,
    NotationError,
    State,
    load_game,
    state_from_json,
)
from tests.conformance.configs import Config, configs

CONFIGS = configs()


def _game(cfg: Config):  # noqa: ANN202 - a Game
    return load_game(cfg.game, **dict(cfg.options))


def _step(state: State, rng: random.Random) -> int:
    if state.is_chance_node():
        return state.sample_chance(rng)
    return rng.choice(state.legal_actions())


def _check_facts(state: State) -> None:
    game = state.game
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    assert all(0 <= a < game.num_distinct_actions for a in legal)
    if state.is_terminal():
        assert legal == []
        returns = state.returns()
        assert len(returns) == game.num_players
        assert all(game.min_utility <= r <= game.max_utility for r in returns)
        if game.utility_sum is not None:
            assert math.isclose(sum(returns), game.utility_sum, abs_tol=1e-9)
        return
    assert legal, "a live state has at least one legal action"
    notations = [state.action_to_string(a) for a in legal]
    assert len(set(notations)) == len(notations), f"notation not unique: {notations}"
    for a, text in zip(legal, notations, strict=True):
        assert state.string_to_action(text) == a, f"{text!r} does not read back"
        assert state.string_to_action(f"  {text.upper()} ") == a
    if state.is_chance_node():
        assert game.has_chance
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
        assert len(outcomes) <= game.max_chance_outcomes
    else:
        assert state.chance_outcomes() == []
    assert not any(r != 0 for r in state.returns()), "returns are zero before the end"


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.id)
def test_random_games_keep_invariants(cfg: Config) -> None:
    game = _game(cfg)
    rng = random.Random(f"light:{cfg.id}")
    for g in range(cfg.random_games):
        state = game.new_initial_state(seed=g)
        moves = 0
        while not state.is_terminal():
            if g < 50 or moves % 7 == 0:
                _check_facts(state)
            state.apply_action(_step(state, rng))
            moves += 1
            assert moves <= game.max_game_length, "game longer than max_game_length"
        _check_facts(state)
        assert state.history() == state.history() and len(state.history()) == moves


def _assert_rejects_illegal(state: State) -> None:
    before = state.to_json()
    history = state.history()
    legal = set(state.legal_actions())
    for a in range(state.game.num_distinct_actions):
        if a in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply_action(a)
    for bad in (-1, state.game.num_distinct_actions, 10**9):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    with pytest.raises(NotationError):
        state.string_to_action("no such move")
    assert state.to_json() == before, "a refused action changed the state"
    assert state.history() == history, "a refused action changed the history"


def _check_views(state: State) -> None:
    """Every view is JSON; where the game names a seat's own keys (`seat_overlay`), the
    spectator's view with them put in is that seat's view exactly, key order included (the
    hall serialises the shared part once for every seat)."""
    game = state.game
    public = state.view(None)
    json.dumps(public)
    for seat in range(game.num_players):
        mine = state.view(seat)
        overlay = game.seat_overlay(state, seat)
        if overlay is not None:
            assert json.dumps({**public, **overlay}) == json.dumps(mine), \
                f"seat {seat}'s view is not the spectator's with {sorted(overlay)} put in"
        json.dumps(mine)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.id)
def test_deep_checks_along_random_games(cfg: Config) -> None:
    game = _game(cfg)
    rng = random.Random(f"deep:{cfg.id}")
    for g in range(cfg.deep_games):
        state = game.new_initial_state(seed=g)
        while True:
            data = state.to_json()
            text = json.dumps(data)
            assert data["game"] == game.name
            again = game.state_from_json(json.loads(text))
            assert again.to_json() == data, "to_json/state_from_json does not round-trip"
            assert state_from_json(json.loads(text)).to_json() == data
            assert again.current_player() == state.current_player()
            assert again.legal_actions() == state.legal_actions()
            _check_views(state)
            clone = state.clone()
            assert clone == state and clone is not state
            assert clone.history() == state.history()
            if state.is_terminal():
                assert clone.returns() == state.returns()
                break
            _assert_rejects_illegal(state)
            action = _step(state, rng)
            clone.apply_action(action)
            assert state.to_json() == data, "playing on a clone changed the original"
            state.apply_action(action)
            assert clone == state
        record = GameRecord.from_state(state, seed=g)
        replayed = GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))).replay()
        assert replayed.to_json() == state.to_json()
        assert replayed.returns() == state.returns()


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.id)
def test_seeded_chance_is_reproducible(cfg: Config) -> None:
    game = _game(cfg)
    for seed in range(5):
        runs = []
        for _ in range(2):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance())
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            runs.append(state.history())
        assert runs[0] == runs[1]
