"""The opening explorer: for a game and start (its options), the moves people played from a
position in the archive of finished games, with how often and how those games went.

``GET /api/games/{game}/explorer?options={JSON}&moves=3,17,20&players=people`` (protocol.md,
"Opening explorer"). A position is named by the actions that lead to it from the start, as
integers, chance outcomes included: a Halali! flip is followed by the tile it turned up and a
Hotu Matua turn by its rolls, so the tree branches on what chance gave, exactly as the games
went. The start is the game with every option resolved (`Game.options`): games whose options
differ are different trees.

Reading the archive is bounded and shared: one query per game for its newest
`Settings.explorer_max_games` finished games (their first `Settings.explorer_max_depth` + 1
actions), kept `TTL` seconds; each position's answer is kept with it, so a stranger repeating a
request costs a dictionary look-up, and a new finished game shows within `TTL`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from gamehall.core import Game, GamehallError, State, game_class
from gamehall.core.messages import msg
from gamehall.server.api.access import MESSAGES, Visitor, anyone
from gamehall.server.api.parts import part
from gamehall.server.ratings.model import outcome_word
from gamehall.server.storage import Storage
from gamehall.server.table.errors import RoomError
from gamehall.server.table.options import Boards
from gamehall.server.table.sentences import reason_of

TTL = 60.0
"""Seconds a game's games read from the archive are kept before it is read again."""
MAX_ANSWERS = 4096
"""Positions' answers kept per game at most (then they are made again)."""
PLAYERS = ("people", "all")
STATUS = {"bad_moves": 400, "too_deep": 400, "bad_players": 400}
"""The explorer's refusals as HTTP statuses (merged into app.py's)."""


@dataclass(frozen=True)
class Played:
    """One finished game as the explorer counts it."""

    start: str
    """The start's key: the game's resolved options as canonical JSON."""
    people: bool
    """At least one seat was held by a person (not a server bot, not a bot account)."""
    result: tuple[float, ...]
    actions: tuple[int, ...]
    notation: tuple[str, ...]


@dataclass
class Corpus:
    """A game's games as read from the archive at `read_at` (monotonic), with the answers made
    from them so far."""

    read_at: float
    games: list[Played]
    answers: dict[tuple[str, bool, tuple[int, ...]], dict[str, Any]] = field(
        default_factory=dict)


def start_key(game: Game) -> str:
    return json.dumps(game.options, sort_keys=True, separators=(",", ":"))


def _person(seat: object) -> bool:
    return isinstance(seat, dict) and seat.get("player_id") is not None \
        and seat.get("bot") is None and not seat.get("bot_account")


def read_played(cls: type[Game], rows: list[dict[str, Any]]) -> list[Played]:
    """The archive's rows as `Played` games; a row whose options no longer make a game (an
    option since removed) is left out. Each distinct options text is resolved once."""
    keys: dict[str, str | None] = {}
    out = []
    for row in rows:
        text = json.dumps(row["options"], sort_keys=True)
        if text not in keys:
            try:
                keys[text] = start_key(cls(**row["options"]))
            except (GamehallError, TypeError):
                keys[text] = None
        key, result = keys[text], row["result"]
        if key is None or not isinstance(result, list):
            continue
        acts = row["actions"]
        out.append(Played(key, any(_person(s) for s in row["seats"]),
                          tuple(float(x) for x in result), tuple(a for a, _ in acts),
                          tuple(m for _, m in acts)))
    return out


def parse_moves(text: str, most: int) -> tuple[int, ...]:
    """``3,17,20`` as actions; ``bad_moves`` / ``too_deep`` otherwise."""
    words = [w.strip() for w in text.split(",")] if text.strip() else []
    if len(words) > most:
        raise RoomError("too_deep", msg("error.explorer.too_deep", most=most))
    if not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):  # not "²"
        raise RoomError("bad_moves", msg("error.explorer.moves"))
    return tuple(int(w) for w in words)


def replay(game: Game, prefix: tuple[int, ...]) -> tuple[State, list[dict[str, Any]]]:
    """The position after `prefix`, and each step's seat and notation; ``bad_moves`` where an
    action is not legal there."""
    state = game.new_initial_state(0)
    steps = []
    for i, action in enumerate(prefix):
        if state.is_terminal() or not state.is_legal(action):
            raise RoomError("bad_moves", msg("error.explorer.illegal", action=action,
                                             step=i + 1))
        seat = state.current_player()
        steps.append({"action": action, "move": state.action_to_string(action),
                      "seat": seat if seat >= 0 else None})
        state.apply_action(action)
    return state, steps


def side_of(game: Game, state: State, steps: list[dict[str, Any]]) -> int:
    """The seat the figures are for: the one to move; at a chance node the seat whose turn the
    draw belongs to (a flip's flipper; the roller of a turn's first roll); at the end the last
    to move."""
    last = next((s["seat"] for s in reversed(steps) if s["seat"] is not None), 0)
    seat = state.current_player()
    if seat >= 0 or state.is_terminal():
        return seat if seat >= 0 else last
    if steps and not game.starts_turn(state, state.chance_outcomes()[0][0]):
        return last
    probe = state.clone()
    while probe.is_chance_node():
        probe.apply_action(probe.chance_outcomes()[0][0])
    after = probe.current_player()
    return after if after >= 0 else last


def figures(results: list[tuple[float, ...]], side: int) -> dict[str, Any]:
    """Games, wins, draws and losses for `side`; with 3 or more seats its average rank too."""
    words = [outcome_word(r, side) for r in results]
    out: dict[str, Any] = {"games": len(results), "wins": words.count("win"),
                           "draws": words.count("draw"), "losses": words.count("loss")}
    if results and len(results[0]) > 2:
        ranks = [1 + sum(1 for x in r if x > r[side]) for r in results]
        out["rank"] = round(sum(ranks) / len(ranks), 2)
    return out


def answer(game: Game, state: State, steps: list[dict[str, Any]], games: list[Played],
           prefix: tuple[int, ...]) -> dict[str, Any]:
    """The explorer's answer for the position after `prefix` among `games` (of its start)."""
    side = side_of(game, state, steps)
    n = len(prefix)
    here = [g for g in games if g.actions[:n] == prefix]
    by_next: dict[int, list[Played]] = {}
    for g in here:
        if len(g.actions) > n:
            by_next.setdefault(g.actions[n], []).append(g)
    legal = set(state.legal_actions())
    rows = []
    for action, through in sorted(by_next.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        move = state.action_to_string(action) if action in legal else through[0].notation[n]
        rows.append({"action": action, "move": move,
                     **figures([g.result for g in through], side)})
    seat = state.current_player()
    return {"game": game.name, "title": game.title, "options": game.shown_options(),
            "moves": steps, "to_move": seat if seat >= 0 else None,
            "chance": state.is_chance_node(), "over": state.is_terminal(),
            "side": side, "side_name": game.seat_names[side],
            "scanned": len(games), **figures([g.result for g in here], side), "next": rows}


class Explorer:
    """The explorer of one hall: the games read per game, and the answers made from them."""

    def __init__(self, storage: Storage, boards: Boards, most_games: int, depth: int,
                 clock: Callable[[], float] = time.monotonic, ttl: float = TTL) -> None:
        self.storage, self.boards = storage, boards
        self.most_games, self.depth, self.clock, self.ttl = most_games, depth, clock, ttl
        self._corpora: dict[str, Corpus] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def explore(self, name: str, options: str, moves: str,
                      players: str) -> dict[str, Any]:
        try:
            cls = game_class(name)
        except GamehallError:
            raise RoomError("unknown_game", msg("error.game.none", game=name[:40])) from None
        game = self._game(cls, options)
        if players not in PLAYERS:
            raise RoomError("bad_players", msg("error.explorer.players"))
        prefix = parse_moves(moves, self.depth)
        state, steps = replay(game, prefix)
        corpus = await self._corpus(cls)
        key = (start_key(game), players == "people", prefix)
        found = corpus.answers.get(key)
        if found is None:
            games = [g for g in corpus.games if g.start == key[0] and (g.people or not key[1])]
            if len(corpus.answers) >= MAX_ANSWERS:
                corpus.answers.clear()
            found = corpus.answers[key] = answer(game, state, steps, games, prefix)
        return {**found, "players": players}

    def _game(self, cls: type[Game], options: str) -> Game:
        """The start the client names: options as a JSON object, checked as a room's are."""
        try:
            given = json.loads(options) if options.strip() else {}
        except (ValueError, RecursionError):
            given = None
        if not isinstance(given, dict):
            raise RoomError("bad_option", msg("error.explorer.options"))
        try:
            return cls(**self.boards.check(cls, given))
        except GamehallError as exc:
            raise RoomError("bad_option", msg("error.option.bad",
                                              reason=reason_of(exc, 300))) from None

    async def _corpus(self, cls: type[Game]) -> Corpus:
        """The game's games, read again once older than the TTL (one reading at a time)."""
        found = self._corpora.get(cls.name)
        if found is not None and self.clock() - found.read_at < self.ttl:
            return found
        lock = self._locks.setdefault(cls.name, asyncio.Lock())
        async with lock:
            found = self._corpora.get(cls.name)
            if found is None or self.clock() - found.read_at >= self.ttl:
                rows = await self.storage.openings(cls.name, self.most_games, self.depth + 1)
                found = self._corpora[cls.name] = Corpus(self.clock(), read_played(cls, rows))
            return found


router = APIRouter()


@router.get("/api/games/{game}/explorer",
            summary="The opening explorer: the moves played from a position in finished games, "
                    "with counts and results")
async def explore(game: str, explorer: Annotated[Explorer, part("explorer")],
                  _: Annotated[Visitor, Depends(anyone(MESSAGES))],
                  options: Annotated[str, Query(max_length=70000)] = "",
                  moves: Annotated[str, Query(max_length=10000)] = "",
                  players: Annotated[str, Query(max_length=10)] = "people",
                  ) -> dict[str, Any]:
    return await explorer.explore(game[:64], options, moves, players)
