"""The contract's shared machinery: options, registry, apply/refuse, chance, records."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from gamehall.core import (
    CHANCE,
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    Option,
    RecordError,
    StateFormatError,
    UnknownGameError,
    load_game,
    register_game,
    state_from_json,
    unregister_game,
)
from gamehall.core.options import resolve_options
from gamehall.play.options_cli import parse_option_args
from tests.core.toy import ToyGame


@pytest.fixture(autouse=True)
def _toy_registered() -> Iterator[None]:
    register_game(ToyGame)
    yield
    unregister_game(ToyGame.name)


def play_out(seed: int, target: int = 5) -> GameRecord:
    game = load_game("toy", target=target)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice([0, 0, 0, 1]))
    return GameRecord.from_state(state, players=["ann", "bob"], seed=seed)


def test_options_validate_and_default() -> None:
    spec = (Option("size", int, 6, min=5, max=7), Option("pie", bool, True),
            Option("mode", str, "x", choices=("x", "y")))
    assert resolve_options(spec, {}) == {"size": 6, "pie": True, "mode": "x"}
    assert resolve_options(spec, {"size": "7", "pie": "off", "mode": "y"}) == {
        "size": 7, "pie": False, "mode": "y"}
    with pytest.raises(InvalidOptionError, match="at most 7"):
        resolve_options(spec, {"size": 9})
    with pytest.raises(InvalidOptionError, match="unknown option 'colour'"):
        resolve_options(spec, {"colour": 1})
    with pytest.raises(InvalidOptionError, match="whole number"):
        resolve_options(spec, {"size": "big"})
    with pytest.raises(InvalidOptionError, match="one of x, y"):
        resolve_options(spec, {"mode": "z"})


def test_command_line_options() -> None:
    assert parse_option_args(["--size", "7", "--pie=off", "-o", "turn-limit=9", "--flag"]) == {
        "size": "7", "pie": "off", "turn_limit": "9", "flag": "true"}


def test_registry_errors_are_clear() -> None:
    with pytest.raises(UnknownGameError, match="no game called 'chess'"):
        load_game("chess")
    assert load_game("toy", target=3) == load_game("TOY", target="3")


def test_illegal_action_changes_nothing() -> None:
    state = load_game("toy").new_initial_state(1)
    before = state.to_json()
    for bad in (2, 7, -1):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    with pytest.raises(NotationError, match="not a legal move"):
        state.string_to_action("jump")
    assert state.to_json() == before and state.history() == []
    assert state.string_to_action(" ROLL ") == 0


def test_chance_is_drawn_from_the_seeded_generator() -> None:
    draws = []
    for _ in range(2):
        state = load_game("toy").new_initial_state(42)
        state.apply_action(0)
        assert state.current_player() == CHANCE
        draws.append([state.clone().sample_chance() for _ in range(1)] + [state.sample_chance()])
    assert draws[0] == draws[1]


def test_state_json_round_trip_and_header_checks() -> None:
    state = load_game("toy", target=7).new_initial_state()
    state.apply_action(0)
    data = json.loads(json.dumps(state.to_json()))
    assert state_from_json(data) == state
    with pytest.raises(StateFormatError, match="options differ"):
        load_game("toy").state_from_json(data)
    with pytest.raises(StateFormatError):
        state_from_json({"game": 3})


def test_record_replays_exactly() -> None:
    rec = play_out(seed=3)
    data = json.loads(json.dumps(rec.to_dict()))
    state = GameRecord.from_dict(data).replay()
    assert state.is_terminal() and state.returns() == rec.result
    assert [m for _, m in rec.actions][0] in ("roll", "stop")


def test_record_from_notation_only() -> None:
    rec = play_out(seed=4)
    data = rec.to_dict()
    data["actions"] = [m for _, m in rec.actions]
    assert GameRecord.from_dict(data).replay().returns() == rec.result


def test_tampered_records_are_refused() -> None:
    rec = play_out(seed=5)
    bad = rec.to_dict()
    bad["result"] = [r * -1 if r else 1.0 for r in rec.result or []]
    with pytest.raises(RecordError, match="claims"):
        GameRecord.from_dict(bad).replay()
    bad = rec.to_dict()
    bad["actions"][0]["move"] = "+3"
    with pytest.raises(RecordError, match="move 1"):
        GameRecord.from_dict(bad).replay()
    with pytest.raises(RecordError):
        GameRecord.from_dict({"actions": []})
