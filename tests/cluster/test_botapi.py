"""The bot API across three nodes: a bot's event stream on one node hears a challenge made
through another, the bot accepts, and both players' streams (on two nodes) get gameStart; a
game stream opened on a node that does not own the room gets gameFull, then a gameState after a
move made through a third node."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx

from deploy.topology import Topology
from tests.cluster.helpers import Endpoint, node, owner_of, wait_for

PASSWORD = "correct horse"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _account(at: Endpoint, nickname: str) -> str:
    token = at.session(nickname)
    r = httpx.post(f"{at.http}/api/account/password", json={"password": PASSWORD},
                   headers=_auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return token


def _bot(at: Endpoint, nickname: str) -> str:
    session = _account(at, nickname)
    r = httpx.post(f"{at.http}/api/account/tokens", json={"scopes": ["bot:play"]},
                   headers=_auth(session), timeout=30)
    token = str(r.json()["token"])
    r = httpx.post(f"{at.http}/api/bot/account/upgrade", json={"games": ["hula"]},
                   headers=_auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return token


class Stream:
    """An NDJSON stream read in a thread: its lines as they come; `listening` once its first
    line (the event stream's first keep-alive, or the game stream's gameFull) came."""

    def __init__(self, url: str, token: str) -> None:
        self.lines: list[dict[str, Any]] = []
        self.listening = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(url, token), daemon=True)
        self.thread.start()
        assert self.listening.wait(30), f"{url} did not open"

    def _read(self, url: str, token: str) -> None:
        try:
            with httpx.stream("GET", url, headers=_auth(token), timeout=60) as r:
                assert r.status_code == 200, r.read()
                for line in r.iter_lines():
                    self.listening.set()
                    if line.strip():
                        self.lines.append(json.loads(line))
                    if self.stop.is_set():
                        return
        except httpx.HTTPError:
            if not self.stop.is_set():  # cut by the cluster's end after the test: no matter
                raise

    def first(self, kind: str, **match: Any) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            return next((e for e in self.lines if e["type"] == kind
                         and all(e.get(k) == v for k, v in match.items())), None)
        got = wait_for(found, 60)
        assert isinstance(got, dict)
        return got


def test_bot_events_and_a_game_stream_across_nodes(topology: Topology) -> None:
    n1, n2, n3 = (node(n) for n in topology.nodes)
    bot = _bot(n1, "clusterengine")
    ann = _account(n2, "clusterann")
    bot_events = Stream(f"{n1.http}/api/stream/event", bot)
    ann_events = Stream(f"{n3.http}/api/stream/event", ann)
    r = httpx.post(f"{n2.http}/api/challenge/clusterengine", headers=_auth(ann), timeout=30,
                   json={"game": "hula", "options": {"size": 5}, "seat": 0})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    heard = bot_events.first("challenge")
    assert heard["challenge"]["id"] == cid
    accepted = httpx.post(f"{n1.http}/api/challenge/{cid}/accept", headers=_auth(bot),
                          timeout=30)
    assert accepted.status_code == 200, accepted.text
    room = accepted.json()["room"]
    for stream, seat in ((bot_events, 1), (ann_events, 0)):
        start = stream.first("gameStart")["game"]
        assert start["id"] == room and start["seat"] == seat and start["status"] == "playing"
    away = next(n for n in topology.nodes if n.name != owner_of(topology, room).name)
    game = Stream(f"{away.http}/api/bot/game/stream/{room}", bot)
    full = game.first("gameFull")
    assert full["id"] == room and full["seat"] == 1 and full["state"]["version"] == 0
    mover = next(n for n in (n1, n2, n3) if n.name != away.name)
    legal = httpx.get(f"{mover.http}/api/rooms/{room}", headers=_auth(ann), timeout=30).json()
    done = mover.act(ann, room, "move", move=legal["legal_moves"][0], version=0)
    assert done.status_code == 200, done.text
    state = game.first("gameState")
    assert state["version"] >= 1 and state["moves"][0]["move"] == legal["legal_moves"][0]
    assert state["to_move"] == 1 and state["legal_moves"], "the bot's turn, with its moves"
    for stream in (bot_events, ann_events, game):
        stream.stop.set()
