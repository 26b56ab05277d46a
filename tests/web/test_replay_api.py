"""`GET /api/rooms/{id}/replay/{step}`: the spectator's view after any number of moves, which the
page's replay steps through. Checked against the engine replaying the room's record."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from gamehall.core import load_game
from gamehall.core.registry import register_game, unregister_game
from tests.web.conftest import HallProcess


def _call(hall: HallProcess, path: str, body: dict[str, Any] | None = None,
          token: str | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(hall.url + path.lstrip("/"), data=data,
                                 method="POST" if body is not None else "GET")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.fixture()
def halali_as_served() -> Iterator[None]:
    """Halali! as the test server has it (with the test plug-in's `setup` option)."""
    from tests.web.halali_setup import HalaliWithSetup

    register_game(HalaliWithSetup)
    try:
        yield
    finally:
        unregister_game("halali")


@pytest.mark.usefixtures("halali_as_served")
def test_replay_steps_match_the_record(hall: HallProcess) -> None:
    _, me = _call(hall, "/api/session", {"nickname": "replayer"})
    token = me["token"]
    _, room = _call(hall, "/api/rooms", {"game": "halali", "options": {}}, token)
    rid = room["id"]
    status, refused = _call(hall, f"/api/rooms/{rid}/replay/0")
    assert status >= 400 and "not started" in refused["message"]
    for kind, body in (("join", {}), ("bot", {"level": "random"}), ("start", {})):
        status, answer = _call(hall, f"/api/rooms/{rid}/{kind}", body, token)
        assert status == 200, answer
    for _ in range(3):  # flips: each one is followed by its chance outcome in the record
        st = answer["state"]
        while st["to_move"] != st["seat"]:
            _, st = _call(hall, f"/api/rooms/{rid}", token=token)
        flip = next(m for m in st["legal_moves"] if m.startswith("flip"))
        status, answer = _call(hall, f"/api/rooms/{rid}/move",
                               {"move": flip, "version": st["version"]}, token)
        assert status == 200, answer
    _, record = _call(hall, f"/api/rooms/{rid}/record")
    actions = [a["action"] for a in record["actions"]]
    game = load_game("halali", **record["options"])
    state = game.new_initial_state()
    for step in range(len(actions) + 1):
        status, got = _call(hall, f"/api/rooms/{rid}/replay/{step}")
        assert status == 200, got
        assert got["step"] == step and got["total"] >= len(actions)
        assert got["view"] == json.loads(json.dumps(state.view(None))), f"step {step}"
        assert got["move"] == (record["actions"][step - 1]["move"] if step else None)
        if step < len(actions):
            state.apply_action(actions[step])
    status, refused = _call(hall, f"/api/rooms/{rid}/replay/100000")
    assert status == 400 and "from 0 to" in refused["message"]
