"""Hau La rules: preparations, turns, tags, judging, bonus joints, penalties, the end."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from gamehall.core import IllegalActionError, NotationError, StateFormatError, load_game
from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.data import Preparation, model
from gamehall.games.hau_la.notation import layout
from gamehall.games.hau_la.placements import FIRST, KIND, SECOND, TAG
from gamehall.games.hau_la.turns import HAND, OUT, Table
from tests.games.hau_la.helpers import new_state, play, play_round, touching

M = model()
BJ, SJ, BE, SE = (M.kind_index(c) for c in ("BJ", "SJ", "BE", "SE"))


def total_pieces(t: Table) -> int:
    return (sum(map(sum, t.hands)) + sum(e >= 0 for e in t.extra) + len(t.extras_left)
            + t.stock + len(t.building.pieces))


# --- preparations ----------------------------------------------------------------------------
def test_two_player_preparation() -> None:
    t = new_state(2).table
    assert t.names == ("red", "blue")
    assert t.hands == [[1, 2, 2, 2], [1, 2, 2, 2]]
    assert [x.owner for x in t.tags] == [0, 1, 0, 1]  # red+yellow, blue+orange
    assert all(x.hole == HAND for x in t.tags)
    assert t.stock == 5 and total_pieces(t) == 22
    assert t.order == [0, 1, 0, 1]  # two turns each before the first judging


def test_three_player_preparation_and_first_turn_pieces() -> None:
    state = new_state(3)
    t = state.table
    assert t.phase == "extras" and t.placer == 0
    assert t.hands == [[1, 1, 1, 1]] * 3 and t.stock == 4 and total_pieces(t) == 22
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "take SJ", "take BE", "take SE"]
    state.apply_action(state.string_to_action("take BE"))
    assert state.current_player() == 1
    state.apply_action(state.string_to_action("take SE"))
    # the last piece goes to the third player without a choice; round 1 starts
    assert t.extra == [BE, SE, SJ] and t.phase == "place" and t.placer == 0
    assert t.pending[KIND] == BE  # the first turn must use the first-turn piece
    play(state)
    assert t.extra[0] == -1 and t.hands[0] == [1, 1, 1, 1]
    assert t.pending[KIND] == SE and t.placer == 1


def test_four_player_preparation() -> None:
    t = new_state(4).table
    assert t.hands == [[1, 1, 1, 1]] * 4 and t.stock == 3 and total_pieces(t) == 22
    assert [x.owner for x in t.tags] == [0, 1, 2, 3]
    assert load_game("hau_la").seat_names == ("red", "blue")  # 2 players by default


# --- turns and tags --------------------------------------------------------------------------
def test_first_turn_tag_goes_on_the_new_piece_then_moves_with_it() -> None:
    state = new_state(4, seed=1)
    t = state.table
    play(state)
    red = t.tags[0]
    piece = t.building.pieces[-1]
    assert piece.placer == 0 and piece.first_hole <= red.hole < piece.first_hole + 3
    play_round(state)
    assert t.phase == "bonus"
    play(state)  # bonus joint: the topmost starts round 2
    start = t.order[0]
    assert t.ranking[0] == start
    tag_hole = next(x.hole for x in t.tags if x.owner == start)
    if KIND not in t.pending:
        state.apply_action(state.legal_actions()[0])
    assert t.pending[FIRST] == tag_hole  # forced: the hole the tag came out of
    play(state)
    new = t.building.pieces[-1]
    assert tag_hole in new.plan.holes
    moved = next(x.hole for x in t.tags if x.owner == start)
    assert new.first_hole <= moved < new.first_hole + len(new.hole_pos)


def test_two_player_double_tag_joint_puts_one_tag_out() -> None:
    def both_tags(row, touch, t: Table) -> bool:  # noqa: ANN001
        mine = {x.hole for x in t.tags if x.owner == t.placer}
        return not touch and M.kinds[int(row[KIND])].is_joint and {
            int(row[FIRST]), int(row[SECOND])} == mine

    for seed in range(30):
        state = new_state(2, seed)
        t = state.table
        rng = random.Random(seed)
        while t.phase != "over":
            fresh = t.placements is not None and len(t.rows) == len(t.placements)
            if t.phase == "place" and fresh and t.round > 1 and any(
                    both_tags(t.placements.rows[i], bool(t.placements.touch[i]), t)
                    for i in t.rows):
                seat = t.placer
                holes = {x.hole for x in t.tags if x.owner == seat}
                play(state, both_tags)
                mine = [x for x in t.tags if x.owner == seat]
                assert sorted(x.hole == OUT for x in mine) == [False, True]
                kept = next(x for x in mine if x.hole >= 0)
                assert kept.hole >= t.building.pieces[-1].first_hole
                assert set(t.building.pieces[-1].plan.holes) == holes
                return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no game offered a joint between both of a player's tags")


def test_two_player_first_judging_after_both_placed_both_tags() -> None:
    state = new_state(2, seed=3)
    t = state.table
    for turn in range(4):
        assert t.round == 1 and t.placer == turn % 2
        play(state)
    assert all(x.hole >= 0 for x in t.tags)
    assert t.phase == "bonus" and t.ranking
    play(state)
    assert t.round == 2 and len(t.order) == 2  # then one piece each per round


def test_occupied_holes_are_not_offered() -> None:
    state = new_state(4, seed=2)
    t = state.table
    play(state)
    state.apply_action(state.legal_actions()[0])  # blue's kind (or first hole)
    taken = set(t.occupant())
    lay = layout(M)
    for a in state.legal_actions():
        if lay["hole"] <= a < lay["rot"]:
            assert a - lay["hole"] not in taken
    red_tag = t.tags[0].hole
    with pytest.raises(IllegalActionError):
        state.apply_action(lay["hole"] + red_tag)


# --- judging -----------------------------------------------------------------------------------
def test_heights_and_judging_order_with_ties() -> None:
    t = new_state(4).table
    b = t.building
    left, right, top = b.hole_id("1a"), b.hole_id("1c"), b.hole_id("3c")
    t.tags[0].hole, t.tags[1].hole, t.tags[2].hole = left, right, top  # red, blue, yellow
    heights = t.heights()
    assert heights[0] == heights[1]  # mirror-image holes of the arch: an exact tie
    assert heights[2] == pytest.approx(7.71 + 0.85 * b.axis[top][2], abs=0.01)
    assert heights[3] is None
    t.order = [1, 2, 3, 0]
    assert t.live_ranking() == [2, 1, 0, 3]  # blue before red: earlier in this round's order
    t.order = [0, 1, 2, 3]
    assert t.live_ranking() == [2, 0, 1, 3]


def test_round_ends_with_judging_then_bonus_by_topmost() -> None:
    state = new_state(4, seed=5)
    t = state.table
    play_round(state)
    heights = t.heights()
    expected = sorted(range(4), key=lambda s: (-(heights[s] or -1e9), t.order.index(s)))
    assert t.ranking == expected
    assert t.phase == "bonus" and t.placer == t.ranking[0] and t.stock == 2


# --- bonus joints --------------------------------------------------------------------------------
def test_bonus_joint_one_board_hole_one_piece_hole_no_tag() -> None:
    state = new_state(4, seed=6)
    t = state.table
    play_round(state)
    found = t.placements
    board = t.building.n_board
    assert ((found.rows[:, FIRST] < board) != (found.rows[:, SECOND] < board)).all()
    assert (found.rows[:, KIND] == BJ).all() and (found.rows[:, TAG] == -1).all()
    top = t.placer
    tags_before = [(x.hole, x.face) for x in t.tags]
    play(state)
    piece = t.building.pieces[-1]
    assert piece.bonus and piece.placer == top and piece.plan.kind == BJ
    assert [(x.hole, x.face) for x in t.tags] == tags_before
    assert t.order[0] == top and t.round == 2


def test_touching_bonus_joint_goes_to_second_highest() -> None:
    for seed in range(10):
        state = new_state(4, seed)
        t = state.table
        play_round(state)
        if not t.placements.touch[t.rows].any():
            continue
        first, second = t.ranking[0], t.ranking[1]
        before = len(t.building.pieces)
        play(state, touching)
        assert len(t.building.pieces) == before  # removed
        assert t.phase == "bonus_handover" and t.placer == second
        assert "tag" not in [state.action_to_string(a)[:3] for a in state.legal_actions()]
        play(state)
        assert t.building.pieces[-1].bonus and t.building.pieces[-1].placer == second
        assert t.order[0] == first  # the start player does not change
        return
    pytest.fail("no touching bonus joint found")


# --- penalties ---------------------------------------------------------------------------------
def test_touch_reverts_and_goes_to_topmost_who_places_at_once() -> None:
    for seed in range(10):
        state = new_state(4, seed)
        t = state.table
        play(state)  # red: now the only (so topmost) tag
        if not t.placements.touch[t.rows].any():
            continue
        pieces = len(t.building.pieces)
        hand = sum(t.hands[1])
        row, touch = play(state, touching)  # blue touches
        assert touch and len(t.building.pieces) == pieces
        assert sum(t.hands[1]) == hand - 1 and t.tags[1].hole == HAND
        assert t.phase == "handover" and t.placer == 0 and t.kind == row[KIND]
        assert (t.placements.rows[:, TAG] == -1).all()
        play(state)
        placed = t.building.pieces[-1]
        assert placed.placer == 0 and placed.plan.kind == row[KIND] and not placed.bonus
        assert t.phase == "place" and t.placer == 2  # play continues after the culprit
        return
    pytest.fail("no touching placement found")


def test_culprit_topmost_hands_over_to_second_and_double_touch_discards() -> None:
    for seed in range(20):
        state = new_state(4, seed)
        t = state.table
        play_round(state)
        play(state)  # bonus
        top = t.placer
        assert t.live_ranking()[0] == top
        if not t.placements.touch[t.rows].any():
            continue
        second = t.live_ranking()[1]
        tag_before = [(x.hole, x.face) for x in t.tags]
        play(state, touching)
        assert t.phase == "handover" and t.placer == second
        assert [(x.hole, x.face) for x in t.tags] == tag_before  # the tag went back
        if not t.placements.touch[t.rows].any():
            continue
        pieces = len(t.building.pieces)
        play(state, touching)  # touches too: the piece leaves the game
        assert len(t.building.pieces) == pieces
        assert "touched too: the piece leaves the game" in t.events[-1].text
        assert t.phase == "place" and t.placer == t.order[1]
        return
    pytest.fail("no double touch found")


# --- the end -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_when_all_pieces_are_used(players: int) -> None:
    used_up = 0
    for seed in range(4):
        state = new_state(players, seed=seed)
        t = state.table
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if "every piece has been placed" in t.events[-1].text:
            assert all(t.in_hand(s) == 0 for s in range(players))
            used_up += 1
        else:  # the rare other end: a player's pieces fit nowhere, and a whole round passed
            assert "a whole round passed" in t.events[-1].text and "passes" in t.events[-2].text
        returns = state.returns()
        assert sorted(returns) == [0.0] * (players - 1) + [1.0]
        assert returns[t.ranking[0]] == 1.0 and t.ranking == t.live_ranking()
        assert len(t.building.pieces) <= 22
    assert used_up >= 2


def test_pass_when_nothing_fits_and_end_when_a_round_passes() -> None:
    far = dataclasses.replace(M, board=((0.0, 0.0), (20.0, 0.0)), start=(), preparations={
        2: Preparation(hand=(0, 1, 0, 0), tag_owners=(0, 1, 0, 1), extras=())})
    t = Table.new(far, 2, ("red", "blue"), Building(far, ()))
    # a small joint needs two holes 2.4..7.6 apart: the two board holes are 20 apart
    assert t.phase == "over" and t.hands == [[0, 1, 0, 0]] * 2
    assert sum("passes" in e.text for e in t.events) == 4
    assert "a whole round passed" in t.events[-1].text


# --- data ---------------------------------------------------------------------------------
def test_json_round_trip_mid_placement_with_ghosts() -> None:
    state = new_state(3, seed=4)
    game = state.game
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    while state.table.step() != 4:  # play up to the plug-sides step
        state.apply_action(state.legal_actions()[-1])
    data = state.to_json()
    assert data["pending"]["step"] == "sides" and data["pending"]["ghosts"]
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.legal_actions() == state.legal_actions()


def test_view_carries_the_building_for_a_renderer() -> None:
    state = new_state(2, seed=1)
    play(state)
    view = state.view(1)
    piece = view["pieces"][-1]
    assert piece["placer"] == "red" and piece["radius"] == M.r
    assert len(piece["points"]) >= 10 and len(piece["points"][0]) == 3
    hole = piece["holes"][0]
    assert set(hole) == {"id", "name", "position", "axis", "occupant"}
    tag = next(x for x in view["tags"] if x["colour"] == "red")
    assert tag["owner"] == "red" and len(tag["position"]) == 3 and tag["height"] > 0
    assert view["ranking"][0] == "red" and view["viewer"] == "blue"
    assert len(view["board"]["holes"]) == 10


def test_text_and_svg_views() -> None:
    state = new_state(4, seed=2)
    play(state)
    text = state.game.render_text(state, None)
    assert "Free holes" in text and "Side view" in text and "height" in text
    svg = state.game.render_svg(state)
    assert svg.startswith("<svg") and svg.count("<polyline") >= 2 * 4


def test_malformed_states_are_refused() -> None:
    state = new_state(2, seed=1)
    play(state)
    game = state.game
    data = state.to_json()
    bad = json.loads(json.dumps(data))
    bad["tags"][1] = {**bad["tags"][0], "colour": "blue"}  # two tags in one hole
    with pytest.raises(StateFormatError):
        game.state_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["pieces"][-1]["plugs"][0]["hole"] = "g1"  # already holds the start arch
    with pytest.raises(StateFormatError):
        game.state_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["pending"] = {"kind": "BJ", "first": "1b"}
    with pytest.raises(StateFormatError):
        game.state_from_json(bad)


def test_pending_names_each_step() -> None:
    state = new_state(4, seed=3)
    seen = []
    while state.table.phase == "place" and len(seen) < 8:
        seen.append(state.to_json()["pending"]["step"])
        state.apply_action(state.legal_actions()[-1])
    assert seen[:2] == ["kind", "first"] and set(seen) <= {
        "kind", "first", "second", "rotation", "sides", "tag"}


def test_json_round_trip_at_bonus_and_hand_over() -> None:
    state = new_state(4, seed=5)
    play_round(state)
    for phase in ("bonus", "handover"):
        if phase == "handover":
            play(state)  # the bonus joint
            play(state, touching)
        assert state.table.phase == phase
        data = state.to_json()
        again = state.game.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data and again.legal_actions() == state.legal_actions()


def test_typed_occupied_hole_says_what_holds_it() -> None:
    state = new_state(4, seed=2)
    t = state.table
    state.apply_action(state.string_to_action("BE"))
    assert t.step() == FIRST
    with pytest.raises(NotationError, match=r"g1 is occupied \(plug 1\)"):
        state.string_to_action("g1")
    with pytest.raises(NotationError, match=r"zz is not a legal move here \(choose the first"):
        state.string_to_action("zz")


def test_compact_step_status_only_inside_a_placement() -> None:
    state = new_state(3, seed=4)
    game = state.game
    state.apply_action(state.string_to_action("take BE"))
    state.apply_action(state.string_to_action("take SJ"))
    assert game.render_step(state, 0) is None  # red's placement starts: the whole view is due
    state.apply_action(state.string_to_action("3c"))
    line = game.render_step(state, 0)
    assert line is not None and "\n" not in line
    assert "big end, from 3c" in line and "now choose a rotation: r0 r45 r90 r135" in line
    while state.current_player() == 0:
        state.apply_action(state.legal_actions()[0])
    assert game.render_step(state, 1) is None  # blue's placement has not begun


@pytest.mark.parametrize(("culprit", "receiver"), [("yellow", "blue"), ("blue", "yellow")])
def test_hand_over_follows_live_heights_not_seat_order(culprit: str, receiver: str) -> None:
    # red 1a (3.3), blue 3c (8.5), yellow 3b (6.2), orange none: blue is topmost, yellow second,
    # red is first in this round's order. A touch goes to blue, or to yellow when blue is culprit.
    state = new_state(4, seed=0)
    data = state.to_json()
    for tag, hole in zip(data["tags"], ["1a", "3c", "3b"], strict=False):
        tag.update(state="board", hole=hole, face="u")
    data.update(turn=["red", "blue", "yellow", "orange"].index(culprit), to_move=culprit,
                pending={})
    state = state.game.state_from_json(data)
    t = state.table
    assert [t.names[s] for s in t.live_ranking()] == ["blue", "yellow", "red", "orange"]
    play(state, touching)
    assert t.phase == "handover" and t.names[t.placer] == receiver
    assert t.names[t.culprit] == culprit
