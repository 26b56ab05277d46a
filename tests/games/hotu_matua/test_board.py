"""The shipped board meets every requirement of the rules file; bad board files are refused with
a message naming the problem; a good custom board file plays."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from gamehall.core import InvalidOptionError, load_game
from gamehall.games.hotu_matua.board import BoardError, load_board, parse_board

RAW: dict[str, Any] = json.loads(
    resources.files("gamehall.games.hotu_matua").joinpath("board.json").read_text())
BOARD = parse_board(RAW)


def _area(poly: list[list[float]]) -> float:
    return sum(poly[i][0] * poly[(i + 1) % 4][1] - poly[(i + 1) % 4][0] * poly[i][1]
               for i in range(4)) / 2


def _angles(poly: list[list[float]]) -> list[float]:
    out = []
    for k in range(4):
        p, q, s = poly[k - 1], poly[k], poly[(k + 1) % 4]
        a1 = math.atan2(p[1] - q[1], p[0] - q[0])
        a2 = math.atan2(s[1] - q[1], s[0] - q[0])
        out.append(math.degrees((a1 - a2) % (2 * math.pi)))
    return out


def _around() -> dict[str, list[int]]:
    around: dict[str, list[int]] = {f["id"]: [] for f in RAW["fields"]}
    for line in RAW["lines"]:
        for f in line["fields"]:
            around[f].append(line["number"])
    return around


def _centre(fid: str) -> tuple[float, float]:
    poly = next(f["polygon"] for f in RAW["fields"] if f["id"] == fid)
    return sum(p[0] for p in poly) / 4, sum(p[1] for p in poly) / 4


# --- the shipped board ----------------------------------------------------------------------------

def test_a_rectangle_of_40_to_60_four_sided_fields() -> None:
    fields = RAW["fields"]
    assert 40 <= len(fields) <= 60
    assert all(len(f["polygon"]) == 4 for f in fields)
    x0, y0, x1, y1 = BOARD.size
    # the fields tile the rectangle: no dent, no overlap (areas add up), nothing outside
    assert all(max(_angles(f["polygon"])) < 180 for f in fields)
    assert math.isclose(sum(abs(_area(f["polygon"])) for f in fields), (x1 - x0) * (y1 - y0))
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for f in fields for x, y in f["polygon"])


def test_fields_are_skewed_most_almost_triangular() -> None:
    angles = [_angles(f["polygon"]) for f in RAW["fields"]]
    assert sum(max(a) >= 140 for a in angles) >= len(angles) // 2
    assert sum(max(a) - min(a) > 20 for a in angles) >= 0.9 * len(angles)


def test_every_line_numbered_1_to_4_about_equally_often() -> None:
    counts = Counter(line["number"] for line in RAW["lines"])
    assert set(counts) == {1, 2, 3, 4}
    mean = len(RAW["lines"]) / 4
    assert all(abs(n - mean) <= 3 for n in counts.values()), counts


def test_all_four_numbers_around_each_field_where_possible() -> None:
    # Exceptions allowed: start fields (only 1 and 4 may leave them) and the centre field, which
    # is its own half-turn image, so its opposite sides carry equal numbers.
    starts = set(RAW["start"]["north"]) | set(RAW["start"]["south"])
    centre = [f for i, f in enumerate(BOARD.ids) if BOARD.image[i] == i]
    assert len(centre) == 1
    for fid, numbers in _around().items():
        if fid in starts or fid == centre[0]:
            continue
        assert len(set(numbers)) == len(numbers), f"{fid}: {numbers}"
        if len(numbers) == 4:
            assert sorted(numbers) == [1, 2, 3, 4]


def test_four_start_fields_per_player_on_their_short_edge() -> None:
    x0, y0, x1, y1 = BOARD.size
    assert y1 - y0 > x1 - x0, "north and south sit at the short edges"
    for seat, edge in (("north", y0), ("south", y1)):
        fields = RAW["start"][seat]
        assert len(set(fields)) == 4
        for fid in fields:
            poly = next(f["polygon"] for f in RAW["fields"] if f["id"] == fid)
            assert sum(1 for _, y in poly if y == edge) == 2, f"{fid} lies on the {seat} edge"


def test_every_line_leaving_a_start_field_is_numbered_1_or_4() -> None:
    starts = set(RAW["start"]["north"]) | set(RAW["start"]["south"])
    leaving = [line for line in RAW["lines"] if set(line["fields"]) & starts]
    assert len(leaving) >= 8
    assert all(line["number"] in (1, 4) for line in leaving)


def test_five_pearl_fields_in_the_middle_band() -> None:
    _, y0, _, y1 = BOARD.size
    third = (y1 - y0) / 3
    assert len(set(RAW["pearls"])) == 5
    for fid in RAW["pearls"]:
        assert y0 + third < _centre(fid)[1] < y1 - third


def test_symmetric_under_a_half_turn_numbers_included() -> None:
    x0, y0, x1, y1 = BOARD.size
    by_corners = {frozenset(map(tuple, f["polygon"])): f["id"] for f in RAW["fields"]}
    turn = {}
    for f in RAW["fields"]:
        turned = frozenset((x0 + x1 - x, y0 + y1 - y) for x, y in f["polygon"])
        turn[f["id"]] = by_corners[turned]  # exact: the same corners, turned
    numbers = {frozenset(line["fields"]): line["number"] for line in RAW["lines"]}
    for pair, n in numbers.items():
        assert numbers[frozenset(turn[f] for f in pair)] == n
    assert {turn[f] for f in RAW["start"]["north"]} == set(RAW["start"]["south"])
    assert {turn[f] for f in RAW["pearls"]} == set(RAW["pearls"])


def test_every_line_lies_on_the_side_its_fields_share() -> None:
    corners = {f["id"]: [tuple(p) for p in f["polygon"]] for f in RAW["fields"]}
    for line in RAW["lines"]:
        a, b = (set(corners[f]) for f in line["fields"])
        assert len(a & b) == 2, line
    # and every shared side carries a line (the sea has no unnumbered border inside)
    pairs = {frozenset(line["fields"]) for line in RAW["lines"]}
    ids = list(corners)
    for i, f in enumerate(ids):
        for g in ids[i + 1:]:
            if len(set(corners[f]) & set(corners[g])) == 2:
                assert frozenset((f, g)) in pairs


def test_board_loads_with_a_grid_for_the_text_map() -> None:
    assert BOARD.grid is not None and BOARD.num_fields == 55
    assert load_board("") is load_board("default")


@pytest.mark.slow
def test_make_board_writes_the_shipped_file() -> None:
    from tools import hotu_matua_board

    assert hotu_matua_board.dump(hotu_matua_board.build()) == hotu_matua_board.OUT.read_text()


# --- bad board files ------------------------------------------------------------------------------

def _write(tmp_path: Path, data: object, name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(RAW)
    change(data)
    return data


def _line(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(x for x in data["lines"] if set(x["fields"]) == {a, b})


BAD = [
    ("unknown field", lambda d: _line(d, "f7", "f8")["fields"].__setitem__(1, "f99"),
     "line 12 names an unknown field 'f99'"),
    ("side numbered 5", lambda d: _line(d, "f7", "f8").__setitem__("number", 5),
     "line f7-f8 is numbered 5; a line carries 1, 2, 3 or 4"),
    ("side numbered 0", lambda d: _line(d, "f7", "f8").__setitem__("number", 0),
     "is numbered 0"),
    ("five sides", lambda d: d["fields"][6]["polygon"].append([50, 100]),
     "field f7 has 5 sides; every field has four"),
    ("three sides", lambda d: d["fields"][6]["polygon"].pop(),
     "field f7 has 3 sides"),
    ("asymmetric start fields",
     lambda d: d["start"]["south"].__setitem__(0, "f53"),
     "start fields are not symmetric: north's f1 turns into f55, which is not a south start"),
    ("asymmetric numbers",
     lambda d: (_line(d, "f7", "f8").__setitem__("number", 1),
                _line(d, "f48", "f49").__setitem__("number", 3)),
     "line f7-f8 is numbered 1 but its half-turn image f49-f48 is numbered 3"),
    ("asymmetric pearls", lambda d: d["pearls"].__setitem__(0, "f23"),
     "pearl fields are not symmetric"),
    ("start line numbered 2",
     lambda d: (_line(d, "f1", "f6").__setitem__("number", 2),
                _line(d, "f50", "f55").__setitem__("number", 2)),
     "line f1-f6 leaves start field f1 but is numbered 2; start fields are left only with 1 or 4"),
    ("missing line", lambda d: d["lines"].remove(_line(d, "f7", "f8")),
     "f7 and f8 share a side but no line joins them"),
    ("line between far fields", lambda d: _line(d, "f7", "f8")["fields"].__setitem__(1, "f40"),
     "line f7-f40: the two fields share no side"),
    ("duplicate id", lambda d: d["fields"][7].__setitem__("id", "F7"),
     "field id 'F7' is used twice"),
    ("four pearls", lambda d: d["pearls"].pop(), "lists 4 fields, not 5"),
    ("three start fields", lambda d: d["start"]["north"].pop(),
     "the north start fields lists 3 fields, not 4"),
    ("start is a pearl", lambda d: d["pearls"].__setitem__(0, "f1"),
     "f1 is both a start field and a pearl field"),
    ("wrong format", lambda d: d.__setitem__("format", "chess"), "\"format\""),
    ("no lines", lambda d: d.__setitem__("lines", []), "needs \"lines\""),
    ("bad corner", lambda d: d["fields"][0]["polygon"].__setitem__(0, ["a", 0]),
     "field f1: a corner is [x, y] with two numbers"),
]


@pytest.mark.parametrize(("what", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_board_file_names_the_problem(tmp_path: Path, what: str, change: Any,
                                          message: str) -> None:
    path = _write(tmp_path, _broken(change))
    with pytest.raises(BoardError) as err:
        load_game("hotu_matua", board=path)
    assert message in str(err.value), f"{what}: {err.value}"
    assert isinstance(err.value, InvalidOptionError)


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="board file .*nowhere.json.* not found"):
        load_game("hotu_matua", board=str(tmp_path / "nowhere.json"))
    with pytest.raises(BoardError, match="is not JSON: line 1"):
        load_game("hotu_matua", board=_write(tmp_path, "{oops"))
    with pytest.raises(BoardError, match="one JSON object"):
        load_game("hotu_matua", board=_write(tmp_path, [1, 2]))


def test_a_good_custom_board_plays(tmp_path: Path) -> None:
    # The shipped board with 2 and 3 swapped everywhere is another valid board.
    data = copy.deepcopy(RAW)
    for line in data["lines"]:
        line["number"] = {2: 3, 3: 2}.get(line["number"], line["number"])
    path = _write(tmp_path, data)
    game = load_game("hotu_matua", board=path, turn_limit=6)
    assert game.board.digest != BOARD.digest
    state = game.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node()
                           else state.legal_actions()[0])
    # a position saved on one board is not read on another
    default = load_game("hotu_matua", turn_limit=6)
    data2 = state.to_json()
    data2["options"] = dict(default.options)
    with pytest.raises(Exception, match="saved on another board file"):
        default.state_from_json(data2)


# --- boards as data (what the hall passes) --------------------------------------------------

def test_a_board_given_as_json_plays_like_its_file(tmp_path: Path) -> None:
    from_file = load_game("hotu_matua", board=_write(tmp_path, RAW))
    as_data = load_game("hotu_matua", board="  " + json.dumps(RAW))
    assert as_data.board.digest == from_file.board.digest == BOARD.digest
    assert as_data.options["board"] == BOARD.text  # one text per board, however it was sent
    assert load_game("hotu_matua", board=BOARD.text) == as_data
    assert as_data.shown_options()["board"] == f"gamehall reconstruction ({BOARD.digest[:6]})"
    state = as_data.new_initial_state(seed=3)
    assert as_data.state_from_json(state.to_json()).to_json() == state.to_json()


def test_board_data_is_checked_like_a_file() -> None:
    with pytest.raises(BoardError, match="the board is not JSON: line 1"):
        load_game("hotu_matua", board="{oops")
    with pytest.raises(BoardError, match="nests too deeply"):
        load_game("hotu_matua", board="{\"a\":" + "[" * 100_000)
    broken = _broken(lambda d: d["pearls"].pop())
    with pytest.raises(BoardError, match="lists 4 fields, not 5"):
        load_game("hotu_matua", board=json.dumps(broken))


def test_a_board_has_a_bounded_number_of_fields() -> None:
    from gamehall.games.hotu_matua.board import MAX_FIELDS

    many = copy.deepcopy(RAW)
    many["fields"] = [dict(f, id=f"g{i}") for i, f in
                      enumerate(RAW["fields"] * (MAX_FIELDS // len(RAW["fields"]) + 1))]
    with pytest.raises(BoardError, match=f"at most {MAX_FIELDS} fields"):
        parse_board(many)
