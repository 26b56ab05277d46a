"""The page's strings are all in the catalogues and the catalogues hold no dead string: every
``t("page.…")`` key (and every ``data-i18n`` key of index.html) the page's JS uses is in every
language's catalogue, and every key of the page's parts (page.json, room.json, boards.json …:
every part but the server's sentences: server.json, games.json, options.json, each checked by
its own test) is used somewhere. A key built at run time
(``t(`page.status.${status}`)``) counts as using every key it can make."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamehall.core.messages import LANGUAGES, catalogue, parse

WEB = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web"
PLAIN = re.compile(r"""["'](page\.[a-z0-9_.]+)["']""")
BUILT = re.compile(r"`(page\.[a-z0-9_.]*)\$\{")
HTML = re.compile(r'data-i18n="(page\.[a-z0-9_.]+)"')


def _sources() -> list[tuple[Path, str]]:
    files = sorted((WEB / "js").rglob("*.js")) + [WEB / "index.html"]
    return [(f, f.read_text("utf-8")) for f in files]


def _used() -> tuple[set[str], set[str]]:
    """(the keys named whole, the prefixes of keys built at run time)."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for _, text in _sources():
        whole |= set(PLAIN.findall(text)) | set(HTML.findall(text))
        prefixes |= set(BUILT.findall(text))
    return whole, prefixes


SERVER_PARTS = ("server.json", "games.json", "options.json", "pairing.json")
"""The parts whose keys the server sends (tests/server/test_server_messages.py,
tests/games/test_games_catalogue.py and the options' test check them)."""


def _parts(language: str) -> list[Path]:
    """The page's parts of `language`'s catalogue: every part but the server's sentences."""
    return sorted(p for p in (WEB / "i18n" / language).glob("*.json")
                  if p.name not in SERVER_PARTS)


def _page(language: str) -> dict[str, str]:
    """The page's strings of `language`: its parts joined."""
    joined: dict[str, str] = {}
    for part in _parts(language):
        joined.update(json.loads(part.read_text("utf-8")))
    return joined


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_page_uses_is_in_the_catalogue(language: str) -> None:
    whole, _ = _used()
    missing = sorted(whole - catalogue(language).keys())
    assert not missing, f"keys the page uses that {language}'s catalogue lacks: {missing}"


def test_every_key_of_the_page_catalogue_is_used() -> None:
    whole, prefixes = _used()
    unused = sorted(k for k in _page("en")
                    if k not in whole and not any(k.startswith(p) for p in prefixes))
    assert not unused, f"page keys no JS or HTML uses: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_catalogue_is_complete_and_readable(language: str) -> None:
    page = _page(language)
    assert page.keys() == _page("en").keys()
    assert all(k.startswith("page.") for k in page)
    for key, text in page.items():
        parse(text)  # raises on a string the formatters cannot read
        assert text.strip(), f"{language}: {key} is empty"
    assert [p.name for p in _parts(language)] == [p.name for p in _parts("en")]
    for path in _parts(language):
        part = json.loads(path.read_text("utf-8"))
        assert path.read_text("utf-8") == json.dumps(part, indent=2, ensure_ascii=False,
                                                     sort_keys=True) + "\n", path.name
