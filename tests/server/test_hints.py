"""Hints: the bot's move for one's own seat in casual games against the hall's bots, refused
everywhere else, limited per player, and thought out from what the seat may see only."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.core import State
from gamehall.core.messages import Message, render
from gamehall.server.accounts.identity import Player
from gamehall.server.api.app import create_app
from gamehall.server.engines.hints import answer_hint
from gamehall.server.engines.pool import BotPool
from gamehall.server.ops.limiter import Limiter
from gamehall.server.ops.settings import Settings
from gamehall.server.table.protocol import Request
from gamehall.server.table.room import Room


class Table:
    """A hall in process and its visitors, each with a token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.tokens: dict[str, str] = {}

    def visitor(self, nickname: str) -> str:
        self.tokens[nickname] = self.client.post(
            "/api/session", json={"nickname": nickname}).json()["token"]
        return nickname

    def act(self, who: str, room: str, kind: str, **body: Any) -> Any:
        return self.client.post(f"/api/rooms/{room}/{kind}", json=body,
                                headers={"X-Gamehall-Token": self.tokens[who]})

    def state(self, who: str | None, room: str) -> dict[str, Any]:
        headers = {"X-Gamehall-Token": self.tokens[who]} if who else {}
        return dict(self.client.get(f"/api/rooms/{room}", headers=headers).json())

    def room(self, who: str, rated: bool = False, bot: bool = True,
             other: str | None = None, game: str = "hula", **options: Any) -> str:
        """A started game (Hula): `who` first, then a random bot (or `other`)."""
        made = self.client.post("/api/rooms", json={"game": game, "rated": rated,
                                                     "options": options},
                                headers={"X-Gamehall-Token": self.tokens[who]}).json()["id"]
        assert self.act(who, made, "join", seat=0).status_code == 200
        if bot:
            assert self.act(who, made, "bot", level="random", seat=1).status_code == 200
        if other is not None:
            assert self.act(other, made, "join", seat=1).status_code == 200
        assert self.act(who, made, "start").status_code == 200
        return made


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    """Bots that wait (a bot's turn stays its turn during a test) and two hints a minute."""
    settings = Settings(bot_delay=60.0, hint_level="random", hint_rate="2/minute",
                        rate=1000, burst=1000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", settings)) as client:
        yield Table(client)


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code, answer.json()


def test_a_hint_is_a_legal_move_of_ones_own_seat_with_its_parts(table: Table) -> None:
    ann = table.visitor("ann")
    room = table.room(ann)
    before = table.state(ann, room)
    assert before["hints"] is True and before["to_move"] == 0
    answer = table.act(ann, room, "hint", version=before["version"], id="h1")
    assert answer.status_code == 200, answer.text
    (hint,) = answer.json()["replies"]
    assert hint["type"] == "hint" and hint["id"] == "h1" and hint["seat"] == 0
    assert hint["version"] == before["version"]
    entry = before["legal"][hint["index"]]
    assert hint["move"] == entry["move"] == before["legal_moves"][hint["index"]]
    assert {"move": hint["move"], **hint["parts"]} == entry
    again = table.act(ann, room, "hint").json()["replies"][0]
    assert again["move"] == hint["move"], "the same position gives the same hint"


def test_hints_are_refused_to_spectators_for_other_seats_and_out_of_turn(table: Table) -> None:
    ann, bob = table.visitor("ann"), table.visitor("bob")
    room = table.room(ann)
    assert table.state(bob, room)["hints"] is False
    refused(table.act(bob, room, "hint"), 403, "not_seated")
    refused(table.act(ann, room, "hint", seat=1), 403, "not_your_seat")
    refused(table.act(ann, room, "hint", version=7), 409, "stale_version")
    move = table.state(ann, room)["legal_moves"][0]
    assert table.act(ann, room, "move", move=move, version=0).status_code == 200
    assert table.state(ann, room)["hints"] is False  # the bot's turn (it waits a minute)
    refused(table.act(ann, room, "hint"), 409, "not_your_turn")


def test_no_hints_in_rated_games_between_people_or_after_the_end(table: Table) -> None:
    ann, bob = table.visitor("ann"), table.visitor("bob")
    rated = table.room(ann, rated=True)
    assert table.state(ann, rated)["hints"] is False
    refused(table.act(ann, rated, "hint"), 403, "hints_rated")
    people = table.room(ann, bot=False, other=bob)
    refused(table.act(ann, people, "hint"), 403, "hints_no_bot")
    done = table.room(ann)
    assert table.act(ann, done, "resign").status_code == 200
    assert table.state(ann, done)["hints"] is False
    refused(table.act(ann, done, "hint"), 409, "game_over")


def test_hints_are_limited_per_position_and_think_within_the_operators_level(
        table: Table) -> None:
    """Two positions a minute: the same position asked again is free (the first answer, not a
    new search), a third position is refused."""
    ann = table.visitor("ann")
    room = table.room(ann, size=5)
    refused(table.act(ann, room, "hint", level="hard"), 400, "bad_bot")
    first = table.act(ann, room, "hint")
    assert first.status_code == 200, first.text
    for _ in range(5):
        again = table.act(ann, room, "hint")
        assert again.status_code == 200, again.text
        assert again.json()["replies"][0]["move"] == first.json()["replies"][0]["move"]
    assert table.act(ann, table.room(ann, size=6), "hint").status_code == 200
    for _ in range(3):  # both positions seen stay free
        assert table.act(ann, room, "hint").status_code == 200
    third = table.act(ann, table.room(ann, size=7), "hint")
    refused(third, 429, "rate_limited")
    assert int(third.headers["Retry-After"]) >= 1


def test_a_hint_over_the_websocket_answers_the_asker_only(table: Table) -> None:
    ann = table.visitor("ann")
    room = table.room(ann)
    with table.client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"type": "identify", "token": table.tokens[ann]})
        ws.send_json({"type": "hint", "id": 5})
        while (msg := ws.receive_json())["type"] not in ("hint", "error"):
            pass
    assert msg["type"] == "hint" and msg["id"] == 5 and msg["seat"] == 0, msg
    assert msg["move"] in table.state(ann, room)["legal_moves"]


class Recorder(BotPool):
    """A pool that notes what each job would show the worker, and answers the first move."""

    def __init__(self) -> None:
        super().__init__(1)
        self.inputs: list[tuple[str, dict[str, Any], int]] = []

    async def choose(self, spec: str, state: State, seed: int, room: str = "") -> int | None:
        self.inputs.append((spec, state.to_json(), seed))
        return state.legal_actions()[0]


def halali_room(seed: int) -> Room:
    """A Halali! game after the same flips with the same outcomes, from a different seed: the
    same visible position, with a different draw for every tile still face down."""
    room = Room(id=f"h{seed}", game_name="halali", options={}, created_by="t", seed=seed,
                rated=False)
    room.join(1, "ann", 0)
    room.set_bot("random", "random bot", 1)
    room.start()
    state = room.state
    assert state is not None
    while len(state.history()) < 6 or state.current_player() != 0:  # flips, same outcomes
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            flips = [a for a, text in state.legal_notation() if text.startswith("flip")]
            state.apply_action(flips[0])
    return room


def test_a_halali_hint_is_thought_out_from_the_visible_position_only() -> None:
    """Two tables showing the same position with different hidden draws (their seeds) ask the
    worker the same question: the hint cannot depend on the face-down tiles."""
    one, two = halali_room(1), halali_room(2)
    assert one.state is not None and two.state is not None
    assert one.state.to_json() == two.state.to_json()
    assert one.state.rng.getstate() != two.state.rng.getstate(), "different hidden draws"
    pool = Recorder()
    player = Player(1, "ann", False)
    settings = Settings(hint_level="medium", hint_rate="100/minute")

    async def ask(room: Room) -> dict[str, Any]:
        return await answer_hint(pool, Limiter(), settings, room, player, Request("hint"))

    hints = [asyncio.run(ask(one)), asyncio.run(ask(two))]
    assert len(pool.inputs) == 2 and pool.inputs[0] == pool.inputs[1]
    assert pool.inputs[0][0] == "mcts:medium"
    assert hints[0]["move"] == hints[1]["move"]


@pytest.fixture()
def quick(tmp_path: Path) -> Iterator[Table]:
    """Bots that answer at once, hints at the random level."""
    settings = Settings(bot_delay=0.0, hint_level="random", rate=1000, burst=1000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'q.db'}", settings)) as client:
        yield Table(client)


def my_turn(table: Table, who: str, room: str) -> dict[str, Any]:
    """The state once it is `who`'s turn (the bot plays in the hall's loop meanwhile)."""
    for _ in range(400):
        st = table.state(who, room)
        if st["to_move"] == st["seat"] or st["status"] != "playing":
            return st
        time.sleep(0.02)
    raise AssertionError("the bot did not answer")


def test_a_haugaz_hint_is_the_whole_turn_in_words(quick: Table) -> None:
    """A place-and-move turn is hinted as both steps, said as a person says them (in English
    and in German, from the sentence's key), never as bare notation."""
    ann = quick.visitor("ann")
    room = quick.room(ann, game="haugaz", size=6)
    answer = quick.act(ann, room, "turn", moves=["black a1", "white f6"], version=0)
    assert answer.status_code == 200, answer.text
    st = my_turn(quick, ann, room)  # the bot chose a side (and played black's first turn)
    assert st["status"] == "playing" and any(e["kind"] == "place" for e in st["legal"])
    (hint,) = quick.act(ann, room, "hint").json()["replies"]
    place, move = hint["turn"]
    assert place["kind"] == "place" and move["kind"] == "move"
    assert hint["move"] == place["move"] and hint["parts"]["cell"] == place["cell"]
    assert hint["text"] == (f"place a stack on {place['cell']}, then move the stack on "
                            f"{move['from']} to {move['to']}")
    german = render(hint["key"], Message.from_json(hint).args, "de")
    assert german == (f"setze einen Stapel auf {place['cell']}, dann ziehe den Stapel auf "
                      f"{move['from']} nach {move['to']}")
    # the whole turn is legal: sent as one turn, it is played
    played = quick.act(ann, room, "turn", moves=[place["move"], move["move"]],
                       version=st["version"])
    assert played.status_code == 200, played.text


def test_a_hula_hint_says_where_to_place(quick: Table) -> None:
    ann = quick.visitor("ann")
    room = quick.room(ann, size=5)
    (hint,) = quick.act(ann, room, "hint").json()["replies"]
    assert hint["turn"] == [{"move": hint["move"], **hint["parts"]}]
    assert hint["text"] == f"place a stone on {hint['parts']['cell']}"
