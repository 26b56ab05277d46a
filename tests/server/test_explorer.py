"""The opening explorer over the archive: finished games played through the API, counted per
position with their results from the mover's side; bad requests refused with 4xx; answers kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.server.api.app import create_app
from gamehall.server.ops.settings import Settings
from tests.server.test_hints import Table

EXPLORE = "/api/games/hula/explorer"


def played(table: Table, ann: str, bob: str, moves: list[int], loser: str,
           **options: Any) -> None:
    """A finished Hula game between Ann (first) and Bob: the legal moves at these indices,
    then `loser` resigns."""
    made = table.client.post("/api/rooms", json={"game": "hula", "rated": False,
                                                 "options": options},
                             headers={"X-Gamehall-Token": table.tokens[ann]}).json()["id"]
    table.act(ann, made, "join", seat=0)
    table.act(bob, made, "join", seat=1)
    table.act(ann, made, "start")
    for i, pick in enumerate(moves):
        who = (ann, bob)[i % 2]
        seen = table.state(who, made)
        answer = table.act(who, made, "move", move=seen["legal_moves"][pick],
                           version=seen["version"])
        assert answer.status_code == 200, answer.text
    assert table.act(loser, made, "resign").status_code == 200


def bots_only(table: Table, ann: str) -> None:
    """A game of two random bots, played to its end."""
    made = table.client.post("/api/rooms", json={"game": "hula", "rated": False},
                             headers={"X-Gamehall-Token": table.tokens[ann]}).json()["id"]
    table.act(ann, made, "bot", level="random", seat=0)
    table.act(ann, made, "bot", level="random", seat=1)
    table.act(ann, made, "start")
    while table.state(None, made)["status"] != "finished":
        time.sleep(0.05)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Table]]:
    tmp = tmp_path_factory.mktemp("explorer")
    settings = Settings(bot_delay=0.0, rate=1000, burst=1000, explorer_max_depth=5)
    with TestClient(create_app(f"sqlite:///{tmp / 'e.db'}", settings)) as client:
        table = Table(client)
        ann, bob = table.visitor("ann"), table.visitor("bob")
        played(table, ann, bob, [0, 0], loser=ann)   # Ann lost
        played(table, ann, bob, [0, 1], loser=bob)   # Ann won
        played(table, ann, bob, [1], loser=bob)      # Ann won
        played(table, ann, bob, [2], loser=ann, size=7)
        bots_only(table, ann)
        yield client, table


def explore(client: TestClient, status: int = 200, **params: str) -> dict[str, Any]:
    answer = client.get(EXPLORE, params=params)
    assert answer.status_code == status, answer.text
    return dict(answer.json())


def test_first_moves_and_replies_with_counts_and_results(archive: tuple[TestClient, Table]
                                                         ) -> None:
    client, _ = archive
    root = explore(client)
    assert root["moves"] == [] and root["side"] == 0 and root["to_move"] == 0
    assert root["games"] == 3 and (root["wins"], root["losses"]) == (2, 1)
    first = {r["move"]: r for r in root["next"]}
    assert list(first) == ["a1", "a2"], "most played first"
    assert (first["a1"]["games"], first["a1"]["wins"], first["a1"]["losses"]) == (2, 1, 1)
    assert (first["a2"]["games"], first["a2"]["wins"], first["a2"]["draws"]) == (1, 1, 0)
    deeper = explore(client, moves=str(first["a1"]["action"]))
    assert [m["move"] for m in deeper["moves"]] == ["a1"] and deeper["side"] == 1
    replies = {r["action"]: r for r in deeper["next"]}
    assert len(replies) == 2 and sum(r["games"] for r in replies.values()) == 2
    assert sorted((r["wins"], r["losses"]) for r in replies.values()) == [(0, 1), (1, 0)]
    ended = explore(client, moves=str(first["a2"]["action"]))
    assert ended["games"] == 1 and ended["next"] == [], "that game ended there (resigned)"


def test_each_start_is_its_own_tree_and_bot_games_count_only_when_asked(
        archive: tuple[TestClient, Table]) -> None:
    client, _ = archive
    seven = explore(client, options='{"size": 7}')
    assert seven["games"] == 1 and seven["options"]["size"] == 7
    assert [(r["move"], r["losses"]) for r in seven["next"]] == [("a3", 1)]
    assert explore(client, options='{"size": 6, "pie": true}')["games"] == 3, \
        "the defaults named are the same start"
    everyone = explore(client, players="all")
    assert everyone["games"] == 4 and everyone["players"] == "all"


def test_bad_requests_are_refused_in_words(archive: tuple[TestClient, Table]) -> None:
    client, _ = archive
    assert explore(client, 400, moves="a1")["code"] == "bad_moves"
    assert explore(client, 400, moves="0,0")["code"] == "bad_moves", "a1 is taken"
    assert explore(client, 400, moves="0,1,2,3,4,5")["code"] == "too_deep"
    assert explore(client, 400, options="[1")["code"] == "bad_option"
    assert explore(client, 400, options="[" * 5000)["code"] == "bad_option"
    assert explore(client, 400, options='{"colour": 3}')["code"] == "bad_option"
    assert explore(client, 400, options='{"size": 99}')["code"] == "bad_option"
    assert explore(client, 400, players="bots")["code"] == "bad_players"
    unknown = client.get("/api/games/chess/explorer")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_game"


def test_answers_are_kept_so_repeating_a_request_reads_nothing(
        archive: tuple[TestClient, Table], monkeypatch: pytest.MonkeyPatch) -> None:
    client, _ = archive
    store = client.app.state.hall.storage  # type: ignore[attr-defined]
    reads: list[str] = []
    real = store.openings

    async def counted(game: str, limit: int, depth: int) -> list[dict[str, Any]]:
        reads.append(game)
        return list(await real(game, limit, depth))

    monkeypatch.setattr(store, "openings", counted)
    explore(client)
    explore(client, moves="0")
    assert reads == [], "read within the TTL already"


def test_a_halali_position_branches_on_what_chance_turned_up(tmp_path: Path) -> None:
    """Chance outcomes are steps of the key: after a flip the explorer lists the tiles it
    turned up, from the flipper's side."""
    settings = Settings(bot_delay=0.0, rate=1000, burst=1000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", settings)) as client:
        table = Table(client)
        ann = table.visitor("ann")
        made = client.post("/api/rooms", json={"game": "halali", "rated": False},
                           headers={"X-Gamehall-Token": table.tokens[ann]}).json()["id"]
        table.act(ann, made, "join", seat=1)
        table.act(ann, made, "bot", level="random", seat=0)
        table.act(ann, made, "start")
        while (seen := table.state(ann, made))["to_move"] != 1:
            time.sleep(0.05)
        flip = seen["legal_moves"][0]
        table.act(ann, made, "move", move=flip, version=seen["version"])
        table.act(ann, made, "resign")
        record = client.get(f"/api/rooms/{made}/record").json()
        acts = [a["action"] for a in record["actions"]]
        first_flip = next(i for i, a in enumerate(record["actions"])
                          if a["move"].startswith("flip"))
        at = explore_game(client, "halali", acts[:first_flip + 1])
        assert at["chance"] is True and at["to_move"] is None
        assert at["side"] == 1 and at["side_name"] == "beasts", "the flipper's side"
        (outcome,) = at["next"]
        assert outcome["action"] == acts[first_flip + 1] and outcome["games"] == 1


def explore_game(client: TestClient, game: str, moves: list[int]) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game}/explorer",
                        params={"moves": ",".join(map(str, moves))})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())
