"""Growth: every stack exactly h points away on the eight lines grows by one piece that flips its
owner (or, with grow_colour=mover_opponent, a piece of the mover's opponent's colour)."""

from __future__ import annotations

from tests.games.haugaz.helpers import B, W, play, position, stack

# Black's stack d2 (height 2) moves north to d4; the eight points at distance 2 on the lines
# are d6 f6 f4 f2 d2(vacated) b2 b4 b6. Other points of the same ring (e6 c6 f5 f3 b5 b3 c2 e2),
# points on the lines at distance 1 (d5 e5) and 3 (d7) must not grow.
LINES = {"d6": [B], "f6": [W], "f4": [B, W], "f2": [W], "b2": [B], "b6": [W]}
RING = {"e6": [W], "c6": [B], "f5": [W], "f3": [B], "b5": [B], "b3": [W], "c2": [B], "e2": [W]}
OTHER = {"d5": [W], "e5": [B], "d7": [W]}


def _turn(**options: object):  # noqa: ANN202 - a HaugazState
    state = position({"d2": [W, B], **LINES, **RING, **OTHER}, **options)
    return play(state, "b4", "d2-d4")


def test_growth_hits_exactly_the_eight_lines_at_distance_h_and_flips() -> None:
    state = _turn()
    assert stack(state, "d4") == [W, B] and stack(state, "d2") == []
    for point, pieces in LINES.items():
        flipped = W if pieces[-1] == B else B
        assert stack(state, point) == [*pieces, flipped], point
    for point, pieces in {**RING, **OTHER}.items():
        assert stack(state, point) == pieces, point


def test_growth_includes_the_stack_placed_this_turn() -> None:
    state = _turn()
    assert stack(state, "b4") == [B, W]  # placed by Black, now White's


def test_grow_colour_mover_opponent_always_adds_the_opponents_colour() -> None:
    state = _turn(grow_colour="mover_opponent")
    for point, pieces in LINES.items():
        assert stack(state, point) == [*pieces, W], point
    assert stack(state, "b4") == [B, W]
    for point, pieces in RING.items():
        assert stack(state, point) == pieces, point


def test_growth_uses_the_moved_stacks_height() -> None:
    # A height-1 stack grows its eight neighbours only.
    state = position({"c3": [B], "c5": [W], "e5": [B], "e4": [W], "a1": [W]})
    play(state, "h8", "c3-d4")
    assert stack(state, "c5") == [W, B]  # north-west neighbour of d4
    assert stack(state, "e5") == [B, W]  # north-east neighbour
    assert stack(state, "e4") == [W, B]  # east neighbour
    assert stack(state, "a1") == [W]  # three away
    assert state.to_json()["to_move"] == "white"


def test_growth_ignores_blocking_and_stacks_in_between() -> None:
    state = position({"d2": [W, B], "d5": [W], "d6": [B], "h8": [W]}, blocking=True)
    play(state, "a8", "d2-d4")
    assert stack(state, "d6") == [B, W] and stack(state, "d5") == [W]
