"""Every sentence the server sends carries a key: every key the server's code names is in every
catalogue with the arguments its call sites give, every key of server.json is used, and a
refusal over WebSocket and over HTTP carries its key and args beside the English, which a
German client says in German."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.core.messages import CATALOGUES, LANGUAGES, Message, arguments, catalogue, parse
from gamehall.core.messages import render as render_in
from gamehall.server.api.app import create_app

SERVER = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "server"
KEY = re.compile(r"""["']((?:error|info|list|challenge)\.[A-Za-z0-9_.]+)["']""")
BUILT = re.compile(r"""f["']((?:error|info|list|challenge)\.[A-Za-z0-9_.]*)\{""")


def _sources() -> list[tuple[Path, str]]:
    return [(f, f.read_text("utf-8")) for f in sorted(SERVER.rglob("*.py"))]


SERVER_PARTS = ("server.json", "pairing.json")
"""The catalogue's parts that hold only the server's sentences."""


def _server_part(language: str) -> dict[str, str]:
    data: dict[str, str] = {}
    for part in SERVER_PARTS:
        data.update(json.loads((CATALOGUES / language / part).read_text("utf-8")))
    return data


def _key_names(node: ast.expr) -> list[str]:
    """The keys a call's first argument may be: a literal, or either side of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _key_names(node.body) + _key_names(node.orelse)
    return []


def _calls() -> Iterator[tuple[str, str, set[str]]]:
    """(where, key, the argument names given) of every ``msg(…)`` call with a literal key."""
    for path, text in _sources():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", "")
            if name != "msg":
                continue
            given = {k.arg for k in node.keywords if k.arg is not None}
            for key in _key_names(node.args[0]):
                yield f"{path.name}:{node.lineno}", key, given


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_server_names_is_in_the_catalogue(language: str) -> None:
    named = {k for _, text in _sources() for k in KEY.findall(text)}
    missing = sorted(named - catalogue(language).keys())
    assert not missing, f"keys the server names that {language}'s catalogue lacks: {missing}"


def test_every_call_gives_the_arguments_its_sentence_uses() -> None:
    english = catalogue("en")
    wrong = [(where, key, sorted(given), sorted(arguments(parse(english[key]))))
             for where, key, given in _calls()
             if key in english and given != arguments(parse(english[key]))]
    assert not wrong, wrong
    assert sum(1 for _ in _calls()) > 150  # the scan finds the calls at all


def test_every_server_key_is_used() -> None:
    named = {k for _, text in _sources() for k in KEY.findall(text)}
    built = {p for _, text in _sources() for p in BUILT.findall(text)}
    unused = sorted(k for k in _server_part("en")
                    if k not in named and not any(k.startswith(p) for p in built))
    assert not unused, f"server.json and pairing.json keys no server code uses: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_server_catalogue_is_complete_with_the_same_arguments(language: str) -> None:
    mine, english = _server_part(language), _server_part("en")
    assert mine.keys() == english.keys()
    for key, text in mine.items():
        assert arguments(parse(text)) == arguments(parse(english[key])), key
        assert text.strip(), key
    for part in SERVER_PARTS:
        path = CATALOGUES / language / part
        text = path.read_text("utf-8")
        assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False,
                                  sort_keys=True) + "\n"


def test_a_message_says_itself_in_german_nested_clauses_too() -> None:
    who = Message("list.comma", {"first": "ann", "rest": "bob"})
    said = Message("error.seat.wait_for", {"seats": who})
    assert said.text == "waiting for a player as ann, bob (/join or /bot)"
    assert render_in(said.key, said.args, "de") == \
        "es fehlt noch ein Spieler als ann, bob (/join oder /bot)"
    clocks = Message("info.clocks.seat", {"who": "ann", "time": "4:05", "running": "yes"})
    assert render_in(clocks.key, clocks.args, "de") == "ann 4:05 (läuft)"
    assert render_in("error.room.too_many", {"count": 1}, "de").startswith(
        "du hast schon einen Raum")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('keys') / 'h.db'}")
    with TestClient(app) as c:
        yield c


def _token(client: TestClient, nickname: str) -> str:
    token: str = client.post("/api/session", json={"nickname": nickname}).json()["token"]
    return token


def _hula_room(client: TestClient, nickname: str) -> Any:
    """A new Hula room made by `nickname`, who is connected to it (the socket to use in `with`)."""
    token = _token(client, nickname)
    headers = {"Authorization": f"Bearer {token}"}
    room = client.post("/api/rooms", json={"game": "hula"}, headers=headers).json()["id"]
    return client.websocket_connect(f"/ws/rooms/{room}", headers=headers)


def test_an_http_error_carries_its_key_and_args(client: TestClient) -> None:
    resp = client.get("/api/rooms/nosuchroom")
    body = resp.json()
    assert resp.status_code == 404 and body["code"] == "unknown_room"
    assert body["key"] == "error.room.unknown" and body["args"] == {"room": "nosuchroom"}
    assert body["message"] == "no room 'nosuchroom'"
    assert render_in(body["key"], body["args"], "de") == "es gibt keinen Raum „nosuchroom“"
    bad = client.post("/api/session", json={"nickname": "-no"}).json()
    assert bad["key"] == "error.nickname.form" and bad["args"] == {}
    invalid = client.post("/api/session", json={}).json()
    assert invalid["code"] == "bad_message" and invalid["key"] == "error.request.invalid"


def test_a_websocket_refusal_and_the_halls_notices_carry_keys(client: TestClient) -> None:
    with _hula_room(client, "kann") as ws:
        ws.send_json({"type": "move", "move": "a1", "version": 0, "id": "m"})
        while (got := ws.receive_json())["type"] != "error":
            pass
        assert got["code"] == "not_started" and got["key"] == "error.game.not_started"
        assert got["message"] == "the game has not started yet (/start)"
        assert render_in(got["key"], got["args"], "de") == \
            "die Partie hat noch nicht begonnen (/start)"
        ws.send_json({"type": "join"})
        while (got := ws.receive_json())["type"] != "info":
            pass
        assert got["key"] == "info.joined" and got["args"]["player"] == "kann"
        assert got["args"]["seat"] == {"key": "game.seat", "args": {"seat": "first"}}
        assert got["text"] == "kann sits as first"
        assert Message.from_json(got).text == "kann sits as first"
        assert Message.from_json(got).args["seat"] == Message("game.seat", {"seat": "first"})
        german = {**got["args"], "seat": Message.from_json(got["args"]["seat"])}
        assert render_in(got["key"], german, "de") == "kann sitzt als Erster"
        ws.send_json({"type": "chat", "text": "/who", "id": 3})
        while (got := ws.receive_json()).get("id") != 3:
            pass
        assert got["type"] == "info" and got["key"] == "info.who"
        assert "kann (online)" in got["text"]
        assert "(da)" in render_in(got["key"], Message.from_json(got).args, "de")


def test_a_refused_move_nests_the_games_reason_as_a_message(client: TestClient) -> None:
    with _hula_room(client, "kira") as ws:
        ws.send_json({"type": "join"})
        ws.send_json({"type": "bot", "level": "random"})
        ws.send_json({"type": "start"})
        while not ((got := ws.receive_json())["type"] == "state"
                   and got.get("status") == "playing"):
            pass
        ws.send_json({"type": "move", "move": "z9", "version": 0, "id": "z"})
        while (got := ws.receive_json()).get("id") != "z":
            pass
    assert got["code"] == "illegal_move" and got["key"] == "error.move.illegal"
    reason = got["args"]["reason"]
    assert isinstance(reason, dict) and reason["key"] == "game.hula.illegal.no_row"
    said = Message.from_json(got)
    assert got["message"] == said.text and "there is no row z" in got["message"]
    german = render_in(said.key, said.args, "de")
    assert "keine Reihe z" in german and "there is no row" not in german
