"""Issue 41 across three nodes: a token revoked or signed out through one node ends its streams
and WebSockets open on the others at once; the caps on a bot (its open games, the challenges
it has received) hold when the requests racing for them reach every node at once."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from deploy.topology import Topology
from tests.cluster.conftest import fresh_topology
from tests.cluster.helpers import NODE_ENV, Endpoint, node

PASSWORD = "correct horse"
_names = itertools.count()


@pytest.fixture(scope="module")
def cluster(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    env = {**NODE_ENV, "GAMEHALL_ARGON2_TIME_COST": "1", "GAMEHALL_ARGON2_MEMORY_KIB": "8192",
           "GAMEHALL_TOKEN_RATE": "100000/minute", "GAMEHALL_MAX_BOT_GAMES": "8",
           "GAMEHALL_MAX_CHALLENGES": "10", "GAMEHALL_MAX_CHALLENGES_PER_BOT": "20",
           "GAMEHALL_MAX_STREAMS_PER_TOKEN": "12"}
    folder: Path = tmp_path_factory.mktemp("trust")
    with fresh_topology(pg_url, folder, 3, env) as topo:
        yield topo


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def account(at: Endpoint, prefix: str) -> tuple[str, str]:
    nickname = f"{prefix}{next(_names)}"
    token = at.session(nickname)
    _ok(httpx.post(f"{at.http}/api/account/password", json={"password": PASSWORD},
                   headers=auth(token), timeout=30))
    return nickname, token


def bot(at: Endpoint) -> tuple[str, str, str, str]:
    """A bot account (Hula): (nickname, session token, bot:play token id, the token)."""
    nickname, session = account(at, "nodebot")
    made = _ok(httpx.post(f"{at.http}/api/account/tokens", json={"scopes": ["bot:play"]},
                          headers=auth(session), timeout=30), 201)
    _ok(httpx.post(f"{at.http}/api/bot/account/upgrade", json={"games": ["hula"]},
                   headers=auth(str(made["token"])), timeout=30))
    return nickname, session, str(made["id"]), str(made["token"])


def challenge(at: Endpoint, person: str, nickname: str) -> str:
    return str(_ok(httpx.post(f"{at.http}/api/challenge/{nickname}", headers=auth(person),
                              json={"game": "hula", "options": {"size": 5}, "seat": 0},
                              timeout=30), 201)["id"])


@pytest.mark.parametrize("how", ["revoke", "logout_all"])
def test_a_token_ended_through_one_node_ends_what_it_holds_open_on_the_others(
        cluster: Topology, how: str) -> None:
    n1, n2, n3 = (node(n) for n in cluster.nodes)
    nickname, session, token_id, play = bot(n1)
    _, person = account(n1, "nodefan")
    room = _ok(httpx.post(f"{n1.http}/api/challenge/{challenge(n1, person, nickname)}/accept",
                          headers=auth(play), timeout=30))["room"]

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=60) as c, \
                c.stream("GET", f"{n2.http}/api/stream/event", headers=auth(play)) as events, \
                c.stream("GET", f"{n3.http}/api/bot/game/stream/{room}",
                         headers=auth(play)) as game, \
                connect(n2.ws_url(room), open_timeout=20) as ws:
            assert events.status_code == 200 and game.status_code == 200
            event_lines, game_lines = events.aiter_lines(), game.aiter_lines()
            assert await anext(event_lines) == ""
            assert json.loads(await anext(game_lines))["type"] == "gameFull"
            await ws.send(json.dumps({"type": "identify", "token": play, "id": 1}))
            while not _identified(json.loads(await ws.recv())):
                pass
            if how == "revoke":
                _ok(await c.delete(f"{n1.http}/api/account/tokens/{token_id}",
                                   headers=auth(session)))
            else:
                _ok(await c.post(f"{n1.http}/api/logout/all", headers=auth(session)))
            again = _ok(await c.post(f"{n1.http}/api/challenge/{nickname}", headers=auth(person),
                                     json={"game": "hula", "options": {"size": 5}}), 201)
            state = _ok(await c.get(f"{n1.http}/api/rooms/{room}", headers=auth(person)))
            moved = await c.post(f"{n1.http}/api/rooms/{room}/move", headers=auth(person),
                                 json={"move": state["legal_moves"][0],
                                       "version": state["version"]})
            assert moved.status_code == 200, moved.text

            async def rest(lines: Any) -> list[str]:
                return [line async for line in lines]

            after_events = await asyncio.wait_for(rest(event_lines), 60)
            after_game = await asyncio.wait_for(rest(game_lines), 60)
            assert again["id"] not in "".join(after_events), after_events
            assert not [line for line in after_game if line and json.loads(line).get(
                "version", -1) > state["version"]], after_game
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 60)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    asyncio.run(scenario())


def test_challenges_raced_to_one_bot_through_every_node_stop_at_its_cap(
        cluster: Topology) -> None:
    nodes = [node(n) for n in cluster.nodes]
    nickname, _, _, token = bot(nodes[0])
    people = [account(nodes[0], "queuer")[1] for _ in range(3)]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as c:
            return list(await asyncio.gather(*[
                c.post(f"{nodes[i % 3].http}/api/challenge/{nickname}",
                       headers=auth(people[i % 3]),
                       json={"game": "hula", "options": {"size": 5}}) for i in range(30)]))

    answers = sorted((r.status_code, r.json().get("code")) for r in asyncio.run(race()))
    assert sum(1 for status, _ in answers if status == 201) == 20, answers
    assert answers.count((409, "too_many_challenges")) == 10, answers
    waiting = _ok(httpx.get(f"{nodes[1].http}/api/challenge", headers=auth(token), timeout=30))
    assert len(waiting["in"]) == 20


def test_accepts_raced_through_every_node_never_open_more_than_max_bot_games(
        cluster: Topology) -> None:
    nodes = [node(n) for n in cluster.nodes]
    nickname, _, _, token = bot(nodes[0])
    people = [account(nodes[0], "acceptfan")[1] for _ in range(2)]
    cids = [challenge(nodes[0], people[i % 2], nickname) for i in range(14)]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as c:
            return list(await asyncio.gather(*[
                c.post(f"{nodes[i % 3].http}/api/challenge/{cid}/accept", headers=auth(token))
                for i, cid in enumerate(cids)]))

    answers = sorted((r.status_code, r.json().get("code") if r.status_code >= 400 else None)
                     for r in asyncio.run(race()))
    assert answers.count((200, None)) == 8, answers
    assert answers.count((409, "too_many_games")) == 6, answers


def test_streams_of_one_token_raced_through_every_node_stop_at_one_cap(
        cluster: Topology) -> None:
    """12 streams a token for the whole cluster, not 12 a node: 30 asked for at once through
    three nodes, 12 stream; once they end, their slots are free again on every node."""
    nodes = [node(n) for n in cluster.nodes]
    _, _, _, token = bot(nodes[0])

    async def race() -> list[int]:
        async with httpx.AsyncClient(timeout=60) as c:
            async def open_one(i: int) -> httpx.Response:
                return await c.send(c.build_request(
                    "GET", f"{nodes[i % 3].http}/api/stream/event", headers=auth(token)),
                    stream=True)

            opened = await asyncio.gather(*[open_one(i) for i in range(30)])
            try:
                for r in opened:
                    if r.status_code == 429:
                        await r.aread()
                        assert r.json()["code"] == "too_many_streams", r.text
                return sorted(r.status_code for r in opened)
            finally:
                for r in opened:
                    await r.aclose()

    statuses = asyncio.run(race())
    assert statuses.count(200) == 12 and statuses.count(429) == 18, statuses

    async def again() -> bool:
        """The ended streams gave their slots back (each node once it saw its answer end):
        12 open at once again, through every node."""
        async with httpx.AsyncClient(timeout=60) as c:
            for _ in range(300):
                opened = await asyncio.gather(*[c.send(c.build_request(
                    "GET", f"{nodes[i % 3].http}/api/stream/event", headers=auth(token)),
                    stream=True) for i in range(12)])
                for r in opened:
                    await r.aclose()
                if all(r.status_code == 200 for r in opened):
                    return True
                await asyncio.sleep(0.2)
        return False

    assert asyncio.run(again())


def test_password_guesses_raced_through_every_node_share_one_allowance(
        cluster: Topology) -> None:
    nodes = [node(n) for n in cluster.nodes]
    _, session = account(nodes[0], "guessed")

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=60) as c:
            return list(await asyncio.gather(*[
                c.post(f"{nodes[i % 3].http}/api/account/password", headers=auth(session),
                       json={"password": "stolen horse", "old_password": f"guess {i}"})
                for i in range(12)]))

    answers = sorted((r.status_code, r.json().get("code")) for r in asyncio.run(race()))
    assert answers.count((401, "bad_login")) <= 5, answers  # 5 a minute, for all the nodes
    assert answers.count((429, "rate_limited")) >= 7, answers


def _identified(message: dict[str, Any]) -> bool:
    """The welcome that answers the identify (id 1), not the one sent on connecting."""
    return message.get("type") == "welcome" and message.get("id") == 1
