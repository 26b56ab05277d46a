"""The lobby's lines on a node (server/lobby/index.py): changes that come late or twice (from
other nodes, over Redis) never bring an older line back, a room dropped for good stays gone, the
finished rooms kept are the most recent, and a running clock is counted down to the moment a
line is sent."""

from __future__ import annotations

import json

from gamehall.server.lobby.index import Change, Gone, LobbyIndex, Put, as_at, client_change


def _room(
    key: str,
    rev: int,
    status: str = "waiting",
    at: float = 0.0,
    clock: dict[str, object] | None = None,
) -> Put:
    return Put("rooms", key, rev, at, {"id": key, "status": status, "rev": rev, "clock": clock})


def _statuses(index: LobbyIndex) -> dict[str, object]:
    return {line["id"]: line["rev"] for line in index.snapshot(0.0)["rooms"]}


def test_an_older_line_never_replaces_a_newer_one() -> None:
    index = LobbyIndex()
    assert index.apply(Change([_room("a", 2)], []))
    assert not index.apply(Change([_room("a", 1)], []))  # late: dropped, nothing to send
    assert not index.apply(Change([_room("a", 2)], []))  # twice: nothing to send
    assert _statuses(index) == {"a": 2}
    done = index.apply(Change([_room("a", 3)], []))
    assert [p.rev for p in done.puts] == [3]


def test_a_room_gone_for_good_never_comes_back() -> None:
    index = LobbyIndex()
    index.apply(Change([_room("a", 0), _room("b", 0)], []))
    done = index.apply(Change([], [Gone("rooms", "a")]))
    assert [g.key for g in done.gones] == ["a"]
    assert not index.apply(Change([_room("a", 5)], []))
    assert _statuses(index) == {"b": 0}


def test_the_newest_change_comes_first_and_only_the_latest_finished_rooms_stay() -> None:
    index = LobbyIndex(finished_kept=2)
    index.apply(Change([_room("a", 0), _room("b", 0), _room("c", 0)], []))
    index.apply(Change([_room("a", 1)], []))
    assert [line["id"] for line in index.snapshot(0.0)["rooms"]] == ["a", "c", "b"]
    for key in ("a", "b"):
        index.apply(Change([_room(key, 9, "finished")], []))
    done = index.apply(Change([_room("c", 9, "finished")], []))
    assert [g.key for g in done.gones] == ["a"]  # the oldest finished room leaves the lobby
    assert set(_statuses(index)) == {"b", "c"}


def test_a_running_clock_is_counted_down_to_the_moment_it_is_sent() -> None:
    clock = {"control": "5+3", "remaining_ms": [300000, 200000], "running": 1, "low_ms": 30000}
    put = _room("a", 1, "playing", at=100.0, clock=clock)
    assert as_at(put, 102.5)["clock"]["remaining_ms"] == [300000, 197500]
    assert put.line["clock"]["remaining_ms"] == [300000, 200000]  # the kept line is untouched
    assert as_at(put, 99.0) is put.line
    sent = client_change(Change([put], [Gone("seeks", "s1")]), 101.0)
    assert sent == {
        "type": "lobby_change",
        "put": {"rooms": [as_at(put, 101.0)]},
        "gone": {"seeks": ["s1"]},
    }


def test_a_change_survives_the_trip_between_nodes() -> None:
    change = Change([_room("a", 3)], [Gone("seeks", "s", 4)])
    again = Change.from_wire(json.loads(json.dumps(change.wire())))
    assert again == change


def test_the_snapshot_text_is_the_snapshot() -> None:
    clock = {"control": "5+3", "remaining_ms": [300000, 200000], "running": 0, "low_ms": 30000}
    index = LobbyIndex()
    index.apply(
        Change(
            [
                _room("a", 1),
                _room("b", 2, "playing", at=5.0, clock=clock),
                Put("pools", "p", None, 0.0, {"id": "p", "clock": "5+3"}),
            ],
            [],
        )
    )
    assert json.loads(index.snapshot_text(7.0)) == {"type": "lobby", **index.snapshot(7.0)}
