"""What the page learns from the server to read well: each game's rules for players with its
pictures, turns in the move list, scores at the end, option words, and the bot levels."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gamehall.core import Game, Option, load_game
from gamehall.core.messages import render
from gamehall.server.api.app import create_app
from gamehall.server.engines.pool import bot_spec, default_level
from gamehall.server.table.room import FINISHED, Move, Room

GAMES = ("hula", "haugaz", "halali", "hotu_matua", "hau_la")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('howto') / 'h.db'}")
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("name", GAMES)
def test_every_game_ships_its_rules_for_players(name: str) -> None:
    game = load_game(name)
    text = type(game).howto()
    assert text.startswith(f"# How to play {game.title}\n")
    for part in ("## Your turn", "## In the hall"):
        assert part in text
    assert "TODO" not in text and len(text) > 1000


def test_a_game_without_a_rules_file_has_an_empty_text() -> None:
    class Bare(Game):
        name = "bare"
        title = "Bare"

    assert Bare.howto() == ""


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_page_has_its_text_and_two_pictures_drawn_from_positions(
        client: TestClient, name: str) -> None:
    page = client.get(f"/api/games/{name}/rules").json()
    assert page["name"] == name and page["text"] == type(load_game(name)).howto()
    assert [p["caption_key"] for p in page["pictures"]] == ["game.howto.start",
                                                            "game.howto.under_way"]
    assert [p["caption"] for p in page["pictures"]] == ["The start of a game",
                                                        "A game under way"]
    drawn = []
    for picture in page["pictures"]:
        resp = client.get(picture["url"])
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("image/svg+xml")
        assert resp.text.lstrip().startswith("<svg")
        drawn.append(resp.text)
    assert drawn[0] != drawn[1], "the game under way is not the start"


def test_rules_of_an_unknown_game_or_picture_are_clear_errors(client: TestClient) -> None:
    resp = client.get("/api/games/chess/rules")
    assert resp.status_code == 400 and resp.json()["code"] == "bad_game"
    assert resp.json()["key"] == "error.game.unknown" and "chess" in resp.json()["message"]
    resp = client.get("/api/games/hula/rules/7.svg")
    assert resp.status_code == 404 and "2 pictures" in resp.json()["message"]
    said = resp.json()
    assert (said["key"], said["args"]) == ("error.rules.picture", {"game": "Hula", "n": 2})
    assert render(said["key"], said["args"], "de") == "die Regelseite von Hula hat 2 Bilder, " \
        "gezählt ab 0"
    assert client.get("/api/games/hula/rules/x.svg").status_code == 400


def _turns(name: str, actions: int = 80) -> list[list[Move]]:
    """A seeded random game's moves, grouped as the server numbers their turns."""
    state = load_game(name).new_initial_state(seed=5)
    rng = random.Random(5)
    moves: list[Move] = []
    while not state.is_terminal() and len(moves) < actions:
        chance = state.is_chance_node()
        action = state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
        seat = None if chance else state.current_player()
        moves.append(Move.played(state, seat, action, moves[-1] if moves else None))
        state.apply_action(action)
    turns: dict[int, list[Move]] = {}
    for m in moves:
        turns.setdefault(m.turn, []).append(m)
    assert list(turns) == list(range(1, len(turns) + 1)), "turns are numbered 1, 2, ..."
    for turn in turns.values():
        assert len({m.seat for m in turn if m.seat is not None}) <= 1, "one player a turn"
    return list(turns.values())


def test_a_hula_turn_is_one_stone() -> None:
    assert all(len(t) == 1 for t in _turns("hula"))


def test_a_haugaz_turn_is_its_placement_and_its_move_and_the_cake_is_one_turn() -> None:
    turns = _turns("haugaz")
    assert [m.parts["kind"] for m in turns[0]] == ["cake", "cake"]
    assert [m.move for m in turns[1]] in (["play black"], ["play white"])
    for turn in turns[2:-1]:  # the last may be cut short
        assert [m.parts["kind"] for m in turn] in (["place", "move"], ["pass"])


def test_a_halali_flip_and_the_tile_it_shows_are_one_turn() -> None:
    for turn in _turns("halali"):
        kinds = [m.parts.get("kind") for m in turn]
        assert kinds == ["flip", "reveal"] or len(turn) == 1


def test_a_hotu_matua_turn_is_its_roll_and_its_ship_steps() -> None:
    turns = _turns("hotu_matua", 200)
    assert len(turns) > 5
    for turn in turns[:-1]:
        kinds = [m.parts["kind"] for m in turn]
        rolls = kinds.count("roll")
        assert 5 <= rolls <= 8 and kinds[:rolls] == ["roll"] * rolls
        assert set(kinds[rolls:]) <= {"step", "end"}


def test_a_hau_la_placement_is_one_turn() -> None:
    turns = _turns("hau_la", 120)
    for turn in turns:
        kinds = [m.parts.get("kind") for m in turn]
        assert kinds.count("piece") <= 1 and kinds.count("tag") <= 1
        assert kinds[0] in ("piece", "hole"), kinds
    assert len(turns) * 3 < sum(len(t) for t in turns)


def test_the_state_message_numbers_turns_and_a_rebuilt_room_numbers_them_alike() -> None:
    room = Room(id="t1", game_name="haugaz", options={}, created_by="t", seed=3)
    room.join(1, "ann", None)
    room.join(2, "bea", None)
    room.start()
    assert room.state is not None
    rng = random.Random(2)
    for _ in range(10):
        seat = room.to_move()
        room.apply(seat, rng.choice(room.state.legal_actions()))
    shown = [m["turn"] for m in room.snapshot(None, set())["moves"]]
    assert shown[:3] == [1, 1, 2] and shown == sorted(shown)
    again = Room(id="t1", game_name="haugaz", options={}, created_by="t", seed=3,
                 status=room.status)
    again.replay([Move(m.seat, m.action, m.move) for m in room.moves])
    assert [m["turn"] for m in again.snapshot(None, set())["moves"]] == shown


def test_the_finished_state_carries_each_seat_score() -> None:
    room = Room(id="s1", game_name="halali", options={}, created_by="t", seed=4)
    room.join(1, "ann", None)
    room.join(2, "bea", None)
    room.start()
    assert room.snapshot(None, set())["scores"] is None, "no scores while playing"
    assert room.state is not None
    rng = random.Random(4)
    while room.status != FINISHED:
        if room.state.is_chance_node():
            room.resolve_chance(rng)
            continue
        room.apply(room.to_move(), rng.choice(room.state.legal_actions()))
    scores = room.snapshot(None, set())["scores"]
    assert scores == [float(x) for x in room.state.totals()[0]]  # type: ignore[attr-defined]
    assert load_game("hula").scores(load_game("hula").new_initial_state()) is None


def test_options_describe_themselves_in_words(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    stuck = next(o for o in games["haugaz"]["options"] if o["name"] == "stuck")
    assert stuck["label"] == "when stuck"
    assert {"value": "ends", "word": "the game ends",
            "word_key": "game.haugaz.option.stuck.word.ends"} in stuck["words"]
    pie = next(o for o in games["hula"]["options"] if o["name"] == "pie")
    assert pie["label"] == "swap (pie rule)"
    for game in games.values():
        for option in game["options"]:
            assert option["label"] and "_" not in option["label"]
    plain = Option("turn_limit", int, 10)
    assert plain.describe()["label"] == "turn limit" and plain.word(10) == "10"
    assert Option("x", bool, True).word(False) == "off"


def test_one_bot_default_everywhere(client: TestClient) -> None:
    bots = client.get("/api/bots").json()
    assert bots["default"] == default_level() == "medium"
    assert bots["levels"] == ["random", "easy", "medium", "hard"]
    assert bot_spec(None) == f"mcts:{bots['default']}", "/bot alone seats the default"


def test_the_rules_texts_ship_in_the_wheel() -> None:
    from tests.test_packaging import _shipped

    shipped = _shipped()
    root = Path(__file__).resolve().parents[2] / "src" / "gamehall"
    for name in GAMES:
        assert (root / "games" / name / "howto.md").is_file()
        assert f"games/{name}/howto.md" in shipped
