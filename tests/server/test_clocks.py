"""Time controls and clock arithmetic over a time source the test sets (no sleeping)."""

from __future__ import annotations

import pytest

from gamehall.server.table.clocks import Clock, ClockError, TimeControl, parse_control


def test_controls_are_read_and_spelled_one_way() -> None:
    assert parse_control("5+3") == TimeControl("5+3", 300_000, 3000)
    assert parse_control(" 0.1 + 0 ") == TimeControl("0.1+0", 6000, 0)
    assert parse_control("2.50+1") == TimeControl("2.5+1", 150_000, 1000)
    assert parse_control("180+180") == TimeControl("180+180", 10_800_000, 180_000)
    assert parse_control("2d") == TimeControl("2d", 2 * 86_400_000, 0, per_turn=True)
    assert parse_control("14D") == TimeControl("14d", 14 * 86_400_000, 0, per_turn=True)
    for untimed in (None, "", "off", "None", " untimed "):
        assert parse_control(untimed) is None


@pytest.mark.parametrize("text", ["0+5", "0.00+1", "181+0", "5+181", "5", "5+", "+3", "5+3.5",
                                  "0.125+0", "0d", "15d", "1.5d", "2 days", "5+-3", "1e3+0",
                                  "５+３", "5+3+1", "x" * 500])
def test_nonsense_controls_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ClockError) as err:
        parse_control(text)
    assert str(err.value) and "Traceback" not in str(err.value)
    assert len(str(err.value)) < 200


def test_not_text_is_refused() -> None:
    with pytest.raises(ClockError):
        parse_control(5)  # type: ignore[arg-type]


def two(text: str = "1+2") -> Clock:
    control = parse_control(text)
    assert control is not None
    return Clock.new(control, 2)


def test_only_the_seat_to_move_pays_and_the_increment_comes_once_per_turn() -> None:
    c = two("1+2")
    assert c.remaining(100.0) == [60_000, 60_000] and c.deadline() is None
    c.advance(100.0, 0, timed=True)  # the game starts: seat 0 to move
    assert c.running == 0 and c.remaining(110.5) == [49_500, 60_000]
    c.advance(110.5, 0, timed=True)  # a step of the same turn (or a chance draw): no change
    c.advance(112.0, 0, timed=True)
    assert c.remaining(112.0) == [48_000, 60_000]
    c.advance(115.0, 1, timed=True)  # the turn passes: 15 s used, 2 s back, once
    assert c.remaining_ms[0] == 47_000 and c.running == 1 and c.since == 115.0
    assert c.remaining(175.0) == [47_000, 0] and c.deadline() == 175.0
    assert not c.expired(174.999) and c.expired(175.0)


def test_a_bots_turn_and_the_time_before_the_start_cost_nothing() -> None:
    c = two("0.5+0")
    c.advance(10.0, 1, timed=False)  # a bot moves first
    assert c.running is None and c.deadline() is None
    assert c.remaining(500.0) == [30_000, 30_000]
    c.advance(500.0, 0, timed=True)  # the bot moved: the person's clock starts now
    assert c.remaining(505.0) == [25_000, 30_000]
    c.advance(505.0, 1, timed=False)
    assert c.remaining(9999.0) == [25_000, 30_000]


def test_a_seat_handed_to_a_bot_mid_turn_stops_its_clock() -> None:
    c = two("1+5")
    c.advance(0.0, 0, timed=True)
    c.advance(20.0, 0, timed=False)  # same turn, now a bot's: charged, no increment
    assert c.running is None and c.remaining_ms == [40_000, 60_000]
    c.advance(30.0, 1, timed=True)
    assert c.remaining_ms == [40_000, 60_000] and c.running == 1


def test_correspondence_gives_each_turn_the_full_time() -> None:
    c = two("2d")
    day = 86_400.0
    c.advance(0.0, 0, timed=True)
    assert c.deadline() == 2 * day
    c.advance(1.5 * day, 1, timed=True)
    assert c.remaining_ms[0] == 2 * 86_400_000, "the next turn starts afresh"
    assert c.deadline() == 3.5 * day
    c.advance(1.5 * day + 60, 1, timed=True)  # a second step of the same turn: same deadline
    assert c.deadline() == 3.5 * day


def test_flag_and_stop() -> None:
    c = two("0.1+0")
    c.advance(0.0, 0, timed=True)
    c.advance(1.0, 1, timed=True)
    assert c.remaining_ms == [5000, 6000] and c.deadline() == 7.0
    assert c.flag(7.25) == 1
    assert c.remaining(8.0) == [5000, 0] and c.running is None and c.flagged == [1]
    d = two("1+10")
    d.advance(0.0, 0, timed=True)
    d.stop(12.0)  # the game ended during seat 0's turn: charged, no increment
    assert d.remaining_ms == [48_000, 60_000] and d.running is None and d.turn is None


def test_a_restart_charges_the_turn_up_to_the_last_sign_of_life_and_not_the_downtime() -> None:
    c = two("1+0")
    c.advance(1000.0, 0, timed=True)
    c.advance(1010.0, 1, timed=True)  # seat 1 to move from 1010
    stored = Clock.from_json(c.control, c.to_json())
    assert stored == c
    stored.resume(now=5000.0, alive_at=1030.0)  # the server died after 1030, back at 5000
    assert stored.remaining(5000.0) == [50_000, 40_000] and stored.since == 5000.0
    assert stored.deadline() == 5040.0
    early = Clock.from_json(c.control, c.to_json())
    early.resume(now=5000.0, alive_at=1005.0)  # last sign of life before this turn began
    assert early.remaining(5000.0) == [50_000, 60_000]
    unknown = Clock.from_json(c.control, c.to_json())
    unknown.resume(now=5000.0, alive_at=None)
    assert unknown.remaining(5000.0) == [50_000, 60_000]


def test_copies_are_independent() -> None:
    c = two()
    c.advance(0.0, 0, timed=True)
    d = c.copy()
    d.advance(5.0, 1, timed=True)
    assert c.running == 0 and c.remaining_ms == [60_000, 60_000]


def test_the_public_object_and_low_time() -> None:
    c = two("0.1+0")
    c.advance(0.0, 0, timed=True)
    assert c.public(2.0) == {"control": "0.1+0", "remaining_ms": [4000, 6000], "running": 0,
                             "low_ms": 10_000}
    big = parse_control("60+0")
    assert big is not None and big.low_ms() == 360_000
