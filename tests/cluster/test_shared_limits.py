"""What holds for the whole cluster rather than per node (two nodes, deploy/topology.py, one
Redis): failed sign-ins spread over both nodes are refused at the same count as on one node, and
a token signed out through one node is refused by the other at once, over HTTP and on a
WebSocket that was open all along. Underneath, two `SharedLimiter`s on one redis-server share
their counts, and count in their own memory while Redis is down (logged, never an error)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from deploy.topology import RedisServer, Topology
from gamehall.server.ops.limiter import Limiter, Rule, SharedLimiter, SignInLimits
from tests.cluster.conftest import fresh_topology
from tests.cluster.helpers import NODE_ENV, node
from tests.server.live import auth

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def pair(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    with fresh_topology(pg_url, tmp_path_factory.mktemp("cluster-shared"), 2, NODE_ENV) as topo:
        yield topo


def _account(at: str, nickname: str) -> str:
    """A new nickname with a password, made through the node at `at`; its token."""
    r = httpx.post(f"{at}/api/session", json={"nickname": nickname}, timeout=30)
    assert r.status_code == 200, r.text
    token = str(r.json()["token"])
    r = httpx.post(f"{at}/api/account/password", json={"password": PASSWORD},
                   headers=auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return token


def _login(at: str, nickname: str, password: str) -> httpx.Response:
    return httpx.post(f"{at}/api/login", json={"nickname": nickname, "password": password},
                      timeout=60)


def test_failed_sign_ins_count_once_for_the_whole_cluster(pair: Topology) -> None:
    """Five failures a minute per nickname and address (limiter.SIGN_IN_RULES): alternating
    between the nodes, the sixth attempt is refused, as it is on a single node."""
    n1, n2 = (node(n).http for n in pair.nodes)
    _account(n1, "sharedann")
    codes = [_login((n1, n2)[i % 2], "sharedann", f"guess {i}").status_code for i in range(6)]
    assert codes == [401] * 5 + [429], codes
    for at in (n1, n2):  # even the right password waits now, on either node
        r = _login(at, "sharedann", PASSWORD)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert int(r.headers["Retry-After"]) >= 1


def test_a_sign_out_through_one_node_is_refused_by_the_other_at_once(pair: Topology) -> None:
    one, two = (node(n) for n in pair.nodes)
    token = _account(one.http, "sharedbob")
    other = one.session("sharedcarol")  # signs in elsewhere and stays
    room = two.create_room(token, "testline")
    me = httpx.get(f"{two.http}/api/session", headers=auth(token), timeout=30)
    assert me.status_code == 200 and me.json()["nickname"] == "sharedbob"  # two trusts it now

    async def scenario() -> None:
        ws = await two.client(room, None, "bob")
        await ws.send({"type": "identify", "token": token, "id": "me"})
        hello = await ws.wait(lambda m: m["type"] == "welcome" and m.get("id") == "me")
        assert hello["you"] == "sharedbob" and hello["node"] == two.name
        await ws.send({"type": "chat", "text": "still here", "id": "c1"})
        line = await ws.wait(lambda m: m["type"] in ("chat", "error"))
        assert line["type"] == "chat" and line["text"] == "still here", line

        out = httpx.post(f"{one.http}/api/logout", headers=auth(token), timeout=30)
        assert out.status_code == 200, out.text

        gone = httpx.get(f"{two.http}/api/session", headers=auth(token), timeout=30)
        assert gone.status_code == 401 and gone.json()["code"] == "not_identified", gone.text
        with pytest.raises(ConnectionClosed) as closed:  # its socket on two is closed too
            await ws.wait(lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        r = two.act(token, room, "chat", text="over HTTP")
        assert r.status_code == 401 and r.json()["code"] == "not_identified", r.text
        r = two.act(other, room, "chat", text="others are not signed out")
        assert r.status_code == 200, r.text

    asyncio.run(scenario())


def test_two_nodes_share_their_counts_and_count_alone_while_redis_is_down(
        redis_server: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    rule = (Rule("t", "4/minute", ("k",)),)

    async def scenario() -> None:
        a, b = SharedLimiter(redis_server.url), SharedLimiter(redis_server.url)
        got = [await (a, b)[i % 2].allow(rule, {"k": "x"}) for i in range(5)]
        assert got == [True] * 4 + [False]
        wait = await b.blocked(rule, {"k": "x"})
        assert wait is not None and 1 <= wait <= 60
        sign_ins_a, sign_ins_b = SignInLimits(a), SignInLimits(b)
        for i in range(5):
            await (sign_ins_a, sign_ins_b)[i % 2].sign_in_failed("ann", "10.0.0.1")
        assert await sign_ins_b.sign_in_blocked("ann", "10.0.0.1") is not None
        assert await sign_ins_a.sign_in_blocked("ann", "10.0.0.2") is None

        redis_server.freeze()  # a Redis that does not answer: a count waits TIMEOUT at most
        try:
            assert await a.allow(rule, {"k": "x"}), "counted in a's memory, which is fresh"
        finally:
            redis_server.thaw()
        assert a.failures == 1
        a._local_until = 1.0  # as if RETRY_SECONDS had passed: Redis again
        assert not await a.allow(rule, {"k": "x"})

        redis_server.kill9()
        caplog.clear()
        with caplog.at_level(logging.WARNING, "gamehall.server"):
            got = [await a.allow(rule, {"k": "y"}) for _ in range(5)]  # a's memory counts
            assert got == [True] * 4 + [False]
            assert await b.allow(rule, {"k": "y"})  # b's own, meanwhile
            assert await a.blocked(rule, {"k": "y"}) is not None
        assert a.failures >= 2 and b.failures >= 1
        warned = [r for r in caplog.records if "rate limits: Redis failed" in r.getMessage()]
        assert len(warned) == 2, [r.getMessage() for r in warned]  # once per node

        redis_server.start()  # empty: the counts start again, in Redis once more
        for limiter in (a, b):
            limiter._local_until = 1.0  # as if RETRY_SECONDS had passed
        got = [await (a, b)[i % 2].allow(rule, {"k": "z"}) for i in range(5)]
        assert got == [True] * 4 + [False]
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_the_memory_limiter_is_each_nodes_own() -> None:
    """Without --redis every node counts alone (a single hall's case)."""
    rule = (Rule("t", "2/minute", ("k",)),)

    async def scenario() -> None:
        a, b = Limiter(), Limiter()
        assert [await a.allow(rule, {"k": "x"}) for _ in range(3)] == [True, True, False]
        assert await b.allow(rule, {"k": "x"})

    asyncio.run(scenario())
