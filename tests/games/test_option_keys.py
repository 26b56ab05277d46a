"""The games' texts for people (descriptions, options' labels, docs and words, seats' names) go
out with catalogue keys: every key the five games produce is in every language's catalogue, the
English catalogue says what the games' Python says, options.json holds no key no game produces,
and a game with no catalogue entries (a plug-in) still describes itself in English."""

from __future__ import annotations

import json

import pytest

from gamehall.core import load_game
from gamehall.core.messages import CATALOGUES, LANGUAGES, catalogue, render
from gamehall.core.registry import game_class
from tests.core.toy import ToyGame

GAMES = ("halali", "hau_la", "haugaz", "hotu_matua", "hula")


def _produced() -> dict[str, str]:
    """Every key the five games send, with its English text."""
    out: dict[str, str] = {}
    for name in GAMES:
        out.update(game_class(name).catalogue_texts())
    return out


def _part(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGUES / language / "options.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_games_produce_is_in_the_catalogue(language: str) -> None:
    missing = sorted(_produced().keys() - catalogue(language).keys())
    assert not missing, f"{language} lacks {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_options_json_holds_only_produced_keys_written_tidily(language: str) -> None:
    part = _part(language)
    assert part.keys() == _produced().keys()
    assert all(text.strip() for text in part.values())
    path = CATALOGUES / language / "options.json"
    assert path.read_text("utf-8") == json.dumps(part, indent=2, ensure_ascii=False,
                                                 sort_keys=True) + "\n"


def test_the_english_catalogue_says_what_the_games_say() -> None:
    wrong = {k: (render(k, {}, "en"), text) for k, text in _produced().items()
             if render(k, {}, "en") != text}
    assert not wrong


def test_german_differs_where_a_word_is_translated() -> None:
    """Spot checks of the German terms (the physical games' and the page's boards.json)."""
    de = catalogue("de")
    assert de["game.halali.seat.humans"] == "Menschen" and de["game.halali.seat.beasts"] == "Tiere"
    assert de["game.halali.option.rifles.label"] == "Gewehre"
    assert "Jäger" in de["game.halali.option.rifles.doc"]
    assert de["game.hotu_matua.seat.north"] == "Nord"
    assert de["game.hau_la.seat.red"] == "Rot"


def test_described_options_carry_keys_beside_the_english() -> None:
    rifles, match = game_class("halali").describe_options()
    assert rifles["label"] == "rifles" and rifles["label_key"] == "game.halali.option.rifles.label"
    assert rifles["doc_key"] == "game.halali.option.rifles.doc"
    assert rifles["words"] == [
        {"value": "two_each", "word": "two per direction",
         "word_key": "game.halali.option.rifles.word.two_each"},
        {"value": "random", "word": "drawn at random",
         "word_key": "game.halali.option.rifles.word.random"}]
    assert match["label_key"] == "game.halali.option.match.label" and match["words"] == []
    blocking = next(o for o in game_class("haugaz").describe_options() if o["name"] == "blocking")
    assert [w["word_key"] for w in blocking["words"]] == [
        "game.haugaz.option.blocking.word.on", "game.haugaz.option.blocking.word.off"]
    board = game_class("hotu_matua").describe_options()[0]
    assert board["words"][0]["word_key"] == "game.hotu_matua.option.board.word.default"


def test_every_seat_name_covers_the_seats_any_option_makes() -> None:
    assert game_class("halali").every_seat_name() == ["humans", "beasts", "first", "second"]
    assert game_class("hau_la").every_seat_name() == ["red", "blue", "yellow", "orange"]
    assert load_game("halali", match=True).seat_key("first") == "game.halali.seat.first"


def test_a_game_without_catalogue_entries_still_speaks_english() -> None:
    (target,) = ToyGame.describe_options()
    assert target["label"] == "target" and target["doc"] == "total that wins at once"
    assert target["label_key"] == "game.toy.option.target.label"
    assert target["label_key"] not in catalogue("de")
    assert ToyGame.catalogue_texts() == {
        "game.toy.option.target.label": "target",
        "game.toy.option.target.doc": "total that wins at once",
        "game.toy.seat.a": "a", "game.toy.seat.b": "b"}
