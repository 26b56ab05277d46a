"""A typed move a game refuses carries its reason as a message (``game.<name>.illegal.…``), so
the hall can quote it in each reader's language: the English text is the error's text and a
German reader reads German."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from gamehall.core import IllegalActionError, NotationError, State, load_game
from gamehall.core.messages import Message, render
from tests.games.test_outcome_messages import check


def _hula_centre(state: State) -> str:
    geo = state.geo  # type: ignore[attr-defined]
    return str(geo.names[geo.centre])


CASES = [
    ("hula", _hula_centre, "game.hula.illegal.centre"),
    ("hula", lambda s: "z9", "game.hula.illegal.no_row"),
    ("haugaz", lambda s: "z99", "game.haugaz.illegal.no_point"),
    ("halali", lambda s: "c3-e5", "game.halali.illegal.not_straight"),
    ("hotu_matua", lambda s: "n9>f12", "game.hotu_matua.illegal.no_ship"),
    ("hau_la", lambda s: "nonsense", "game.hau_la.illegal.typed"),
]


def started(name: str) -> State:
    """A new game past any opening chance draws (Hotu Matua's first roll)."""
    state = load_game(name).new_initial_state(seed=1)
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


@pytest.mark.parametrize(("name", "typed", "key"), CASES, ids=[c[2] for c in CASES])
def test_a_refused_typed_move_says_why_with_a_key_in_german_too(
        name: str, typed: Callable[[State], str], key: str) -> None:
    state = started(name)
    with pytest.raises(NotationError) as info:
        state.string_to_action(typed(state))
    said = info.value.said
    assert isinstance(said, Message) and said.key == key
    assert str(info.value) == said.text
    check(said)
    german = render(said.key, said.args, "de")
    assert not any(word in german.split() for word in ("is", "the", "not", "no", "a")), german


def test_an_illegal_action_number_raises_with_the_games_message() -> None:
    state = started("hula")
    centre = state.geo.centre  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(centre)
    said = getattr(info.value, "said", None)
    assert isinstance(said, Message) and said.key == "game.hula.illegal.centre"
    assert state.explain_illegal(centre) == said.text


def test_a_plain_text_error_still_works_and_carries_no_message() -> None:
    exc = NotationError("type a move")
    assert str(exc) == "type a move" and exc.said is None
