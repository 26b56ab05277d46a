"""Games that end, in the pure room model: clocks over a time the test sets, leaving is resigning,
dropping out of a game of three, claims against an absent player, and rematches."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.server.table.room import FINISHED, PLAYING, WAITING, Room
from gamehall.server.table.room_facts import OUT_BOT, Occupant
from tests.server.test_rooms import refused


@pytest.fixture(autouse=True)
def _games(test_games: None) -> None:
    """Every test here needs the small test games registered."""


def table(game: str = "testline", clock: str | None = None, people: int = 2,
          **options: object) -> Room:
    """A started room with `people` persons (player ids 1, 2, …) and bots in the other seats."""
    r = Room(id="r1", game_name=game, options=dict(options), created_by="p1", seed=99)
    r.set_clock(clock)
    for i in range(r.game.num_players):
        if i < people:
            r.join(i + 1, f"p{i + 1}", None)
        else:
            r.set_bot("random", "random bot", None)
    r.start()
    r.settle_clock(0.0)
    return r


def play(r: Room, move: str, at: float) -> None:
    """The seat to move plays `move` (notation) at time `at`, as the hall does it."""
    seat = r.to_move()
    assert seat is not None and r.state is not None
    r.apply(seat, r.state.string_to_action(move))
    r.settle_clock(at)


def test_the_clock_runs_for_the_seat_to_move_and_shows_in_every_state() -> None:
    r = table(clock="0.5+2")
    assert r.clock_json(0.0) == {"control": "0.5+2", "remaining_ms": [30_000, 30_000],
                                 "running": 0, "low_ms": 10_000}
    play(r, "a1", 4.0)
    assert r.clock_json(10.0)["remaining_ms"] == [28_000, 24_000]
    assert r.clock_json(10.0)["running"] == 1
    state = json.loads(r.render(0, set(), now=10.0))
    assert state == r.snapshot(0, set(), now=10.0)
    assert state["clock"]["remaining_ms"] == [28_000, 24_000] and state["absent"] is None
    untimed = table()
    assert untimed.clock_json(5.0) is None and json.loads(untimed.render(None, set()))[
        "clock"] is None


def test_a_waiting_room_shows_its_control_and_nonsense_is_refused() -> None:
    r = Room(id="r2", game_name="testline", options={}, created_by="p1", seed=1)
    assert r.set_clock("2d") is not None and r.summary()["clock"] == {
        "control": "2d", "remaining_ms": [172_800_000] * 2, "running": None,
        "low_ms": 17_280_000}
    refused("bad_clock", r.set_clock, "forever")
    assert r.time_control is not None and r.time_control.text == "2d"
    assert r.set_clock("off") is None and r.clock_json(0.0) is None
    r.join(1, "p1", None)
    r.join(2, "p2", None)
    r.start()
    refused("already_started", r.set_clock, "5+0")


def test_the_steps_of_one_turn_get_one_increment() -> None:
    """Haugaz turns have several steps by one seat: the increment comes once per turn, however
    many steps it has."""
    r = table("haugaz", clock="1+1", size=6)
    rng = random.Random(3)
    t, turns, steps = 0.0, 0, 0
    while r.status == PLAYING and turns < 12:
        seat = r.to_move()
        assert seat is not None and r.state is not None and r.clock is not None
        before = r.clock.remaining_ms[seat]
        t += 1.0
        r.apply(seat, rng.choice(r.state.legal_actions()))
        r.settle_clock(t)
        steps += 1
        if r.to_move() != seat:  # the turn passed: one second used, one second back
            turns += 1
            assert r.clock.remaining_ms[seat] == before + 1000 - 1000 * _steps_in_turn(r, seat)
    assert steps > turns, "no multi-step turn was played"


def _steps_in_turn(r: Room, seat: int) -> int:
    """How many actions `seat` played in a row at the end of the move list."""
    n = 0
    for m in reversed(r.moves):
        if m.seat != seat:
            break
        n += 1
    return n


def test_time_running_out_ends_a_two_player_game() -> None:
    r = table(clock="0.1+0")
    play(r, "a1", 2.0)
    assert not r.time_is_up(7.999) and r.time_is_up(8.0)
    assert r.time_out(8.0) == 1
    assert r.status == FINISHED and r.ended_by == "time" and r.result == [1.0, -1.0]
    assert r.outcome == "p2 ran out of time: p1 wins"  # names, not seat labels
    assert r.clock_json(50.0) == {"control": "0.1+0", "remaining_ms": [4000, 0],
                                  "running": None, "low_ms": 10_000}
    assert not r.time_is_up(100.0)


def test_bots_never_run_out_of_time() -> None:
    r = table(clock="0.1+0", people=1)
    play(r, "a1", 1.0)
    assert r.bot_to_move() == "random" and r.clock is not None and r.clock.deadline() is None
    assert not r.time_is_up(10_000.0)


def test_in_a_game_of_three_a_seat_out_of_time_is_played_by_a_bot_and_ranks_last() -> None:
    r = table("testtrio", clock="0.1+0", people=3)
    play(r, "3", 1.0)  # north 3
    assert r.time_is_up(7.0) and r.time_out(7.0) == 1  # east's time runs out
    assert r.status == PLAYING and r.seats[1] is not None and r.seats[1].out == "time"
    assert r.bot_to_move() == OUT_BOT and r.clock is not None and r.clock.running is None
    refused("out_of_game", r.check_move, 2, "3", r.version)
    seats = r.seats_json(set())
    assert seats[1]["out"] == "time" and seats[1]["player"] == "p2"
    play(r, "3", 7.0)  # the bot plays east's turn: south's clock starts
    assert r.clock.running == 2
    for move in ("3", "3", "1", "3", "3", "1", "1"):  # north 9, east 5 (bot), south 7
        play(r, move, 8.0)
    assert r.status == FINISHED and r.ended_by == "rules" and r.result == [1.0, 0.0, 0.0]
    assert "p2 dropped out and ranks last" in (r.outcome or "")


def test_a_dropped_winner_hands_the_win_to_the_best_still_in() -> None:
    """The rules' result ranks only the winners here (as in Hau La): when the dropped seat was
    the only winner, every seat still in shares its point."""
    r = table("testtrio", clock="0.1+0", people=3)
    play(r, "1", 1.0)
    r.time_out(7.0)  # east is out; its bot will win on points
    for move in ("3", "1", "1", "3", "1", "1", "3", "2"):  # north 3, east 9, south 4
        play(r, move, 7.0)
    assert r.status == FINISHED and r.result == [0.5, 0.0, 0.5]
    assert r.outcome == "p1 and p3 win (p2 dropped out and ranks last)"
    tie = table("testtrio", clock="0.1+0", people=3)
    play(tie, "3", 1.0)
    tie.time_out(7.0)
    for move in ("3", "2", "3", "3", "2", "3", "3", "2"):  # north 9, east 9, south 6
        play(tie, move, 7.0)
    assert tie.result == [1.0, 0.0, 0.0], "east's half of the shared win goes to north"


def test_when_one_seat_is_left_the_game_ends_on_time() -> None:
    r = table("testtrio", clock="0.1+0", people=3)
    r.time_out(6.0)  # north
    play(r, "1", 6.0)  # north's bot
    r.time_out(12.0)  # east: only south is left
    assert r.status == FINISHED and r.ended_by == "time" and r.result == [0.0, 0.0, 1.0]
    assert r.outcome == "p2 ran out of time: p3 wins"


def test_resigning_after_a_seat_dropped_out_counts_both_as_losers() -> None:
    r = table("testtrio", clock="0.1+0", people=3)
    r.time_out(6.0)
    refused("out_of_game", r.resign, 1)
    r.resign(2)
    assert r.result == [0.0, 0.0, 1.0] and r.ended_by == "resign"


def test_leaving_a_running_game_is_resigning_and_leaves_no_empty_seat() -> None:
    r = table()
    assert r.leave(1, None) == 0
    assert r.status == FINISHED and r.ended_by == "resign" and r.result == [-1.0, 1.0]
    assert all(s is not None for s in r.seats)
    w = Room(id="r3", game_name="testline", options={}, created_by="p1", seed=1)
    w.join(1, "p1", None)
    assert w.leave(1, None) == 0 and w.seats == [None, None] and w.status == WAITING


def test_a_claim_against_the_absent_seat_ends_a_game_of_two() -> None:
    r = table()
    refused("not_absent", r.claim, 1, 0)
    refused("not_seated", r.claim, 7, 0)
    r.claim(2, 0)
    assert r.status == FINISHED and r.ended_by == "claim" and r.result == [-1.0, 1.0]
    assert r.outcome == "p1 was away too long: p2 wins"
    timed = table(clock="5+0")
    refused("clock_decides", timed.claim, 2, 0)


def test_an_absent_seat_handed_to_a_bot_plays_on() -> None:
    r = table()
    r.hand_to_bot(2, 0, "mcts:easy", "mcts:easy bot")
    assert r.seats[0] == Occupant("mcts:easy bot", bot="mcts:easy")
    assert r.bot_to_move() == "mcts:easy" and r.status == PLAYING


def test_a_rematch_starts_once_every_person_who_played_asks() -> None:
    r = table("testtrio", people=2)  # p1 north, p2 east, a bot south
    refused("not_finished", r.ask_rematch, 1)
    r.resign(1)
    refused("not_seated", r.ask_rematch, 9)
    assert r.ask_rematch(1) is False
    assert r.ask_rematch(1) is False, "asking twice is asking once"
    assert [s["rematch"] for s in r.seats_json(set())] == [True, False, False]
    assert r.ask_rematch(2) is True and r.rematch_agreed()
    assert r.seats[1] is not None
    r.seats[1].account = True
    seats = r.rematch_seats()
    assert seats[2] is not None and seats[2].account, "an account stays an account"
    assert [s.nickname if s else None for s in seats] == ["random bot", "p1", "p2"]
    assert all(s is not None and not s.rematch and not s.out for s in seats)
    r.rematch = "r9"
    refused("rematch_started", r.ask_rematch, 1)


def test_clock_state_and_drop_outs_survive_the_seats_json() -> None:
    occ = Occupant("p1", 1, None, out="time", rematch=True)
    assert Occupant.from_json(occ.to_json()) == occ
    assert Occupant.from_json({"nickname": "p2", "player_id": 2, "bot": None}) == \
        Occupant("p2", 2)


def test_hau_la_for_three_plays_on_without_a_seat_out_of_time() -> None:
    """The real game: red's clock runs out first, a bot plays red to the end, and the one
    point Hau La shares goes to the seats still in."""
    r = table("hau_la", clock="0.1+0", people=3, players=3)
    assert r.time_is_up(6.0) and r.time_out(6.0) == 0 and r.status == PLAYING
    rng = random.Random(5)
    while r.status == PLAYING:
        seat = r.to_move()
        assert seat is not None and r.state is not None
        if seat == 0:
            assert r.bot_to_move() == OUT_BOT
        r.apply(seat, rng.choice(r.state.legal_actions()))
        r.resolve_chance(rng)
        r.settle_clock(6.0)
    assert r.ended_by == "rules" and r.result is not None and r.result[0] == 0.0
    assert abs(sum(r.result) - 1.0) < 1e-9
    assert "p1 dropped out and ranks last" in (r.outcome or "")


def test_sentences_name_the_players_and_seats_only_where_a_name_is_shared() -> None:
    """The server's sentences about a seat use its player's nickname; two bots of one name are
    told apart by their seats; an empty seat is its seat's name."""
    r = table(people=1)  # p1 against the random bot
    assert [r.person(0), r.person(1)] == ["p1", "random bot"]
    r.resign(1)
    assert r.outcome == "p1 resigned: random bot wins" and r.ended_by == "resign"
    bots = Room(id="r9", game_name="testline", options={}, created_by="p1", seed=1)
    bots.set_bot("random", "random bot", None)
    bots.set_bot("random", "random bot", None)
    assert [bots.person(0), bots.person(1)] == ["random bot (x)", "random bot (o)"]
    empty = Room(id="r8", game_name="testline", options={}, created_by="p1", seed=1)
    assert empty.person(0) == "x"
