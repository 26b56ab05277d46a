"""The bot API against a real hall (`gamehall serve` in a subprocess) and the real client
(`gamehall.play.botclient`, and `gamehall bot` itself): bot accounts and scoped tokens,
challenges accepted and declined, a full game of each of the five games, a dropped stream
resumed with gameFull, a revoked token refused, a 429 waited out."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gamehall.play.botclient import BotClient, engine_chooser
from tests.server.live import ROOT, Server, auth, running

CHEAP_HASHES = ("--argon2-time-cost", "1", "--argon2-memory-kib", "8192")
PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("botapi")
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", "--rate", "5000",
                        "--burst", "5000", "--token-rate", "100000/minute",
                        *CHEAP_HASHES)) as server:
        yield server


def account(server: Server, nickname: str) -> str:
    """A new account: its browser's token."""
    token = server.session(nickname)
    r = httpx.post(f"{server.http}/api/account/password", json={"password": PASSWORD},
                   headers=auth(token))
    assert r.status_code == 200, r.text
    return token


def api_token(server: Server, session: str, *scopes: str) -> tuple[str, str]:
    """A new API token of the account: (its id, the token)."""
    r = httpx.post(f"{server.http}/api/account/tokens",
                   json={"description": "test", "scopes": list(scopes)}, headers=auth(session))
    assert r.status_code == 201, r.text
    return str(r.json()["id"]), str(r.json()["token"])


def bot_account(server: Server, nickname: str, games: list[str] | None = None) -> str:
    """A new bot account: an API token of it with bot:play."""
    session = account(server, nickname)
    _, token = api_token(server, session, "bot:play")
    r = httpx.post(f"{server.http}/api/bot/account/upgrade",
                   json={"games": games} if games else None, headers=auth(token))
    assert r.status_code == 200, r.text
    return token


def challenge(server: Server, token: str, nickname: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/challenge/{nickname}", json=body, headers=auth(token))


def hula_against_a_bot(server: Server, bot: str, person: str) -> tuple[str, str, str]:
    """A bot account (`bot`, Hula only) that accepted a person's challenge to a size-5 Hula
    game, the person in seat 0: (the bot's token, the person's token, the room)."""
    token = bot_account(server, bot, ["hula"])
    ann = account(server, person)
    r = challenge(server, ann, bot, game="hula", options={"size": 5}, seat=0)
    accepted = httpx.post(f"{server.http}/api/challenge/{r.json()['id']}/accept",
                          headers=auth(token))
    assert accepted.status_code == 200, accepted.text
    return token, ann, str(accepted.json()["room"])


def state_of(server: Server, token: str, room: str) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/rooms/{room}", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_for(done: Any, what: str, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = done()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def play_people(server: Server, room: str, tokens: list[str], rng: random.Random,
                limit: int = 20000) -> dict[str, Any]:
    """The people play random legal moves over HTTP until the game is over."""
    for _ in range(limit):
        for token in tokens:
            state = state_of(server, token, room)
            if state["status"] == "finished":
                return state
            if state["seat"] is not None and state["to_move"] == state["seat"] \
                    and state["legal_moves"]:
                server.act(token, room, "move", move=rng.choice(state["legal_moves"]),
                           version=state["version"])
        time.sleep(0.005)
    raise AssertionError("the game did not end")


class Running:
    """The real client in a thread, stopped with the block."""

    def __init__(self, server: Server, token: str, engine: str = "random") -> None:
        self.client = BotClient(server.http, token, engine_chooser(engine, seed=1))
        self.thread = threading.Thread(target=self.client.run, daemon=True)

    def __enter__(self) -> BotClient:
        self.thread.start()
        return self.client

    def __exit__(self, *_: object) -> None:
        self.client.stop.set()
        self.thread.join(timeout=40)


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("hula", {"size": 5}), ("haugaz", {"size": 6}), ("halali", {}),
    ("hotu_matua", {"turn_limit": 30}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_person_challenges_the_bot_and_plays_a_whole_game(hall: Server, game: str,
                                                            options: dict[str, Any]) -> None:
    nick = f"{game.replace('_', '')[:8]}eng"
    token = bot_account(hall, nick, [game])
    ann = account(hall, f"ann{game[:8].replace('_', '')}")
    with Running(hall, token, "mcts:30") as client:
        r = challenge(hall, ann, nick, game=game, options=options, seat=0)
        assert r.status_code == 201, r.text
        room = wait_for(lambda: next(iter(client._playing), None), "the bot to accept")
        state = state_of(hall, ann, room)
        assert state["status"] == "playing"
        assert [s["bot_account"] for s in state["seats"]] == [False, True]
        end = play_people(hall, room, [ann], random.Random(7))
        wait_for(lambda: room in client.finished, "the client to see the end")
    assert end["ended_by"] == "rules"
    profile = httpx.get(f"{hall.http}/api/players/{nick}").json()
    assert profile["bot_account"] is True
    assert profile["recent"][0]["room"] == room


def test_hau_la_with_a_bot_and_two_people(hall: Server) -> None:
    token = bot_account(hall, "haulaeng", ["hau_la"])
    ann, bea = account(hall, "annhl"), account(hall, "beahl")
    with Running(hall, token) as client:
        r = challenge(hall, ann, "haulaeng", game="hau_la", options={"players": 3}, seat=0)
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        room = wait_for(lambda: httpx.get(f"{hall.http}/api/rooms").json() and next(
            (x["id"] for x in httpx.get(f"{hall.http}/api/rooms").json()
             if x["created_by"] == "annhl"), None), "the room of the challenge")
        assert httpx.get(f"{hall.http}/api/challenge", headers=auth(ann)).json()["out"] == []
        waiting = state_of(hall, ann, room)
        assert waiting["status"] == "waiting" and waiting["seats"][1]["bot_account"], cid
        assert [s["challenged"] for s in waiting["seats"]] == [True, True, False]
        # the challenge's seats and terms stay as agreed: refused cleanly, nothing changed
        terms = "challenge_terms"
        for kind, body, code in (("leave", {}, terms), ("bot", {"seat": 1}, "seat_taken"),
                                 ("rated", {"value": False}, terms),
                                 ("option", {"key": "players", "value": 2}, terms),
                                 ("clock", {"control": "5+3"}, terms)):
            r = hall.act(ann, room, kind, **body)
            assert r.status_code == 409 and r.json()["code"] == code, (kind, r.text)
        assert state_of(hall, ann, room)["seats"] == waiting["seats"]
        assert hall.act(bea, room, "join").status_code == 200
        assert hall.act(ann, room, "start").status_code == 200
        end = play_people(hall, room, [ann, bea], random.Random(3))
        wait_for(lambda: room in client.finished, "the client to see the end")
    assert end["status"] == "finished" and len(end["result"]) == 3


def test_challenges_declined_for_other_games_and_canceled(hall: Server) -> None:
    token = bot_account(hall, "onlyhula", ["hula"])
    ann = account(hall, "anndecl")
    assert challenge(hall, ann, "onlyhula", game="haugaz").status_code == 409
    events: list[dict[str, Any]] = []
    listening = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{hall.http}/api/stream/event", headers=auth(ann),
                          timeout=30) as r:
            for line in r.iter_lines():
                listening.set()  # the stream's first keep-alive: it listens
                if line.strip():
                    events.append(json.loads(line))
                if any(e["type"] == "challengeCanceled" for e in events):
                    return

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    assert listening.wait(30), "Ann's event stream did not open"  # else the decline is missed
    client = BotClient(hall.http, token, engine_chooser("random"),
                       accept_from=lambda ch: "tooSlow" if ch["clock"] == "1d" else None)
    th = threading.Thread(target=client.run, daemon=True)
    th.start()
    try:
        r = challenge(hall, ann, "onlyhula", game="hula")
        assert r.status_code == 201, r.text
        wait_for(lambda: any(e["type"] == "challengeDeclined" for e in events), "the decline")
        declined = next(e for e in events if e["type"] == "challengeDeclined")["challenge"]
        assert declined["reason"] == "tooSlow" and declined["id"] == r.json()["id"]
    finally:
        client.stop.set()
    th.join(timeout=40)
    r = challenge(hall, ann, "onlyhula", game="hula")
    again = httpx.post(f"{hall.http}/api/challenge/{r.json()['id']}/decline",
                       json={"reason": "because"}, headers=auth(token))
    assert again.status_code == 400 and again.json()["code"] == "bad_reason"
    mine = httpx.get(f"{hall.http}/api/challenge", headers=auth(token)).json()["in"]
    assert [c["id"] for c in mine] == [r.json()["id"]]
    assert httpx.post(f"{hall.http}/api/challenge/{r.json()['id']}/cancel",
                      headers=auth(ann)).status_code == 200
    t.join(timeout=30)
    assert any(e["type"] == "challengeCanceled" for e in events)


def test_scopes_and_a_revoked_token(hall: Server) -> None:
    session = account(hall, "scoper")
    _, read_only = api_token(hall, session, "read")
    r = httpx.post(f"{hall.http}/api/bot/account/upgrade", headers=auth(read_only))
    assert r.status_code == 403 and r.json()["code"] == "missing_scope"
    token_id, player = api_token(hall, session, "bot:play")
    assert httpx.post(f"{hall.http}/api/bot/account/upgrade",
                      headers=auth(player)).status_code == 200
    r = httpx.post(f"{hall.http}/api/bot/game/nosuch/resign", headers=auth(session))
    assert r.status_code == 403 and r.json()["code"] == "missing_scope"
    listed = httpx.get(f"{hall.http}/api/account/tokens", headers=auth(session)).json()
    assert {t["id"] for t in listed["tokens"]} >= {token_id}
    assert all("token" not in t for t in listed["tokens"])
    assert httpx.delete(f"{hall.http}/api/account/tokens/{token_id}",
                        headers=auth(session)).status_code == 200
    r = httpx.get(f"{hall.http}/api/bot/account", headers=auth(player))
    assert r.status_code == 401 and r.json()["code"] == "not_identified"


def test_a_bot_account_is_for_good_and_only_before_it_played(hall: Server) -> None:
    session = account(hall, "played")
    room = hall.create_room(session, "hula")
    assert hall.act(session, room, "join").status_code == 200
    r = httpx.post(f"{hall.http}/api/bot/account/upgrade", headers=auth(session))
    assert r.status_code == 409 and r.json()["code"] == "has_played"
    token = bot_account(hall, "freshengine")
    r = httpx.post(f"{hall.http}/api/rooms/{room}/join", json={}, headers=auth(token))
    assert r.status_code == 403 and r.json()["code"] == "missing_scope"  # a browser's only
    browser = httpx.post(f"{hall.http}/api/login", json={"nickname": "freshengine",
                                                         "password": PASSWORD}).json()["token"]
    r = httpx.post(f"{hall.http}/api/rooms/{room}/join", json={}, headers=auth(browser))
    assert r.status_code == 403 and r.json()["code"] == "bot_account"


def test_a_dropped_game_stream_is_resumed_with_game_full(hall: Server) -> None:
    token, ann, room = hula_against_a_bot(hall, "dropper", "anndrop")
    state = state_of(hall, ann, room)
    hall.act(ann, room, "move", move=state["legal_moves"][0], version=state["version"])
    with httpx.stream("GET", f"{hall.http}/api/bot/game/stream/{room}", headers=auth(token),
                      timeout=30) as s:
        first = json.loads(next(line for line in s.iter_lines() if line.strip()))
    assert first["type"] == "gameFull" and first["seat"] == 1
    assert len(first["state"]["moves"]) == 1 and first["state"]["legal_moves"]
    with Running(hall, token) as client:  # the client opens it again and plays on
        end = play_people(hall, room, [ann], random.Random(1))
        wait_for(lambda: room in client.finished, "the client to finish")
    assert end["status"] == "finished"


def test_a_429_is_waited_out(tmp_path: Path) -> None:
    with running(Server(f"sqlite:///{tmp_path / 'hall.db'}", tmp_path / "server.log",
                        "--rate", "5000", "--burst", "5000", "--token-rate", "6 per 2 seconds",
                        *CHEAP_HASHES)) as server:
        token = bot_account(server, "slowengine", ["hula"])
        ann = account(server, "annslow")
        with Running(server, token) as client:
            r = challenge(server, ann, "slowengine", game="hula", options={"size": 5}, seat=0)
            assert r.status_code == 201
            room = wait_for(lambda: next(iter(client._playing), None), "the bot to accept")
            play_people(server, room, [ann], random.Random(2))
            wait_for(lambda: room in client.finished, "the client to finish")
        assert client.waits and all(w >= 1 for w in client.waits)


def test_the_gamehall_bot_command_plays_a_challenge(hall: Server) -> None:
    token = bot_account(hall, "cliengine", ["hula"])
    ann = account(hall, "anncli")
    proc = subprocess.Popen([sys.executable, "-m", "gamehall", "bot", "--url", hall.http,
                             "--token", token, "--engine", "mcts:20"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        r = challenge(hall, ann, "cliengine", game="hula", options={"size": 5}, seat=0)
        cid = r.json()["id"]
        got = wait_for(lambda: httpx.get(f"{hall.http}/api/players/cliengine").json()
                       and next((x["id"] for x in httpx.get(f"{hall.http}/api/rooms").json()
                                 if x["created_by"] == "anncli"), None), "the accept")
        end = play_people(hall, got, [ann], random.Random(5))
        assert end["status"] == "finished", cid
    finally:
        proc.terminate()
        proc.wait(10)


def test_streams_per_token_are_capped_and_freed(tmp_path: Path) -> None:
    with running(Server(f"sqlite:///{tmp_path / 'hall.db'}", tmp_path / "server.log",
                        "--max-streams-per-token", "1", *CHEAP_HASHES)) as server:
        token = bot_account(server, "capped")
        url = f"{server.http}/api/stream/event"
        with httpx.stream("GET", url, headers=auth(token), timeout=30) as first:
            assert first.status_code == 200
            chunks = first.iter_raw()  # (kept: a dropped iterator closes the response)
            next(chunks)  # the stream's body has begun: it counts now
            second = httpx.get(url, headers=auth(token), timeout=30)
            assert second.status_code == 429 and second.json()["code"] == "too_many_streams"
            assert "retry-after" in second.headers

        def opens() -> bool:
            with httpx.stream("GET", url, headers=auth(token), timeout=30) as again:
                return again.status_code == 200
        wait_for(opens, "the closed stream to be freed")


def test_the_openspiel_example_plays_a_challenge(hall: Server) -> None:
    pytest.importorskip("pyspiel")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import openspiel_bot  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "examples"))
    token = bot_account(hall, "spielengine", ["hotu_matua"])
    ann = account(hall, "annspiel")
    client = BotClient(hall.http, token, openspiel_bot.mcts_chooser(10, 1))
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    try:
        r = challenge(hall, ann, "spielengine", game="hotu_matua", options={"turn_limit": 20},
                      seat=0)
        assert r.status_code == 201, r.text
        room = wait_for(lambda: next(iter(client._playing), None), "the bot to accept")
        end = play_people(hall, room, [ann], random.Random(4))
        wait_for(lambda: room in client.finished, "the client to finish")
    finally:
        client.stop.set()
        thread.join(timeout=40)
    assert end["status"] == "finished"


def test_the_readme_bot_plays_a_person(hall: Server) -> None:
    token = bot_account(hall, "tinyengine", ["hula"])
    ann = account(hall, "anntiny")
    proc = subprocess.Popen([sys.executable, str(ROOT / "examples" / "tiny_bot.py"), hall.http,
                             token], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        # made before or after its event stream opens: a pending challenge is sent on connect
        assert challenge(hall, ann, "tinyengine", game="hula", seat=0).status_code == 201
        room = wait_for(lambda: next((x["id"] for x in httpx.get(f"{hall.http}/api/rooms").json()
                                      if x["created_by"] == "anntiny"), None), "the accept")
        assert play_people(hall, room, [ann], random.Random(6))["status"] == "finished"
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_stop_ends_the_open_streams_and_waits_for_none(tmp_path: Path) -> None:
    """SIGTERM while a bot holds its event stream and a game stream: both bodies end whole (the
    client reads to their end, then opens them again elsewhere), and the server stops without
    having to cancel a stream (uvicorn says "timeout graceful shutdown exceeded" when it must,
    with a traceback, after holding the stop for 5 s)."""
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'hall.db'}", log, *CHEAP_HASHES)
    with running(server):
        token, _, room = hula_against_a_bot(server, "stopper", "annstop")
        with contextlib.ExitStack() as streams:
            events = streams.enter_context(httpx.stream(
                "GET", f"{server.http}/api/stream/event", headers=auth(token), timeout=30))
            game = streams.enter_context(httpx.stream(
                "GET", f"{server.http}/api/bot/game/stream/{room}", headers=auth(token),
                timeout=30))
            lines = [events.iter_lines(), game.iter_lines()]
            assert json.loads(next(x for x in lines[1] if x.strip()))["type"] == "gameFull"
            next(lines[0])  # the event stream's first keep-alive: its body has begun
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            rest = [list(x) for x in lines]  # raises if a body is cut rather than ended
        assert all(all(not x.strip() or json.loads(x) for x in r) for r in rest)
        assert server.proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn ends by the signal
    said = log.read_text()
    assert "graceful shutdown exceeded" not in said and "Traceback" not in said, said[-3000:]
