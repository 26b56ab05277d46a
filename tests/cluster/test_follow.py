"""A node that does not own a room follows the owner's commits (the stored row and the actions
played) without replaying the game: after every commit its copy shows exactly what the owner's
room shows, for every seat and for watchers, chance and hidden information included."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.server.storage import room_from_values, room_row
from gamehall.server.table.room import Room


def _follow(owner: Room, copy: Room, before: int) -> Room:
    """What the hall's `_follow` does with the event of a commit (through JSON, as in Redis)."""
    event = json.loads(json.dumps({"row": room_row(owner), "moves": [
        [m.seat, m.action] for m in owner.moves[before:]]}))
    return copy.continued(room_from_values(event["row"]), [(s, a) for s, a in event["moves"]])


@pytest.mark.parametrize("game", ["halali", "hula", "hotu_matua"])
def test_a_copy_following_the_commits_shows_what_the_owner_shows(game: str) -> None:
    rng = random.Random(7)
    owner = Room(id="r1", game_name=game, options={}, created_by="ann", seed=11)
    copy = room_from_values(room_row(owner))
    owner.join(1, "ann", None)
    copy = _follow(owner, copy, 0)
    owner.set_bot("random", "random bot", None)
    copy = _follow(owner, copy, 0)
    owner.start()
    owner.resolve_chance(rng)
    copy = _follow(owner, copy, 0)
    for _ in range(60):
        if owner.status != "playing":
            break
        before = owner.version
        seat = owner.to_move()
        assert seat is not None and owner.state is not None
        owner.apply(seat, rng.choice(owner.state.legal_actions()))
        owner.resolve_chance(rng)
        copy = _follow(owner, copy, before)
        for viewer in (0, 1, None):
            assert copy.snapshot(viewer, set()) == owner.snapshot(viewer, set())
    assert copy.moves == owner.moves
