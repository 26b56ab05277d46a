"""Room logic in process: seats, options, moves, chance, resignation, replay (no server needed)."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.server.hall.hall import SYSTEM_RANDOM
from gamehall.server.table.commands import parse_command
from gamehall.server.table.errors import RoomError
from gamehall.server.table.protocol import dumps
from gamehall.server.table.room import FINISHED, PLAYING, Move, Room


@pytest.fixture(autouse=True)
def _games(test_games: None) -> None:
    """Every test here needs the small test games registered."""


def room(game: str = "testline", **options: object) -> Room:
    return Room(id="r1", game_name=game, options=dict(options), created_by="t", seed=1234)


def refused(code: str, fn: object, *args: object) -> None:
    assert callable(fn)
    with pytest.raises(RoomError) as info:
        fn(*args)
    assert info.value.code == code, info.value.message


def test_first_come_first_seated_and_seat_references() -> None:
    r = room()
    assert r.join(1, "ann", None) == 0
    assert r.join(2, "bob", None) == 1
    refused("no_free_seat", r.join, 3, "cat", None)
    refused("already_seated", r.join, 1, "ann", "o")
    r.leave(1, None)
    refused("no_such_seat", r.join, 3, "cat", "z")
    refused("no_such_seat", r.join, 3, "cat", 5)
    assert r.join(3, "cat", "X") == 0


def test_a_seat_number_typed_in_chat_is_quoted_as_typed() -> None:
    r = room()
    with pytest.raises(RoomError) as typed:
        r.set_bot("random", "random bot", parse_command("/bot random 9").args["seat"])
    assert typed.value.code == "no_such_seat"
    assert "no seat 9 (seats: 1 x, 2 o)" in typed.value.message
    with pytest.raises(RoomError) as sent:
        r.join(1, "ann", 8)  # a JSON message's seat counts from 0
    assert "no seat 8 (seats: x, o)" in sent.value.message
    assert r.join(1, "ann", parse_command("/join 2").args["seat"]) == 1


def test_bots_fill_seats_and_are_removed_only_before_the_start() -> None:
    r = room()
    r.join(1, "ann", "o")
    assert r.set_bot("random", "random bot", None) == 0
    refused("seat_taken", r.set_bot, "random", "random bot", "o")
    assert r.set_bot("random", "random bot", "x") == 0  # re-level a bot
    assert r.leave(1, "x") == 0
    r.set_bot("random", "random bot", "x")
    r.start()
    refused("already_started", r.leave, 1, "x")
    assert r.bot_to_move() == "random"


def test_options_change_the_game_before_the_start_only() -> None:
    r = room("testline")
    assert r.set_option("size", "4") == 4 and r.game.num_distinct_actions == 16
    assert r.set_option("misere", "on") is True
    refused("bad_option", r.set_option, "size", "9")
    refused("bad_option", r.set_option, "colour", "red")
    assert r.options == {"size": 4, "misere": True}
    refused("seats_empty", r.start)
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    refused("already_started", r.set_option, "size", 3)


def test_moves_are_checked_for_seat_turn_version_and_legality() -> None:
    r = room()
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    refused("not_started", r.check_move, 1, "a1", 0)
    r.start()
    refused("not_your_turn", r.check_move, 2, "a1", 0)
    refused("not_seated", r.check_move, 9, "a1", 0)
    refused("stale_version", r.check_move, 1, "a1", 1)
    refused("illegal_move", r.check_move, 1, "q7", 0)
    r.seats[1] = None  # a running game stored with an empty seat (before leaving resigned)
    refused("seats_empty", r.check_move, 1, "a1", 0)
    assert r.join(2, "bob", None) == 1
    seat, action = r.check_move(1, " A1 ", 0)
    r.apply(seat, action)
    refused("illegal_move", r.check_move, 2, "a1", 1)
    assert r.version == 1 and r.moves == [Move(0, 0, "a1")]


def test_snapshot_gives_legal_moves_only_to_the_seat_to_move() -> None:
    r = room("testrace")
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    mine, theirs, spect = r.snapshot(0, {1}), r.snapshot(1, {1}), r.snapshot(None, {1})
    assert mine["legal_moves"] == ["roll", "hold"] and theirs["legal_moves"] == []
    assert "secret" in mine["view"] and "secret" not in spect["view"]
    assert mine["view"]["secret"] != theirs["view"]["secret"]
    assert [s["connected"] for s in mine["seats"]] == [True, False]


def test_the_state_message_takes_legal_and_played_moves_apart() -> None:
    r = room("halali")
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    assert r.state is not None
    mover = r.to_move()
    msg = r.snapshot(mover, {1, 2})
    assert msg["legal_moves"] == [entry["move"] for entry in msg["legal"]]
    assert msg["legal"] == [{"move": r.state.action_to_string(a), **r.state.action_parts(a)}
                            for a in r.state.legal_actions()]
    assert {"move": "flip a1", "kind": "flip", "cell": "a1"} in msg["legal"]
    assert r.snapshot(None, set())["legal"] == [], "parts, like the moves, go to the mover only"
    seat, action = r.check_move(1 + (mover or 0), "flip a1", 0)
    r.apply(seat, action)
    (drawn,) = r.resolve_chance(SYSTEM_RANDOM)
    moves = r.snapshot(None, set())["moves"]
    assert moves[0] == {"seat": mover, "move": "flip a1", "turn": 1, "kind": "flip",
                        "cell": "a1"}
    assert moves[1]["seat"] is None and moves[1]["move"] == drawn.move
    assert moves[1]["turn"] == 1, "the flipped tile belongs to the flipper's turn"
    assert moves[1]["kind"] == "reveal" and moves[1]["cell"] == "a1"
    assert moves[1]["tile"] == r.snapshot(None, set())["view"]["board"][6].split()[0]
    text = json.loads(r.render(None, set(), moves_from=1))
    assert text["moves_from"] == 1 and text["moves"] == moves[1:]
    r.replay([Move(m.seat, m.action, m.move) for m in r.moves])
    assert r.snapshot(None, set())["moves"] == moves, "a rebuilt room takes its moves apart again"


def test_chance_is_drawn_from_the_generator_the_hall_passes_never_the_state_own() -> None:
    class Forbidden(random.Random):
        def random(self) -> float:
            raise AssertionError("the state's own seeded generator was used")

    r = room("testrace")
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    assert r.state is not None
    r.state.rng = Forbidden()
    seat, action = r.check_move(1, "roll", 0)
    r.apply(seat, action)
    drawn = r.resolve_chance(SYSTEM_RANDOM)
    assert len(drawn) == 1 and drawn[0].seat is None and drawn[0].move.startswith("d")
    assert isinstance(SYSTEM_RANDOM, random.SystemRandom)


def test_resigning_gives_the_worst_result_and_shares_the_rest() -> None:
    r = room()
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    refused("not_seated", r.resign, 3)
    assert r.resign(2) == 1
    assert r.status == FINISHED and r.result == [1.0, -1.0] and r.ended_by == "resign"
    trio = room("testtrio")
    for pid in (1, 2, 3):
        trio.join(pid, f"p{pid}", None)
    trio.start()
    trio.resign(1)
    assert trio.result == [0.0, 0.5, 0.5]


def test_replay_rebuilds_the_same_position_from_the_stored_moves() -> None:
    r = room("testrace", goal=15)
    r.join(1, "ann", None)
    r.join(2, "bob", None)
    r.start()
    rng = random.Random(4)
    while r.status == PLAYING:
        seat = r.to_move()
        assert seat is not None and r.state is not None
        r.apply(seat, rng.choice(r.state.legal_actions()))
        r.resolve_chance(rng)
    again = Room(id="r1", game_name="testrace", options={"goal": 15}, created_by="t", seed=1234,
                 seats=list(r.seats), status=PLAYING)
    again.replay(list(r.moves))
    assert again.moves == r.moves and again.status == FINISHED and again.result == r.result
    assert again.snapshot(0, set()) == r.snapshot(0, set())


def test_rendered_text_is_the_snapshot_as_json() -> None:
    import json

    r = room("testrace")
    r.join(1, "ann", None)
    r.set_bot("random", "random bot", None)
    assert json.loads(r.render(0, {1})) == r.snapshot(0, {1})
    r.start()
    rng = random.Random(9)
    for _ in range(6):
        seat = r.to_move()
        assert seat is not None and r.state is not None
        r.apply(seat, rng.choice(r.state.legal_actions()))
        r.resolve_chance(rng)
        for s in (0, 1, None):
            assert json.loads(r.render(s, {1})) == r.snapshot(s, {1})


def test_a_draft_changes_without_touching_the_room_it_was_made_from() -> None:
    r = room("testrace")
    r.join(1, "ann", None)
    r.set_bot("random", "random bot", None)
    r.start()
    r.render(0, set())
    draft = r.draft()
    draft.apply(0, draft.state.string_to_action("roll"))  # type: ignore[union-attr]
    draft.resolve_chance(SYSTEM_RANDOM)
    draft.resign(1)
    draft.ask_rematch(1)  # changes the occupant itself
    assert r.version == 0 and r.moves == [] and r.state is not None and r.status == PLAYING
    assert r.state.view(None)["pos"] == [0, 0] and not r.state.view(None)["rolling"]
    assert r.seats[0] is not None and not r.seats[0].rematch
    assert '"moves":[]' in r.render(0, set()) and draft.version == 2
    assert draft.status == FINISHED and '"move":"roll"' in draft.render(0, set())


@pytest.mark.parametrize("game", ["hula", "haugaz", "halali", "hotu_matua", "hau_la"])
def test_the_head_built_from_shared_parts_is_the_snapshot_text_for_every_seat(game: str) -> None:
    """`render_head` serialises what everyone sees once per position and each seat's own keys
    apart; its text must be exactly the snapshot's, for every seat, the spectator, presence
    changes, and moves (the cache must follow each)."""
    def text(r: Room, seat: int | None, online: set[int]) -> str:
        return dumps(r.snapshot(seat, online, with_moves=False))[:-1]

    r = Room(id="g1", game_name=game, options={}, created_by="t", seed=77)
    players = range(r.game.num_players)
    for p in players:
        r.join(p + 1, f"p{p}", None)
    rng = random.Random(5)
    seats: list[int | None] = [None, *players]
    for s in seats:
        assert r.render_head(s, {1}) == text(r, s, {1})
    r.start()
    r.resolve_chance(rng)
    for step in range(12 if game != "hau_la" else 4):
        online = set(rng.sample(range(1, len(players) + 1), rng.randint(0, len(players))))
        for s in seats:
            assert r.render_head(s, online) == text(r, s, online), (step, s)
        if r.status != PLAYING:
            break
        r = r.draft()
        seat = r.to_move()
        assert seat is not None and r.state is not None
        r.apply(seat, rng.choice(r.state.legal_actions()))
        r.resolve_chance(rng)


def test_a_challenges_seats_and_terms_stay_as_agreed() -> None:
    r = room("hau_la", players=3)
    r.join(1, "ann", 0, account=True, challenged=True)
    r.join(2, "engine", 1, bot_account=True, challenged=True)
    refused("challenge_terms", r.leave, 1, None)
    refused("challenge_terms", r.set_rated, False)
    refused("challenge_terms", r.set_clock, "5+3")
    refused("challenge_terms", r.set_option, "players", 2)
    assert r.set_bot("random", "random bot", 2) == 2  # the table's other seats are free
    r.leave(1, 2)
    assert r.join(3, "cat", 2) == 2 and r.leave(3, None) == 2
    saved = [o.to_json() if o else None for o in r.seats]
    assert saved[0] and saved[0]["challenged"] and "challenged" not in (saved[2] or {})
    assert json.loads(dumps(saved))[1]["challenged"] is True
    r.set_bot("random", "random bot", 2)
    r.start()
    refused("challenge_terms", r.hand_to_bot, 1, 1, "random", "random bot")
