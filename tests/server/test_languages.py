"""The page's languages as the server serves them: the joined catalogues, each visitor's kept
choice (4xx on anything the hall does not speak), and rules pages in German with English for a
game that has no German text yet."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gamehall.core import load_game
from gamehall.core.messages import catalogue
from gamehall.server.api.app import create_app

GERMAN = ("halali", "haugaz", "hau_la", "hotu_matua", "hula")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('lang') / 'h.db'}")
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_catalogue_of_a_language_is_its_parts_joined(client: TestClient, lang: str) -> None:
    resp = client.get(f"/i18n/{lang}.json")
    assert resp.status_code == 200 and resp.json() == catalogue(lang)
    assert "page.header.language" in resp.json()


@pytest.mark.parametrize("name", ["fr.json", "de", "EN.json", "en.json.json"])
def test_an_unknown_catalogue_is_a_clear_404(client: TestClient, name: str) -> None:
    resp = client.get(f"/i18n/{name}")
    assert resp.status_code == 404
    assert resp.json()["code"] == "unknown_language" and "en.json" in resp.json()["message"]


def _visitor(client: TestClient, nickname: str) -> dict[str, str]:
    token = client.post("/api/session", json={"nickname": nickname}).json()["token"]
    return {"X-Gamehall-Token": token}


def test_a_visitor_keeps_a_language_and_a_bad_one_is_refused(client: TestClient) -> None:
    me = _visitor(client, "lang_ann")
    assert client.get("/api/preferences", headers=me).json()["language"] is None
    assert client.post("/api/preferences", json={"language": "de"}, headers=me).status_code == 200
    assert client.get("/api/preferences", headers=me).json()["language"] == "de"
    for bad in ({"language": "xx"}, {"language": "d" * 40}, {"language": 3}, {}):
        resp = client.post("/api/preferences", json=bad, headers=me)
        assert resp.status_code == 400, bad
    assert client.get("/api/preferences", headers=me).json()["language"] == "de"
    client.cookies.clear()  # nobody: neither the header nor the cookie
    assert client.post("/api/preferences", json={"language": "de"}).status_code == 401
    assert client.get("/api/preferences").status_code == 401


@pytest.mark.parametrize("name", GERMAN)
def test_the_german_games_have_a_german_rules_page(client: TestClient, name: str) -> None:
    page = client.get(f"/api/games/{name}/rules", params={"lang": "de"}).json()
    game = load_game(name)
    assert page["language"] == "de" and page["text"] == type(game).howto("de")
    assert page["text"].startswith("# So spielt man ") and "## Dein Zug" in page["text"]
    assert page["text"] != type(game).howto()


def test_a_game_without_german_falls_back_to_english(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """All five games have German rules now, so a game from another package stands in: it has
    an English `howto.md` and no German one, and its German page is the English text."""
    package = tmp_path / "untranslated_game"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from tests.server.games import RaceGame\n\n\n"
        "class Untranslated(RaceGame):\n    name = 'untranslated'\n")
    (package / "howto.md").write_text("# How to play Untranslated\n\nRoll, then hold.\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module("untranslated_game").Untranslated
    english = "# How to play Untranslated\n\nRoll, then hold.\n"
    assert game.howto_in("de") == ("en", english) and game.howto("de") == english
    assert type(load_game("hula")).howto_in("de")[0] == "de"  # a translated one: its own


def test_a_rules_page_in_an_unknown_language_is_a_400(client: TestClient) -> None:
    resp = client.get("/api/games/halali/rules", params={"lang": "fr"})
    assert resp.status_code == 400 and resp.json()["code"] == "bad_language"
