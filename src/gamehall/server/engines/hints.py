"""Hints: in a casual game against the hall's bots, the bot's move for the asker's own seat.

A hint is help while playing, so it is refused wherever help would be unfair or pointless: in a
rated game, at a table with no server bot (people against people), for a seat that is not the
asker's, to a spectator, when it is not the asker's turn, and once the game is over. The policy
(`hint_refusal`) is pure, so the state message can say per seat whether hints are allowed
(``hints``) and the page never guesses.

The search runs in the bot workers (`BotPool`), never in the event loop, at the operator's level
(`Settings.hint_level`, within the bots' limits), and a player may ask `Settings.hint_rate`
times. The worker gets the position as `State.to_json()`, which by the game contract holds no
hidden information (Halali!'s face-down tiles are not in it: their kinds are drawn when they
are flipped), and the search's seed is made from that text: the same visible position gives the
same hint, whatever is hidden.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from gamehall.core.messages import msg
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


async def answer_hint(bots: BotPool, limiter: Limiter, settings: Settings, room: Room,
                      player: Player, req: Request) -> dict[str, Any]:
    """The ``hint`` message for `player`'s request in `room`, or a RoomError refusing it."""
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
    rules = (Rule("hint", settings.hint_rate, ("player",)),)
    if not await limiter.allow(rules, {"player": str(player.id)}):
        wait = await limiter.blocked(rules, {"player": str(player.id)}) or 1.0
        raise RateLimited(wait, msg("error.hint.rate", rate=settings.hint_rate,
                                    seconds=max(1, round(wait))))
    assert room.state is not None and seat is not None
    state = room.state.clone()  # the room may move on while the bot thinks
    position, at = state.to_json(), room.version
    chosen = await bots.choose(spec, state, hint_seed(spec, position), f"{room.id}/hint/{seat}")
    legal = [a for a, _ in state.legal_notation()]
    if chosen is None or chosen not in legal:
        raise RoomError("hint_failed", msg("error.hint.failed"))
    out: dict[str, Any] = {"type": "hint", "room": room.id, "seat": seat, "version": at,
                           "level": spec, "index": legal.index(chosen), "action": chosen,
                           "move": state.action_to_string(chosen),
                           "parts": state.action_parts(chosen)}
    if req.ref is not None:
        out["id"] = req.ref
    return out
