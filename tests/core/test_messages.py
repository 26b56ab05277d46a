"""The ICU MessageFormat subset of `gamehall.core.messages`: what the catalogues may use renders
as ICU renders it, and what it cannot read is refused rather than sent half-formatted."""

from __future__ import annotations

import pytest

from gamehall.core.messages import (
    CATALOGUES,
    LANGUAGES,
    Message,
    MessageSyntaxError,
    arguments,
    catalogue,
    format_string,
    parse,
)


def test_plain_arguments_and_numbers() -> None:
    assert format_string("{who} wins", {"who": "Ann"}) == "Ann wins"
    assert format_string("{n} to {m}", {"n": 3, "m": 2.0}) == "3 to 2"


def test_plural_with_pound_and_exact_match() -> None:
    text = "{n, plural, =0 {no moves} one {# move} other {# moves}}"
    assert [format_string(text, {"n": n}) for n in (0, 1, 5)] == ["no moves", "1 move",
                                                                   "5 moves"]
    assert format_string("{n, plural, one {ein Zug} other {# Züge}}", {"n": 2}, "de") == "2 Züge"


def test_select_and_nested_message_arguments() -> None:
    text = "{side, select, humans {the humans} other {the beasts}} win"
    assert format_string(text, {"side": "humans"}) == "the humans win"
    assert format_string(text, {"side": "x"}) == "the beasts win"
    inner = Message("k", {})
    assert inner.to_json() == {"key": "k", "args": {}}
    assert Message.from_json({"key": "a", "args": {"b": {"key": "k", "args": {}}}}) == \
        Message("a", {"b": inner})


def test_apostrophes_quote_braces_only() -> None:
    assert format_string("it's {x}", {"x": 1}) == "it's 1"
    assert format_string("a '{'json'}' object, don''t", {}) == "a {json} object, don't"


def test_arguments_are_found_in_branches() -> None:
    nodes = parse("{a} {n, plural, one {{b}} other {{c} #}}")
    assert arguments(nodes) == {"a", "n", "b", "c"}


@pytest.mark.parametrize("bad", ["{a", "a}", "{a, plural, one {x}}", "{a, number}", "{1x}"])
def test_unreadable_strings_are_refused(bad: str) -> None:
    with pytest.raises(MessageSyntaxError):
        parse(bad)


def test_a_missing_argument_is_an_error_not_a_gap() -> None:
    with pytest.raises(KeyError):
        format_string("{who} wins", {})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_string_parses_and_catalogues_agree(language: str) -> None:
    data, english = catalogue(language), catalogue("en")
    assert set(data) == set(english)
    assert {p.name for p in (CATALOGUES / language).glob("*.json")} == \
        {p.name for p in (CATALOGUES / "en").glob("*.json")}
    for key, text in data.items():
        assert arguments(parse(text)) <= arguments(parse(english[key])), key
