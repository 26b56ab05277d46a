"""Hints: in a casual game against the hall's bots, the bot's move for the asker's own seat.

A hint is help while playing, so it is refused wherever help would be unfair or pointless: in a
rated game, at a table with no server bot (people against people), for a seat that is not the
asker's, to a spectator, when it is not the asker's turn, and once the game is over. The policy
(`hint_refusal`) is pure, so the state message can say per seat whether hints are allowed
(``hints``) and the page never guesses.

The search runs in the bot workers (`BotPool`), never in the event loop, at the operator's level
(`Settings.hint_level`, within the bots' limits), and a player may have `Settings.hint_rate`
hints thought out: a position already thought out for its seat is answered from the hall's
`HintCache` at no cost, so the limit counts positions, not clicks. A hint is the bot's whole
turn (its steps up to chance, the other seat or the end), said in words from the steps' parts
(`hint_words`). The worker gets the position as `State.to_json()`, which by the game contract
holds no hidden information (Halali!'s face-down tiles are not in it: their kinds are drawn when
they are flipped), and the search's seed is made from that text: the same visible position gives
the same hint, whatever is hidden.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from gamehall.core import State
from gamehall.core.messages import Message, catalogue, msg
from gamehall.server.accounts.identity import Player, RateLimited
from gamehall.server.engines.pool import BotPool, bot_spec
from gamehall.server.ops.limiter import Limiter, Rule
from gamehall.server.ops.settings import Settings
from gamehall.server.table.errors import RoomError
from gamehall.server.table.hint_rules import hint_refusal
from gamehall.server.table.protocol import Request, dumps

if TYPE_CHECKING:
    from gamehall.server.table.room import Room

HINT_LEVELS = ("random", "easy", "medium", "hard")
"""The levels a hint may think at, weakest first (a client may ask for one up to the
operator's `Settings.hint_level`)."""


def hint_spec(settings: Settings, bots: BotPool, asked: str | None) -> str:
    """The bot spec a hint thinks with: the level asked for (at most the operator's), or the
    operator's; RoomError ``bad_bot`` for another level or one past the bots' limits."""
    top = settings.hint_level.strip().lower()
    word = (asked or top).strip().lower()
    if word not in HINT_LEVELS or top not in HINT_LEVELS \
            or HINT_LEVELS.index(word) > HINT_LEVELS.index(top):
        allowed = ", ".join(HINT_LEVELS[:HINT_LEVELS.index(top) + 1]) if top in HINT_LEVELS \
            else top
        raise RoomError("bad_bot", msg("error.hint.level", levels=allowed))
    return bot_spec(word, bots.limits)


def hint_seed(spec: str, position: dict[str, Any]) -> int:
    """The search's seed: made from what the worker is shown, so that equal visible positions
    get equal hints (and asking again does not fish for another move)."""
    digest = hashlib.sha256(f"{spec}\n{dumps(position)}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


MAX_STEPS = 8
"""The most steps of a turn a hint thinks out (a Hau La placement has six)."""


class HintCache:
    """The turns hints chose, by spec, seat and visible position (its text): the same position
    asked again is answered from here, costs no search and counts against no limit. The search
    is seeded by the same text, so a cached answer is the one a new search would give."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._turns: OrderedDict[str, tuple[int, ...]] = OrderedDict()

    @staticmethod
    def key(spec: str, seat: int, position: dict[str, Any]) -> str:
        return hashlib.sha256(f"{spec}\n{seat}\n{dumps(position)}".encode()).hexdigest()

    def get(self, key: str) -> tuple[int, ...] | None:
        turn = self._turns.get(key)
        if turn is not None:
            self._turns.move_to_end(key)
        return turn

    def put(self, key: str, turn: tuple[int, ...]) -> None:
        self._turns[key] = turn
        self._turns.move_to_end(key)
        while len(self._turns) > self.size:
            self._turns.popitem(last=False)


def turn_goes_on(state: State, seat: int) -> bool:
    """After a step: whether `seat`'s turn goes on (no chance, no other seat, not the end, no
    new turn of its own)."""
    if state.is_terminal() or state.current_player() != seat:
        return False
    legal = state.legal_actions()
    return bool(legal) and not state.game.starts_turn(state, legal[0])


def step_words(game: str, parts: dict[str, Any], move: str) -> Message:
    """One step in words from its parts (``game.<game>.hint.<kind>``), or "play <move>" where
    the game has no words for its kind."""
    key = f"game.{game}.hint.{parts.get('kind')}"
    if key in catalogue("en"):
        return msg(key, **{k: v for k, v in parts.items() if isinstance(v, (str, int))})
    return msg("info.hint.step", move=move)


def hint_words(game: str, steps: list[tuple[dict[str, Any], str]]) -> Message:
    """A turn's steps in words: "place a stack on d4, then move the stack on c3 to c5"."""
    said = step_words(game, *steps[-1])
    for parts, move in reversed(steps[:-1]):
        said = msg("info.hint.then", first=step_words(game, parts, move), then=said)
    return said


async def _think(bots: BotPool, spec: str, state: State, seat: int, job: str) -> tuple[int, ...]:
    """The bot's turn from `state` (a copy, changed): its steps, each searched from the
    position before it, seeded by that position."""
    turn: list[int] = []
    while True:
        position = state.to_json()
        chosen = await bots.choose(spec, state.clone(), hint_seed(spec, position), job)
        if chosen is None or not state.is_legal(chosen):
            if turn:
                return tuple(turn)
            raise RoomError("hint_failed", msg("error.hint.failed"))
        turn.append(chosen)
        state.apply_action(chosen)
        if len(turn) >= MAX_STEPS or not turn_goes_on(state, seat):
            return tuple(turn)


async def answer_hint(bots: BotPool, limiter: Limiter, settings: Settings, room: Room,
                      player: Player, req: Request,
                      cache: HintCache | None = None) -> dict[str, Any]:
    """The ``hint`` message for `player`'s request in `room`, or a RoomError refusing it;
    `cache`: the hall's turns already thought out (None: none)."""
    seat = room.seat_of(player.id)
    wanted = req.args.get("seat")
    if seat is not None and wanted is not None and room.seat_index(wanted) != seat:
        raise RoomError("not_your_seat", msg("error.hint.not_your_seat"))
    refusal = hint_refusal(room, seat)
    if refusal is not None:
        raise refusal
    version = req.args.get("version")
    if version is not None and version != room.version:
        raise RoomError("stale_version", msg("error.hint.stale", version=room.version,
                                             yours=version))
    spec = hint_spec(settings, bots, req.args.get("level"))
    assert room.state is not None and seat is not None
    state = room.state.clone()  # the room may move on while the bot thinks
    at = room.version
    cache = cache if cache is not None else HintCache()
    key = cache.key(spec, seat, state.to_json())
    turn = cache.get(key)
    if turn is None:  # a position not thought out yet: counted, then searched
        rules = (Rule("hint", settings.hint_rate, ("player",)),)
        if not await limiter.allow(rules, {"player": str(player.id)}):
            wait = await limiter.blocked(rules, {"player": str(player.id)}) or 1.0
            raise RateLimited(wait, msg("error.hint.rate", rate=settings.hint_rate,
                                        seconds=max(1, round(wait))))
        turn = await _think(bots, spec, state.clone(), seat, f"{room.id}/hint/{seat}")
        cache.put(key, turn)
    legal = [a for a, _ in state.legal_notation()]
    steps: list[dict[str, Any]] = []
    for action in turn:
        steps.append({"move": state.action_to_string(action), **state.action_parts(action)})
        state.apply_action(action)
    first = steps[0]
    words = hint_words(room.game_name, [({k: v for k, v in s.items() if k != "move"},
                                         str(s["move"])) for s in steps])
    out: dict[str, Any] = {"type": "hint", "room": room.id, "seat": seat, "version": at,
                           "level": spec, "index": legal.index(turn[0]), "action": turn[0],
                           "move": first["move"],
                           "parts": {k: v for k, v in first.items() if k != "move"},
                           "turn": steps, "text": words.text, **words.to_json()}
    if req.ref is not None:
        out["id"] = req.ref
    return out
