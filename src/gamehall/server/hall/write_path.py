"""The one path every change takes, under the room's lock: check, apply to a draft, commit the
draft, make it the room, publish. In a cluster the owner does it; the others pass it on.

`WritePath.execute` answers with an `Outcome`: whether this node changed the room (the requester
then renders it from the return value, not from the broadcast) and the replies for the
requester, so no caller ever sees an internal marker."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from gamehall.core.messages import Message, msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.host import Answer, NotOwner, Unreachable
from gamehall.server.cluster.node import Cluster
from gamehall.server.engines.hints import HintCache, answer_hint
from gamehall.server.engines.pool import BotPool, bot_levels, bot_spec
from gamehall.server.hall.events import HallEvents
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.timekeeper import Timekeeper
from gamehall.server.hall.watchers import Watchers
from gamehall.server.ops.limiter import Limiter
from gamehall.server.ops.metrics import Metrics
from gamehall.server.ops.settings import Settings
from gamehall.server.pubsub.in_process import Event, PubSub
from gamehall.server.storage import ChatLine, Fenced, Storage, room_row
from gamehall.server.table import protocol as proto
from gamehall.server.table.changes import (
    MANAGING,
    Berserk,
    Claim,
    Join,
    Leave,
    PlayMove,
    PlayTurn,
    Rematch,
    Resign,
    SeatBot,
    SetClock,
    SetOption,
    SetRated,
    Spectate,
    Start,
    change_of,
)
from gamehall.server.table.clocks import stamp
from gamehall.server.table.commands import help_text, parse_command
from gamehall.server.table.errors import RoomError
from gamehall.server.table.options import Boards
from gamehall.server.table.protocol import ProtocolError, Request
from gamehall.server.table.room import FINISHED, PLAYING, WAITING, Move, Room
from gamehall.server.table.room_facts import now
from gamehall.server.table.sentences import joined, outcome_arg, seat_arg

log = logging.getLogger("gamehall.server")

SYSTEM_RANDOM = random.SystemRandom()
"""Chance is drawn from the operating system's generator: nothing a client saw predicts it."""

Applied = tuple[Message | None, list[Move]] | None
"""What a change did: the notice for everyone and the moves played (None: nothing to do)."""


@dataclass(frozen=True)
class Outcome:
    """What one request did, for the requester: `changed` — this node changed the room (render
    it now); `resync` — send the whole room again (``sync``); `replies` — messages of the
    protocol for the requester alone."""

    changed: bool = False
    resync: bool = False
    replies: list[dict[str, Any]] = field(default_factory=list)


class WritePath:
    """Carries out requests: the read-only ones at once, changes under the room's lock."""

    def __init__(self, keeper: RoomKeeper, watchers: Watchers, timekeeper: Timekeeper,
                 events: HallEvents, storage: Storage, pubsub: PubSub, cluster: Cluster | None,
                 bots: BotPool, limiter: Limiter, settings: Settings, boards: Boards,
                 metrics: Metrics, clock: Callable[[], float]) -> None:
        self.keeper, self.watchers, self.timekeeper, self.events = (
            keeper, watchers, timekeeper, events)
        self.storage, self.pubsub, self.cluster = storage, pubsub, cluster
        self.bots, self.limiter, self.settings, self.boards = bots, limiter, settings, boards
        self.metrics, self.clock = metrics, clock
        self.hints = HintCache()
        """The hints this node thought out, by position and seat: asked again, they are free."""
        self.changed: Callable[[Room], None] = lambda _room: None
        """Handed over at assembly: a room this node changed (its house bot may be to move)."""

    async def settle_time(self, live: Room) -> Room:
        """If the running seat's time is up, it drops out now, a change committed like any other
        (under the room's lock, before every change): the room as it is then."""
        t = self.clock()
        if not live.time_is_up(t):
            return live
        draft = live.draft()
        seat = draft.time_out(t)
        await self.commit(live, draft, [])
        said = (msg("info.game_over", outcome=outcome_arg(draft)) if draft.outcome
                else msg("info.time_up")) if draft.status == FINISHED else \
            msg("info.time_out", who=draft.person(seat))
        await self.pubsub.publish(live.id, {"event": "message", "message": proto.info(said)})
        return self.keeper.rooms.get(live.id, draft)

    async def execute(self, room: Room, player: Player | None, req: Request) -> Outcome:
        """Carry out one request; return what it did for the requester (broadcasts go out
        too). A change this node carried out is `Outcome.changed`: the requester renders the
        room now, from the return value, not from the broadcast (which it then skips as already
        seen).

        Raises ProtocolError or RoomError for a refused request, which then changed nothing.
        """
        if req.kind == "chat" and req.args["text"].lstrip().startswith("/"):
            req = parse_command(req.args["text"], req.ref)
        question = "rated?" if req.kind == "rated" and "value" not in req.args else req.kind
        answer = self.ANSWERS.get(question)
        if answer is not None:
            return Outcome(replies=[answer(self, room, req)])
        if req.kind == "sync":
            return Outcome(resync=True)
        if req.kind == "identify":
            raise ProtocolError(proto.UNKNOWN_TYPE, msg("error.identify_over_http"), req.ref)
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"), req.ref)
        if req.kind == "chat":
            await self._chat_line(room, player, req.args["text"])
            return Outcome()
        if req.kind == "preview":  # read only: played on a draft that is never committed
            return Outcome(replies=[self._preview(room, player, req)])
        if req.kind == "hint":  # read only: thought out here, on any node that has the room
            hint = await answer_hint(self.bots, self.limiter, self.settings, room, player, req,
                                     self.hints)
            return Outcome(replies=[hint])
        if req.kind == "join":
            await self.events.joining(player)
        if self.cluster is not None:
            return await self._execute_at_owner(room.id, player, req)
        return await self.execute_here(room.id, player, req)

    @staticmethod
    def _preview(room: Room, player: Player, req: Request) -> dict[str, Any]:
        """The position after the steps `req` lists, as the mover would see it, from a draft of
        `room` that is thrown away: a turn being composed on the page, shown before it is sent.
        `open`: the turn goes on (the same seat still moves, and no chance, no other seat, not
        the end, not a new turn of its own comes first), and `legal` lists its next steps."""
        draft = room.draft()
        steps = draft.play_steps(player.id, req.args["moves"], req.args["version"])
        seat = steps[0].seat
        shown = draft.snapshot(seat, set(), with_moves=False)
        state = draft.state
        legal = state.legal_actions() if state is not None and draft.status == PLAYING else []
        still = state is not None and bool(legal) and state.current_player() == seat \
            and not draft.game.starts_turn(state, legal[0])
        out = {"type": "preview", "room": room.id, "version": draft.version, "open": still,
               "steps": [m.to_json() for m in steps],
               **{k: shown[k] for k in ("status", "to_move", "legal_moves", "legal", "view")}}
        if not still:
            out["legal_moves"], out["legal"] = [], []
        if req.ref is not None:
            out["id"] = req.ref
        return out

    def _pong(self, room: Room, req: Request) -> dict[str, Any]:
        return {"type": "pong", **({"id": req.ref} if req.ref is not None else {})}

    def _help(self, room: Room, req: Request) -> dict[str, Any]:
        return proto.info(help_text(), req.ref)

    def _who(self, room: Room, req: Request) -> dict[str, Any]:
        return proto.info(self.watchers.who(room), req.ref)

    def _options(self, room: Room, req: Request) -> dict[str, Any]:
        opts = [f"{k}={v}" for k, v in room.game.shown_options().items()]
        return proto.info(msg("info.options", options=joined(opts)) if opts
                          else msg("info.options_none"), req.ref)

    def _clocks(self, room: Room, req: Request) -> dict[str, Any]:
        return proto.info(self._clocks_text(room), req.ref)

    def _rated(self, room: Room, req: Request) -> dict[str, Any]:
        return proto.info(rated_text(room), req.ref)

    ANSWERS: dict[str, Callable[[WritePath, Room, Request], dict[str, Any]]] = {
        "ping": _pong, "help": _help, "who": _who, "options": _options, "clocks": _clocks,
        "rated?": _rated,
    }
    """The questions anyone may ask (no identity needed, nothing changes): their answers."""

    async def execute_here(self, room_id: str, player: Player, req: Request,
                           answer: Answer | None = None) -> Outcome:
        """A state-changing request for a room this node owns (every room, on a single node);
        `answer`: another node's request, answered by the state event of its change."""
        async with self.keeper.lock(room_id):
            if self.cluster is not None and self.cluster.fence(room_id) is None:
                raise NotOwner(room_id)
            live = self.keeper.rooms.get(room_id) or await self.keeper.get_room(room_id)
            if live.seat_of(player.id) is not None:
                self.timekeeper.seen(room_id, player.id)
            live = await self.settle_time(live)
            draft = live.draft()
            change = self._change(draft, player, req)
            if change is not None:
                rematch = self._rematch_room(draft) if draft.rematch_agreed() else None
                await self.commit(live, draft, change[1], rematch, answer=answer)
        if change is not None and change[0]:
            message = proto.info(change[0])
            await self.pubsub.publish(room_id, {"event": "message", "message": message})
        now = self.keeper.rooms.get(room_id)
        for one in (room_id, now.rematch if now is not None else None):
            now_live = self.keeper.rooms.get(one) if one is not None else None
            if now_live is not None:
                self.changed(now_live)
        self.keeper.maybe_evict(room_id)
        return Outcome(changed=change is not None)

    async def _execute_at_owner(self, room_id: str, player: Player, req: Request) -> Outcome:
        """Carry out the request here when this node owns the room, else have the owner do it.
        While the room changes hands (its owner died) the request waits, up to a lease period
        and a forwarding timeout; it is only ever sent again when it certainly did not arrive."""
        assert self.cluster is not None
        cluster = self.cluster
        deadline = time.monotonic() + cluster.lease_ms / 1000 + cluster.handover_wait
        while True:
            try:
                holder = await cluster.owner(room_id)
                if holder == cluster.holder:
                    return await self.execute_here(room_id, player, req)
                if holder is not None:
                    start = time.perf_counter()
                    replies = await cluster.forward(
                        holder, room_id, (player.id, player.nickname, player.account), req)
                    self.metrics.forward_seconds.observe(time.perf_counter() - start)
                    return Outcome(replies=replies)  # the change: learnt from its commit
            except (NotOwner, Unreachable):
                cluster.forget_owner(room_id)
            except RoomError as exc:
                if exc.code == "room_unavailable":
                    cluster.forget_owner(room_id)
                if exc.code != "room_unavailable" or not await self._was_played(room_id, player,
                                                                                req):
                    raise
                return Outcome()
            except (RedisError, OSError) as exc:
                log.warning("cannot reach Redis for room %s: %s", room_id, exc)
            if time.monotonic() > deadline:
                raise RoomError("room_unavailable", msg("error.room.changing_server"))
            await asyncio.sleep(0.1)

    async def _was_played(self, room_id: str, player: Player, req: Request) -> bool:
        """Whether a move whose answer was lost (the owner went silent) is in the stored game:
        then it counts as done, and the player is not told to try it again."""
        if req.kind not in ("move", "turn"):
            return False
        stored = await self.storage.load_room(room_id)
        at = req.args["version"]
        sent = req.args["moves"] if req.kind == "turn" else [req.args["move"]]
        if stored is None or stored.version < at + len(sent):
            return False
        seat = stored.seat_of(player.id)
        return all(played.seat == seat and played.move.lower() == " ".join(typed.split()).lower()
                   for played, typed in zip(stored.moves[at:at + len(sent)], sent, strict=True))

    def _change(self, room: Room, player: Player,
                req: Request) -> tuple[Message | None, list[Move]] | None:
        """Apply a state-changing request to `room` (a draft): the notice for everyone and the
        moves played, or None when there is nothing to do. Raises for a refused request."""
        change = change_of(req)
        if change is None:
            raise ProtocolError(proto.UNKNOWN_TYPE, msg("error.not_room_action", kind=req.kind),
                                req.ref)
        if isinstance(change, MANAGING) or (isinstance(change, Leave) and change.seat is not None
                                            and (occ := room.seats[room.seat_index(change.seat)])
                                            and occ.bot is not None):
            self._check_may_manage(room, player)
        return self.APPLY[type(change)](self, room, player, change)

    def _play(self, room: Room, player: Player, change: PlayMove) -> Applied:
        seat, action = room.check_move(player.id, change.move, change.version)
        return None, [room.apply(seat, action), *room.resolve_chance(SYSTEM_RANDOM)]

    def _turn(self, room: Room, player: Player, change: PlayTurn) -> Applied:
        steps = room.play_steps(player.id, change.moves, change.version)
        return None, [*steps, *room.resolve_chance(SYSTEM_RANDOM)]

    def _join(self, room: Room, player: Player, change: Join) -> Applied:
        seat = room.join(player.id, player.nickname, change.seat, account=player.account)
        return msg("info.joined", player=player.nickname, seat=seat_arg(room.game, seat)), []

    def _leave(self, room: Room, player: Player, change: Leave | Spectate) -> Applied:
        if isinstance(change, Spectate) and room.seat_of(player.id) is None:
            return None
        seat = room.leave(player.id, change.seat if isinstance(change, Leave) else None)
        return msg("info.left", player=player.nickname, seat=seat_arg(room.game, seat)), []

    def _seat_bot(self, room: Room, player: Player, change: SeatBot) -> Applied:
        who = player.nickname
        _check_bot_word(room, change)
        spec = bot_spec(change.level, self.bots.limits)
        target = self._person_for_bot(room, change.seat)
        if target is None:
            seat = room.set_bot(spec, f"{spec} bot", change.seat)
            return msg("info.bot_seated", player=who, level=spec,
                       seat=seat_arg(room.game, seat)), []
        if target != room.to_move():
            room.set_bot(spec, f"{spec} bot", target)  # refused: a person holds it
        if target != self.timekeeper.claimable(room):
            raise RoomError("not_absent", self.timekeeper.not_absent(room))
        absent = room.person(target)
        room.hand_to_bot(player.id, target, spec, f"{spec} bot")
        return msg("info.handed_to_bot", player=who, absent=absent, level=spec), []

    def _set_clock(self, room: Room, player: Player, change: SetClock) -> Applied:
        control = room.set_clock(change.control)
        return (msg("info.clock_set", player=player.nickname, control=control.text) if control
                else msg("info.clock_off", player=player.nickname)), []

    def _claim(self, room: Room, player: Player, change: Claim) -> Applied:
        away = self.timekeeper.claimable(room)
        room.claim(player.id, away, self.timekeeper.not_absent(room) if away is None else "")
        assert away is not None
        return (msg("info.claimed_game", player=player.nickname, outcome=outcome_arg(room))
                if room.status == FINISHED else
                msg("info.claimed_seat", player=player.nickname, absent=room.person(away))), []

    def _rematch(self, room: Room, player: Player, change: Rematch) -> Applied:
        return msg("info.rematch_starts" if room.ask_rematch(player.id)
                   else "info.rematch_asked", player=player.nickname), []

    def _set_option(self, room: Room, player: Player, change: SetOption) -> Applied:
        ((key, value),) = self.boards.check(type(room.game), {change.key: change.value}).items()
        return msg("info.option_set", player=player.nickname, option=key,
                   value=str(room.set_option(key, value))), []

    def _start(self, room: Room, player: Player, change: Start) -> Applied:
        room.start()
        return msg("info.started", player=player.nickname), room.resolve_chance(SYSTEM_RANDOM)

    def _resign(self, room: Room, player: Player, change: Resign) -> Applied:
        seat = room.resign(player.id)
        return msg("info.resigned", player=player.nickname, seat=seat_arg(room.game, seat)), []

    def _berserk(self, room: Room, player: Player, change: Berserk) -> Applied:
        seat = room.go_berserk(player.id)
        return msg("info.berserk", player=player.nickname, seat=seat_arg(room.game, seat)), []

    def _set_rated(self, room: Room, player: Player, change: SetRated) -> Applied:
        room.set_rated(change.value)
        return msg("info.rated_set", player=player.nickname, rated=_yes(change.value)), []

    APPLY: dict[type, Callable[[WritePath, Room, Player, Any], Applied]] = {
        PlayMove: _play, PlayTurn: _turn, Join: _join, Leave: _leave, Spectate: _leave,
        SeatBot: _seat_bot, SetClock: _set_clock, Claim: _claim, Rematch: _rematch,
        SetOption: _set_option, Start: _start, Resign: _resign, SetRated: _set_rated,
        Berserk: _berserk,
    }
    """Each change's handler: it applies the change to the draft and says what to tell."""

    @staticmethod
    def _check_may_manage(room: Room, player: Player) -> None:
        """Options, bots and the start belong to the people at the table: anyone seated, the
        room's creator, or anyone at all while no person sits (an all-bot table)."""
        people = [o for o in room.seats if o is not None and o.player_id is not None]
        if room.seat_of(player.id) is None and player.nickname != room.created_by and people:
            raise RoomError("not_seated", msg("error.manage.not_seated"))

    def _person_for_bot(self, room: Room, ref: str | int | None) -> int | None:
        """In a running game, the person's seat a ``bot`` request would take: the named one, or
        with none named and no seat free, the seat to move (only an absent player's may be)."""
        if room.status != PLAYING:
            return None
        if ref is not None:
            seat = room.seat_index(ref)
        elif any(occ is None for occ in room.seats):
            return None
        else:
            to_move = room.to_move()
            seat = to_move if to_move is not None else 0
        occ = room.seats[seat]
        return seat if occ is not None and occ.plays() else None

    def _clocks_text(self, room: Room) -> Message:
        clock = room.clock_json(self.clock())
        if clock is None:
            return msg("info.clocks.none", seconds=self.settings.absent_seconds)
        times = [msg("info.clocks.seat", who=room.person(i), time=_shown(ms),
                     running=_yes(clock["running"] == i))
                 for i, ms in enumerate(clock["remaining_ms"])]
        return msg("info.clocks", control=clock["control"], times=joined(times))

    @staticmethod
    def _rematch_room(room: Room) -> tuple[Room, list[Move]]:
        """Every person who played asked: the same game with the same players, clock and
        rated-or-casual, seats moved on by one, started; `room` (a draft) now points to it."""
        new = Room(id=secrets.token_urlsafe(6), game_name=room.game_name,
                   options=dict(room.options), created_by=room.created_by,
                   seed=secrets.randbits(63), seats=room.rematch_seats(),
                   rematch_of=room.id, time_control=room.time_control, rated=room.rated)
        moves: list[Move] = []
        if all(occ is not None for occ in new.seats):
            new.start()
            moves = new.resolve_chance(SYSTEM_RANDOM)
        room.rematch = new.id
        return new, moves

    async def commit(self, live: Room, draft: Room, moves: list[Move],
                      also: tuple[Room, list[Move]] | None = None,
                      answer: Answer | None = None) -> None:
        """Store `draft` (the live room with a change applied) and its new moves, then make it
        the room and tell every connection. `also` is a new room committed in the same
        transaction (a rematch) and made live with it. On failure the room is reloaded from
        storage (the commit may have happened after all) and every connection is sent it again.

        The commit that ends a game also records who played it and, for a rated game, every
        seat's new rating, in the same transaction (so neither exists without the other).

        In a cluster the commit carries this node's fencing number for the room (and a new
        rematch room gets a lease of its own); when the database refuses it, another node has
        taken the room: NotOwner (nothing changed). `answer`: the forwarded request this commit
        carries out, whose caller learns from the state event that it is done."""
        t = self.clock()
        draft.settle_clock(t)
        draft.revision = live.revision + 1
        ending = draft.status == FINISHED and draft.ended_at is None
        if ending:
            draft.ended_at = stamp(t)
        fence = new_fence = None
        if self.cluster is not None:
            fence = self.cluster.fence(live.id)
            if fence is None:
                raise NotOwner(live.id)
            if also is not None:
                new_fence = await self.cluster.create(also[0].id)
                await self.keeper.watch(also[0].id)
        start = time.perf_counter()
        try:
            if also is None:
                changes = await self.storage.save_room(draft, moves, finished=ending, fence=fence)
                if ending:
                    draft.rating_changes = changes
            else:  # a rematch: the new room starts, the old one had ended before
                also[0].settle_clock(t)
                await self.storage.save_rooms([also, (draft, moves)], [new_fence, fence])
        except Fenced:
            self.metrics.fenced.inc()
            log.warning("room %s was taken by another node; this node's change is dropped",
                        live.id)
            if self.cluster is not None:
                if also is not None:
                    await self.cluster.release(also[0].id)
                self.cluster.lost(live.id)
            raise NotOwner(live.id) from None
        except Exception:
            log.exception("could not store room %s; reloading it", live.id)
            await self._restore(live)
            raise RoomError("storage_error", msg("error.storage.save")) from None
        self.metrics.commit_seconds.observe(time.perf_counter() - start)
        self.metrics.moves.inc(len(moves))
        for made in ([also[0]] if also is not None else []) + [draft]:
            self.keeper.install(made)
            self.timekeeper.plan(made)
            self.events.room_changed(made)
        start = time.perf_counter()
        event = self._state_event(live, draft, moves)
        if answer is None or self.cluster is None or answer.room != draft.id:
            await self.pubsub.publish(draft.id, event)
        else:  # the caller's node follows the room: this event answers its request too
            self.pubsub.deliver_local(draft.id, event)
            answer.folded = await self.cluster.pubsub.publish_remote(
                draft.id, {**event, "answered": [answer.id]})
        self.metrics.broadcast_seconds.observe(time.perf_counter() - start)
        for made, before in ([(also[0], None)] if also is not None else []) + [(draft, live)]:
            if made.status in (PLAYING, FINISHED) and (before is None
                                                       or before.status != made.status):
                await self.events.game_changed(made)  # the players' event streams learn it

    def _state_event(self, live: Room, draft: Room, moves: list[Move]) -> Event:
        """What a commit publishes: in a cluster, with what the other nodes need to follow it
        (the row and the actions played since `live`)."""
        if self.cluster is None:
            return {"event": "state"}
        return {"event": "state", "revision": draft.revision, "from": live.version,
                "moves": [[m.seat, m.action] for m in moves], "row": room_row(draft)}

    async def _restore(self, live: Room) -> None:
        try:
            fresh = await self.storage.load_room(live.id)
        except Exception:
            log.exception("could not reload room %s; keeping it as it was", live.id)
            fresh = None
        if self.keeper.rooms.get(live.id) is live:
            self.keeper.install(fresh if fresh is not None else live)
        await self.pubsub.publish(live.id, self.resync_event(live.id))

    def resync_event(self, room_id: str) -> Event:
        """Tells this node's connections to render the room, and other nodes to reload their
        copy if it is not at the room's revision."""
        room = self.keeper.rooms.get(room_id)
        return {"event": "state", "resync": room.revision if room is not None else -1}

    async def _chat_line(self, room: Room, player: Player, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise ProtocolError(proto.BAD_MESSAGE, msg("error.chat.empty"))
        line = ChatLine(player.nickname, text, now())
        await self.keeper.add_chat(room, line)
        message = proto.chat(line.sender, line.text, line.at)
        await self.pubsub.publish(room.id, {"event": "message", "message": message})


def _check_bot_word(room: Room, change: SeatBot) -> None:
    """``/bot superhard``: a word that is neither a level nor one of the game's seats was most
    likely meant as a level, so the refusal names the levels (and the seats)."""
    if change.level is not None or not isinstance(change.seat, str):
        return
    try:
        room.seat_index(change.seat)
    except RoomError:
        raise RoomError("bad_bot", msg("error.bot.unknown_word", word=change.seat[:40],
                                       levels=", ".join(bot_levels()),
                                       seats=", ".join(room.game.seat_names))) from None


def _shown(ms: int) -> str:
    """Time left as people read it: 4:05, 1:02:03, or 2d 3h."""
    secs = ms // 1000
    if secs >= 86_400:
        return f"{secs // 86_400}d {secs % 86_400 // 3600}h"
    if secs >= 3600:
        return f"{secs // 3600}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    return f"{secs // 60}:{secs % 60:02d}"


def _yes(flag: object) -> str:
    """A yes/no argument as the catalogues' ``select`` reads it."""
    return "yes" if flag else "no"


def rated_text(room: Room) -> Message:
    """The answer to ``/rated``: whether the game counts, and why."""
    if room.status != WAITING:
        return msg("info.rated.is", rated=_yes(room.rated))
    if room.rated is not None:
        return msg("info.rated.will_be", rated=_yes(room.rated))
    if room.rated_now:
        return msg("info.rated.by_accounts")
    return msg("info.rated.by_guest")
