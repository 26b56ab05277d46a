"""A finished room says how its game ended as a message (`outcome_key`/`outcome_args` beside
`outcome`): the game's own sentence, or the hall's (resigned, out of time, away too long,
dropped out) with the game's nested, in the state, the lobby line, the record, the bot API's
game line and the archive, and the same after the room went through storage."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from gamehall.core.messages import Message, render
from gamehall.server.botapi.service import game_line
from gamehall.server.storage import SqlStorage
from gamehall.server.table import endings
from gamehall.server.table.replay import game_record
from gamehall.server.table.room import FINISHED, Room
from tests.server.test_room_endings import play, table


@pytest.fixture(autouse=True)
def _games(test_games: None) -> None:
    """Every test here needs the small test games registered."""


def said(data: dict[str, Any]) -> Message:
    """The outcome message a JSON object carries, checked against its English text."""
    message = Message.from_json({"key": data["outcome_key"], "args": data["outcome_args"]})
    assert message.text == data["outcome"]
    return message


def german(message: Message) -> str:
    return render(message.key, message.args, "de")


def everywhere(room: Room) -> Message:
    """The room's outcome as every JSON form of it sends it (they agree)."""
    forms = [room.snapshot(0, set()), room.summary(), game_record(room), game_line(room, 0)]
    messages = [said(form) for form in forms]
    assert all(m == messages[0] for m in messages) and messages[0] == room.outcome_message
    return messages[0]


def test_a_resignation_a_clock_and_a_claim_say_who_in_every_language() -> None:
    resigned = table()
    resigned.resign(1)
    message = everywhere(resigned)
    assert message.key == "room.outcome.ended" and message.text == "p1 resigned: p2 wins"
    assert german(message) == "p1 hat aufgegeben: p2 gewinnt"
    timed = table(clock="0.1+0")
    play(timed, "a1", 2.0)
    timed.time_out(8.0)
    assert german(everywhere(timed)) == "p2 hat keine Zeit mehr: p1 gewinnt"
    claimed = table()
    claimed.claim(2, 0)
    assert german(everywhere(claimed)) == "p1 war zu lange abwesend: p2 gewinnt"


def test_a_seat_that_dropped_out_ranks_last_in_the_sentence_too() -> None:
    r = table("testtrio", clock="0.1+0", people=3)
    play(r, "1", 1.0)
    r.time_out(7.0)
    for move in ("3", "1", "1", "3", "1", "1", "3", "2"):
        play(r, move, 7.0)
    message = everywhere(r)
    assert message.key == "room.outcome.dropped"
    assert message.text == "p1 and p3 win (p2 dropped out and ranks last)"
    assert german(message) == \
        "p1 und p3 gewinnen (p2 ist ausgeschieden und wird Letzter)"


def test_the_rules_ending_carries_the_games_own_key() -> None:
    r = table(people=1)
    while r.status != FINISHED:
        seat = r.to_move()
        assert seat is not None and r.state is not None
        r.apply(seat, r.state.legal_actions()[0])
    message = everywhere(r)
    assert r.state is not None and message == r.state.outcome_message()


def test_two_seats_with_one_name_keep_the_seat_beside_it() -> None:
    r = table("hula", people=0)  # both seats "random bot": the sentence names the seat too
    r._end([0], "resign", endings.resigned(r, 0))
    message = everywhere(r)
    assert message.text == "random bot (first) resigned: random bot (second) wins"
    assert german(message) == "random bot (Erster) hat aufgegeben: random bot (Zweiter) gewinnt"


async def _stored(url: str, room: Room | None) -> tuple[Room | None, list[dict[str, Any]]]:
    """Save `room` (unless None), then load the room ``r1`` and the archive's first page."""
    store = SqlStorage(url)
    await store.open()
    try:
        if room is not None:
            await store.save_room(room, room.moves)
        games, _ = await store.finished_games(None, None, None, 5)
        return await store.load_room("r1"), games
    finally:
        await store.close()


def test_the_outcome_message_survives_storage_and_an_older_row_keeps_its_text(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    r = table(clock="0.1+0")
    play(r, "a1", 2.0)
    r.time_out(8.0)
    r.ended_at = "2024-01-01T00:00:00.000+00:00"
    back, archive = asyncio.run(_stored(url, r))
    assert back is not None and back.outcome_message == r.outcome_message
    assert said(back.snapshot(0, set())) == r.outcome_message
    assert [said(line) for line in archive] == [r.outcome_message]
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # a row stored before outcomes had keys
        conn.execute(sa.text("UPDATE rooms SET outcome_message = NULL"))
    engine.dispose()
    old, archive = asyncio.run(_stored(url, None))
    assert old is not None and old.outcome == r.outcome
    assert old.outcome_message is not None and old.outcome_message.key == \
        "game.outcome.verbatim"
    assert json.loads(old.render(0, set()))["outcome_key"] == "game.outcome.verbatim"
    assert [line["outcome"] for line in archive] == [r.outcome]
