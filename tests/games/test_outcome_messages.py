"""Every game says how it ended (and Hau La what the player chooses and what happened) as
messages whose keys every catalogue has, and a German reader reads German, not English."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from gamehall.core import State, load_game
from gamehall.core.messages import LANGUAGES, Message, catalogue, render
from tests.core.toy import ToyGame

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("hula", {}), ("hula", {"size": 5}), ("haugaz", {}), ("haugaz", {"size": 5}),
    ("halali", {}), ("halali", {"match": True}), ("hotu_matua", {"turn_limit": 8}),
    ("hotu_matua", {"turn_limit": 60}), ("hau_la", {}), ("hau_la", {"players": 3}),
]


def finished(name: str, options: dict[str, Any], seed: int) -> State:
    """A game played to its end by seeded random moves."""
    state = load_game(name, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(legal))
    return state


def keys(message: Message) -> Iterator[str]:
    """The message's key and every nested message's key."""
    yield message.key
    for value in message.args.values():
        if isinstance(value, Message):
            yield from keys(value)


def check(message: Message) -> None:
    """Every key in every catalogue, the English text the message's text, and the German
    sentence a German one."""
    for key in keys(message):
        assert all(key in catalogue(lang) for lang in LANGUAGES), key
    assert render(message.key, message.args, "en") == message.text
    assert render(message.key, message.args, "de") != message.text, message.text


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda x: str(x))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_outcome_is_a_message_in_every_language(name: str, options: dict[str, Any],
                                                    seed: int) -> None:
    state = finished(name, options, seed)
    message = state.outcome_message()
    check(message)
    assert state.outcome_text() == message.text
    assert Message.from_json(message.to_json()) == message


def test_the_views_send_the_outcome_with_its_key() -> None:
    halali = finished("halali", {}, 1).view(0)["result"]
    hotu = finished("hotu_matua", {"turn_limit": 8}, 1).view(None)
    for said in (halali, hotu):
        assert said["outcome_key"].startswith("game.") and said["outcome"]
        again = Message.from_json({"key": said["outcome_key"], "args": said["outcome_args"]})
        assert again.text == said["outcome"]


def test_hau_la_says_its_steps_and_events_in_every_language() -> None:
    state = load_game("hau_la", players=3).new_initial_state(seed=5)
    rng = random.Random(5)
    seen: set[str] = set()
    while not state.is_terminal():
        view = state.view(None)
        said = Message.from_json({"key": view["expecting_key"], "args": view["expecting_args"]})
        assert said.text == view["expecting"]
        check(said)
        seen.add(said.text)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(seen) >= 4, "several steps were asked for"
    events = state.view(None)["events"]
    assert events and all(set(e) == {"text", "key", "args"} for e in events)
    for e in events:
        check(Message.from_json(e))
    table = state.table  # type: ignore[attr-defined]
    assert [e["text"] for e in events] == [e.text for e in table.events]
    back = state.game.state_from_json(state.to_json())
    assert back.to_json() == state.to_json()


def test_an_older_hau_la_position_with_plain_events_still_reads() -> None:
    state = load_game("hau_la").new_initial_state(seed=2)
    data = state.to_json()
    data["events"] = ["round 1: red, blue"]
    back = state.game.state_from_json(data)
    assert back.view(None)["events"][0]["text"] == "round 1: red, blue"
    data["events"] = [{"key": "no.such.key", "args": {}}]
    with pytest.raises(Exception, match="event"):
        state.game.state_from_json(data)


def test_a_game_without_keys_says_who_won_and_one_with_only_a_line_has_it_verbatim() -> None:
    game = ToyGame()
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    check(state.outcome_message())
    assert state.outcome_message().key in ("game.outcome.winners", "game.outcome.draw")

    class Plain(ToyGame):
        def outcome_text(self, state: State) -> str:
            return "somebody won"

    message = Plain().outcome_message(state)
    assert message.key == "game.outcome.verbatim" and message.text == "somebody won"


def test_halali_says_the_winners_points_first_in_every_language() -> None:
    """"beasts win the game, 50 to 31 points": whichever side won, its points come first, in
    English and in German (the page's headline says it so too)."""
    game = load_game("halali")
    seen: set[int] = set()
    for seed in range(60):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
        said = state.outcome_message()
        if said.key != "game.halali.outcome.points":
            continue
        scores = game.scores(state)
        assert scores is not None
        winner = 0 if state.returns()[0] > 0 else 1
        high, low = int(scores[winner]), int(scores[1 - winner])
        assert high > low
        assert said.text.endswith(f", {high} to {low} points"), said.text
        assert f"mit {high} zu {low} Punkten" in render(said.key, said.args, "de")
        seen.add(winner)
        if seen == {0, 1}:
            return
    assert seen == {0, 1}, "random games where each side won on points"
