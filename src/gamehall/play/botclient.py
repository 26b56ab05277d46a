"""A client of the hall's bot API: connects to a hall by URL with an API token, accepts the
challenges for its games, and plays each game with a move chooser (a gamehall bot such as
``mcts:medium``, any Python callable, or an OpenSpiel bot through the adapter).

It rebuilds each position locally from the game's options and the public move list of
``gameFull``/``gameState`` (every action in the list, chance outcomes included, is public once
played, and every game's initial state depends on its options alone), then asks the engine;
if that ever disagrees with the legal moves the server sent (a board file it cannot rebuild),
it picks among the server's legal moves instead. A dropped stream is opened again (the server
then sends ``gameFull``), and a 429 is waited out for its ``Retry-After``.

Sync and threaded (httpx): one thread reads the event stream, one thread plays each game.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from gamehall.core import GamehallError, State, load_game

log = logging.getLogger("gamehall.botclient")

READ_TIMEOUT = 30.0
"""A stream silent this long (the server sends a newline every 7 s) is taken as dropped."""


@dataclass
class Position:
    """What a chooser gets: the game, the room's state message for the bot's seat, and the
    position rebuilt locally (None when it could not be)."""

    game: str
    options: dict[str, Any]
    seat: int
    message: dict[str, Any]
    moves: list[dict[str, Any]]
    state: State | None

    @property
    def legal(self) -> list[str]:
        return list(self.message.get("legal_moves") or [])


Chooser = Callable[[Position], str]
"""Picks a move (in the game's notation) for the bot's seat."""


def rebuild(game: str, options: dict[str, Any], moves: list[dict[str, Any]]) -> State | None:
    """The position after `moves` (their notation), from the game's initial state; None if the
    game or a move cannot be read here."""
    try:
        state = load_game(game, **options).new_initial_state(seed=0)
        for m in moves:
            state.apply_action(state.string_to_action(str(m["move"])))
        return state
    except (GamehallError, ValueError, KeyError, TypeError):
        return None


def engine_chooser(spec: str, seed: int | None = None) -> Chooser:
    """A chooser from a gamehall bot spec (``random``, ``mcts:medium``, ``mcts:2000``...): it
    plays on the rebuilt position; without one, a random legal move."""
    from gamehall.ai import make_bot

    bot = make_bot(spec, seed)
    rng = random.Random(seed)

    def choose(pos: Position) -> str:
        state = pos.state
        if state is not None and not state.is_terminal() and state.current_player == pos.seat:
            local = {text for _, text in state.legal_notation()}
            if local == set(pos.legal):
                return state.action_to_string(bot.choose(state))
        return rng.choice(pos.legal)

    return choose


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status, self.code = status, str(body.get("code", ""))


@dataclass
class BotClient:
    """Plays the challenges of one bot account on one hall."""

    url: str
    token: str
    choose: Chooser
    games: list[str] | None = None
    """The games to accept (None: the ones the account declared to the hall)."""
    accept_from: Callable[[dict[str, Any]], str | None] | None = None
    """A challenge -> None to accept it, or a decline reason; default: accept its games."""
    stop: threading.Event = field(default_factory=threading.Event)
    waits: list[float] = field(default_factory=list)
    """Every Retry-After waited out (for the curious, and the tests)."""
    reconnects: int = 0
    finished: list[str] = field(default_factory=list)
    _playing: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _threads: list[threading.Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.url = self.url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, headers={
            "Authorization": f"Bearer {self.token}"}, timeout=httpx.Timeout(30.0))

    # --- HTTP ----------------------------------------------------------------------------------
    def request(self, method: str, path: str, **kw: Any) -> dict[str, Any]:
        """One call, waiting out any 429 for its Retry-After; ApiError for a refusal."""
        while True:
            r = self.http.request(method, path, **kw)
            if r.status_code == 429:
                wait = float(r.headers.get("retry-after", "60"))
                self.waits.append(wait)
                log.info("rate limited: waiting %.0f s", wait)
                if self.stop.wait(wait):
                    raise ApiError(429, r.json())
                continue
            body = r.json() if r.content else {}
            if r.status_code >= 400:
                raise ApiError(r.status_code, body)
            return dict(body)

    def _stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The NDJSON objects of a stream (keep-alive lines skipped) until it ends; a 429 is
        waited out; ApiError for a refusal, httpx errors when it drops."""
        while True:
            timeout = httpx.Timeout(30.0, read=READ_TIMEOUT)
            with self.http.stream("GET", path, timeout=timeout) as r:
                if r.status_code == 429:
                    r.read()
                    wait = float(r.headers.get("retry-after", "60"))
                    self.waits.append(wait)
                    if self.stop.wait(wait):
                        return
                    continue
                if r.status_code >= 400:
                    r.read()
                    raise ApiError(r.status_code, r.json())
                for line in r.iter_lines():
                    if self.stop.is_set():
                        return
                    if line.strip():
                        yield json.loads(line)
                return

    # --- the event stream ----------------------------------------------------------------------
    def run(self) -> None:
        """Read the event stream until `stop` is set, opening it again whenever it drops."""
        me = self.request("GET", "/api/bot/account")
        self.nickname = str(me["nickname"])
        if self.games is None:
            self.games = list(me["games"])
        pause = 1.0
        while not self.stop.is_set():
            try:
                for event in self._stream("/api/stream/event"):
                    pause = 1.0
                    self._on_event(event)
                if self.stop.is_set():
                    break
            except (httpx.HTTPError, json.JSONDecodeError) as exc:
                log.info("event stream dropped (%s): reconnecting", exc)
            except ApiError as exc:
                if exc.status in (401, 403):
                    raise
                log.warning("event stream refused: %s", exc)
            self.reconnects += 1
            self.stop.wait(pause)
            pause = min(30.0, pause * 2)
        for t in self._threads:
            t.join(timeout=5)

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            ch = event["challenge"]
            if ch["dest"]["name"].lower() == self.nickname.lower():
                self._answer(ch)
        elif kind == "gameStart":
            self._start_game(str(event["game"]["id"]))
        elif kind == "gameFinish":
            log.info("game %s finished: %s", event["game"]["id"], event["game"].get("outcome"))

    def _answer(self, ch: dict[str, Any]) -> None:
        if self.accept_from is not None:
            reason = self.accept_from(ch)
        else:
            reason = None if ch["game"] in (self.games or []) else "variant"
        try:
            if reason is None:
                self.request("POST", f"/api/challenge/{ch['id']}/accept")
            else:
                self.request("POST", f"/api/challenge/{ch['id']}/decline",
                             json={"reason": reason})
        except ApiError as exc:
            if exc.code == "too_many_games":
                self.request("POST", f"/api/challenge/{ch['id']}/decline",
                             json={"reason": "later"})
            else:
                log.warning("challenge %s: %s", ch["id"], exc)

    def _start_game(self, room: str) -> None:
        with self._lock:
            if room in self._playing:
                return
            self._playing.add(room)
        t = threading.Thread(target=self._play_safely, args=(room,), daemon=True,
                             name=f"bot-game-{room}")
        self._threads.append(t)
        t.start()

    def _play_safely(self, room: str) -> None:
        try:
            self.play(room)
        except Exception:
            log.exception("game %s failed", room)
        finally:
            with self._lock:
                self._playing.discard(room)

    # --- one game ------------------------------------------------------------------------------
    def play(self, room: str) -> None:
        """Play the game in `room` to its end, opening its stream again when it drops."""
        while not self.stop.is_set():
            try:
                if self._play_stream(room):
                    self.finished.append(room)
                    return
            except (httpx.HTTPError, json.JSONDecodeError) as exc:
                log.info("game %s stream dropped (%s): reconnecting", room, exc)
            self.reconnects += 1
            self.stop.wait(1.0)

    def _play_stream(self, room: str) -> bool:
        """Follow one opening of the game's stream; True once the game is over."""
        game: str = ""
        options: dict[str, Any] = {}
        seat = -1
        moves: list[dict[str, Any]] = []
        for msg in self._stream(f"/api/bot/game/stream/{room}"):
            if msg["type"] == "gameFull":
                game, options, seat = msg["game"], msg["options"], int(msg["seat"])
                state = msg["state"]
            elif msg["type"] == "gameState":
                state = msg
            else:
                continue
            moves = moves[:state["moves_from"]] + state["moves"]
            if state["status"] == "finished":
                return True
            if state["to_move"] == seat and state["legal_moves"]:
                pos = Position(game, options, seat, state, moves, rebuild(game, options, moves))
                move = self.choose(pos)
                try:
                    self.request("POST", f"/api/bot/game/{room}/move/{quote(move, safe='')}",
                                 params={"version": state["version"]})
                except ApiError as exc:  # the position moved on: the next state says how
                    if exc.code not in ("stale_version", "not_your_turn", "game_over"):
                        raise
        return False


def serve_forever(client: BotClient) -> None:
    """Run until interrupted (Ctrl-C)."""
    try:
        client.run()
    except KeyboardInterrupt:
        client.stop.set()
        time.sleep(0.1)
