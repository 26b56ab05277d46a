"""A tournament's director in a cluster: one node holds the tournament's lease and pairs its
rounds; kill -9 that node in the middle of a round, and another takes over from PostgreSQL: the
round's games end (their rooms taken over too), the next round is paired once, the tournament
finishes, and no round was ever paired twice (each round's games, and the rooms, counted in the
database)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import redis
import sqlalchemy as sa

from deploy.topology import Topology
from tests.cluster.helpers import Endpoint, wait_for
from tests.server.live import auth

PASSWORD = "correct horse"


def _account(front: Endpoint, nickname: str) -> str:
    token = front.session(nickname)
    r = httpx.post(
        f"{front.http}/api/account/password",
        json={"password": PASSWORD},
        headers=auth(token),
        timeout=30,
    )
    assert r.status_code == 200, r.text
    return token


def _games(front: Endpoint, tid: str, round_no: int) -> list[dict[str, Any]] | None:
    r = httpx.get(f"{front.http}/api/tournaments/{tid}/games", timeout=30)
    if r.status_code != 200:
        return None
    found = [json.loads(x) for x in r.text.splitlines() if x]
    mine = [g for g in found if g["round"] == round_no]
    return mine if mine and all(g["status"] != "open" for g in mine) else None


def _resign_all(front: Endpoint, tokens: dict[str, str], games: list[dict[str, Any]]) -> None:
    for g in games:
        loser = max(g["players"])
        wait_for(
            lambda g=g, loser=loser: (
                front.act(tokens[loser], g["room"], "resign").status_code == 200
                or front.record(g["room"])["status"] == "finished"
            )
        )


def _director(topology: Topology, tid: str) -> str:
    r = redis.Redis.from_url(topology.redis.url, decode_responses=True)
    try:
        holder = r.get(f"gamehall:tournament-lease:{tid}")
    finally:
        r.close()
    return str(holder or "").split(":")[0]


def test_kill_9_of_the_director_mid_round(topology: Topology, pg_url: str) -> None:
    front = Endpoint(topology.http)
    tokens = {f"d{i}": _account(front, f"d{i}") for i in range(1, 5)}
    r = httpx.post(
        f"{front.http}/api/tournaments",
        headers=auth(tokens["d1"]),
        timeout=30,
        json={"name": "killed", "game": "testline", "clock": "5+3", "system": "swiss", "rounds": 3},
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for token in tokens.values():
        r = httpx.post(f"{front.http}/api/tournaments/{tid}/join", headers=auth(token), timeout=30)
        assert r.status_code == 200, r.text
    r = httpx.post(
        f"{front.http}/api/tournaments/{tid}/start", headers=auth(tokens["d1"]), timeout=30
    )
    assert r.status_code == 200, r.text
    _resign_all(front, tokens, wait_for(lambda: _games(front, tid, 1)))
    second = wait_for(lambda: _games(front, tid, 2))
    director = wait_for(lambda: _director(topology, tid))
    victim = next(n for n in topology.nodes if n.name == director)
    try:
        victim.kill9()  # in the middle of round 2: its games are being played
        _resign_all(front, tokens, second)
        third = wait_for(lambda: _games(front, tid, 3), timeout=90)
        assert wait_for(lambda: _director(topology, tid)) != director
        _resign_all(front, tokens, third)
        final = wait_for(
            lambda: (
                (t := httpx.get(f"{front.http}/api/tournaments/{tid}", timeout=30).json())["status"]
                == "finished"
                and t
            ),
            timeout=90,
        )
        assert [s["player"] for s in final["standings"]][0] == "d1"
        assert final["standings"][0]["points"] == 3
        engine = sa.create_engine(pg_url)
        with engine.connect() as conn:
            per_round = conn.execute(
                sa.text(
                    "SELECT round, count(*) FROM tournament_games WHERE tournament_id = :t "
                    "GROUP BY round ORDER BY round"
                ),
                {"t": tid},
            ).all()
            rounds = conn.execute(
                sa.text("SELECT count(*) FROM tournament_rounds WHERE tournament_id = :t"),
                {"t": tid},
            ).scalar_one()
            made = conn.execute(
                sa.text("SELECT count(*) FROM rooms WHERE id LIKE :p"), {"p": f"{tid}-%"}
            ).scalar_one()
        engine.dispose()
        assert [tuple(x) for x in per_round] == [(1, 2), (2, 2), (3, 2)] and rounds == 3
        assert made == 6
    finally:
        victim.start()
        topology.wait_formed()
