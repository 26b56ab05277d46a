"""Ratings: the model's behaviour (winners up, losers down, ties, shared seats), and the storage
that records a game's end with every seat's new rating in the same commit as the room."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from gamehall.server.ratings import model as ratings
from gamehall.server.ratings.model import Rating, outcome_word, rate
from gamehall.server.storage import SqlStorage, UnknownPlayer
from gamehall.server.table.room import Room


def test_a_win_raises_the_winner_and_lowers_the_loser_by_as_much() -> None:
    new = rate([("ann", Rating()), ("bob", Rating())], [1.0, -1.0])
    assert new["ann"].mu > 1500 > new["bob"].mu
    assert new["ann"].mu - 1500 == pytest.approx(1500 - new["bob"].mu)
    assert new["ann"].sigma < 500 and new["ann"].games == new["bob"].games == 1


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    strong, weak = Rating(1900, 150, 40), Rating(1100, 150, 40)
    up_strong = rate([("me", Rating(1500, 150, 40)), ("x", strong)], [1, -1])["me"].mu - 1500
    up_weak = rate([("me", Rating(1500, 150, 40)), ("x", weak)], [1, -1])["me"].mu - 1500
    assert up_strong > up_weak > 0


def test_a_draw_between_equals_changes_no_rating_but_makes_both_surer() -> None:
    new = rate([("a", Rating()), ("b", Rating())], [0.0, 0.0])
    assert new["a"].mu == pytest.approx(1500) and new["b"].mu == pytest.approx(1500)
    assert new["a"].sigma < 500


def test_a_four_player_game_with_a_shared_win_ranks_the_winners_together() -> None:
    table = [(k, Rating()) for k in "abcd"]
    new = rate(table, [0.5, 0.0, 0.5, 0.0])  # Hau La: two winners share the point
    assert new["a"].mu == pytest.approx(new["c"].mu) and new["a"].mu > 1500
    assert new["b"].mu == pytest.approx(new["d"].mu) and new["b"].mu < 1500
    assert ratings.ranks([0.5, 0.0, 0.5, 0.0]) == [1, 2, 1, 2]


def test_a_bot_in_two_seats_moves_by_the_mean_of_its_seats_and_counts_one_game() -> None:
    hard = Rating(1800, 200, 10)
    new = rate([("me", Rating()), ("hard", hard), ("hard", hard)], [1.0, 0.0, 0.0])
    alone = rate([("me", Rating()), ("h1", hard), ("h2", hard)], [1.0, 0.0, 0.0])
    assert new["hard"].mu == pytest.approx((alone["h1"].mu + alone["h2"].mu) / 2)
    assert new["hard"].games == 11 and set(new) == {"me", "hard"}


def test_what_players_see() -> None:
    assert Rating().to_json() == {"rating": 1500, "deviation": 500, "games": 0,
                                  "provisional": True}
    assert not Rating(1620.4, 120, 50).provisional and Rating(1620.4, 120, 50).shown == 1620
    assert Rating(1600, 100).conservative == 1300
    assert [outcome_word([1, -1], s) for s in (0, 1)] == ["win", "loss"]
    assert outcome_word([0, 0], 1) == "draw" and outcome_word([0.5, 0, 0.5], 2) == "win"
    with pytest.raises(ValueError):
        rate([("a", Rating())], [1.0])


def _finish(room: Room, rng: random.Random, resign: int | None = None) -> None:
    """Play random moves to the end (or let `resign`'s player resign at once)."""
    if resign is not None:
        room.resign(resign)
        return
    while room.status == "playing":
        assert room.state is not None
        room.apply(room.to_move() if not room.state.is_chance_node() else None,
                   rng.choice(room.state.legal_actions()))


def test_the_end_of_a_rated_game_is_stored_with_every_seats_new_rating(
        tmp_path: Path, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(f"sqlite:///{tmp_path / 'r.db'}")
        await store.open()
        ann = await store.add_player("ann", "t-ann")
        bob = await store.add_player("bob", "t-bob")
        for pid in (ann, bob):
            await store.set_password(pid, "argon2-hash-here")
        rng = random.Random(4)
        played = []
        for n in range(3):  # ann and bob, both accounts: rated by default; ann resigns game 1
            room = Room(id=f"r{n}", game_name="testrace", options={"goal": 8}, created_by="ann",
                        seed=n)
            room.join(ann, "ann", None, account=True)
            room.join(bob, "bob", None, account=True)
            await store.save_room(room)
            room.start()
            assert room.rated is True
            _finish(room, rng, resign=ann if n == 1 else None)
            room.ended_at = f"2026-01-01T00:00:0{n}.000+00:00"
            changes = await store.save_room(room, room.moves, finished=True)
            assert changes is not None and [c["player"] for c in changes] == ["ann", "bob"]
            again = await store.save_room(room, (), finished=True)  # a retried commit
            assert again == changes
            played.append((room, changes))
        casual = Room(id="casual", game_name="testrace", options={}, created_by="ann", seed=9,
                      rated=False)
        casual.join(ann, "ann", None, account=True)
        casual.set_bot("random", "random bot", None)
        await store.save_room(casual)
        casual.start()
        _finish(casual, rng)
        casual.ended_at = "2026-01-01T00:00:09.000+00:00"
        assert await store.save_room(casual, casual.moves, finished=True) is None

        room, changes = played[1]
        assert changes[1]["after"] > changes[1]["before"]  # bob won by resignation
        back = await store.load_room(room.id)
        assert back is not None and back.rating_changes == changes
        assert (await store.load_room("casual")).rating_changes is None  # type: ignore[union-attr]
        last = {c["player"]: c["after"] for c in played[-1][1]}
        profile = await store.profile("ANN", 10)
        assert profile is not None and profile["account"] is True
        assert profile["ratings"]["testrace"]["rating"] == last["ann"]
        assert profile["ratings"]["testrace"]["games"] == 3  # the casual game does not count
        assert [g["room"] for g in profile["recent"]] == ["casual", "r2", "r1", "r0"]
        resigned = profile["recent"][2]
        assert resigned["result"] == "loss" and resigned["players"] == ["ann", "bob"]
        assert resigned["rating"] == {"before": changes[0]["before"],
                                      "after": changes[0]["after"]}
        assert profile["recent"][0]["rating"] is None and profile["recent"][0]["rated"] is False
        board = await store.leaderboard("testrace", 10, 0)
        assert {b["nickname"] for b in board} == {"ann", "bob"}  # the random bot: casual only
        assert [b["rank"] for b in board] == [1, 2]
        assert (await store.leaderboard("testrace", 10, 1))[0]["rank"] == 2
        bot = await store.profile("random bot", 5)
        assert bot is not None and bot["bot"] == "random" and bot["ratings"] == {}

        page, cursor = await store.finished_games("testrace", None, None, 2)
        assert [g["room"] for g in page] == ["casual", "r2"] and cursor is not None
        page, cursor = await store.finished_games("testrace", None, cursor, 2)
        assert [g["room"] for g in page] == ["r1", "r0"] and cursor is None
        page, _ = await store.finished_games(None, "bob", None, 10)
        assert [g["room"] for g in page] == ["r2", "r1", "r0"]
        assert page[1]["ended_by"] == "resign" and page[1]["scores"] == [-1.0, 1.0]
        with pytest.raises(UnknownPlayer):
            await store.finished_games(None, "nobody", None, 10)
        await store.close()

    asyncio.run(scenario())


def test_bots_are_rated_per_game_and_level(tmp_path: Path, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(f"sqlite:///{tmp_path / 'b.db'}")
        await store.open()
        ann = await store.add_player("ann", "t")
        rng = random.Random(1)
        for n, spec in enumerate(("random", "mcts:easy", "random")):
            room = Room(id=f"b{n}", game_name="testrace", options={"goal": 6}, created_by="ann",
                        seed=n, rated=True)  # ann is a guest: rated only because the room says
            room.join(ann, "ann", None)
            room.set_bot(spec, f"{spec} bot", None)
            await store.save_room(room)
            room.start()
            assert room.rated is True
            _finish(room, rng)
            room.ended_at = f"2026-01-01T00:00:0{n}.000+00:00"
            assert await store.save_room(room, room.moves, finished=True) is not None
        board = {b["nickname"]: b for b in await store.leaderboard("testrace", 10, 0)}
        assert board["random bot"]["games"] == 2 and board["random bot"]["bot"] == "random"
        assert board["mcts:easy bot"]["games"] == 1 and board["ann"]["games"] == 3
        assert (await store.account("random bot")).bot == "random"  # type: ignore[union-attr]
        await store.close()

    asyncio.run(scenario())


def test_a_guests_game_is_casual_unless_the_room_says_rated(test_games: None) -> None:
    def room(**kw: object) -> Room:
        r = Room(id="x", game_name="testrace", options={}, created_by="ann", seed=1,
                 **kw)  # type: ignore[arg-type]
        r.join(1, "ann", None, account=True)
        r.join(2, "guest", None, account=False)
        return r

    default = room()
    assert default.rated_now is False
    default.start()
    assert default.rated is False
    made = room()
    made.set_rated(True)
    assert made.rated_now is True
    made.start()
    assert made.rated is True and made.snapshot(None, set())["rated"] is True
    bots = Room(id="y", game_name="testrace", options={}, created_by="ann", seed=1, rated=True)
    bots.set_bot("random", "random bot", None)
    bots.set_bot("random", "random bot", None)
    bots.start()
    assert bots.rated is False  # no person at the table: never rated
