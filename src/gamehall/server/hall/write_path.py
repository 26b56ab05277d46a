"""The one path every change takes, under the room's lock: check, apply to a draft, commit the
draft, make it the room, publish. In a cluster the owner does it; the others pass it on."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from redis.exceptions import RedisError

from gamehall.core.messages import Message, msg
from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.node import Answer, NotOwner, Unreachable
from gamehall.server.engines.hints import answer_hint
from gamehall.server.engines.pool import bot_spec
from gamehall.server.hall.core import SYSTEM_RANDOM, HallCore, log
from gamehall.server.pubsub.in_process import Event
from gamehall.server.storage import ChatLine, Fenced, room_row
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import stamp
from gamehall.server.table.commands import help_text, parse_command
from gamehall.server.table.errors import RoomError
from gamehall.server.table.protocol import ProtocolError, Request
from gamehall.server.table.room import FINISHED, PLAYING, WAITING, Move, Room, now
from gamehall.server.table.sentences import joined, outcome_arg, seat_arg

CHANGED: dict[str, Any] = {"type": "changed"}
"""The reply that says the request changed the room (`WritePath.execute`); never sent as is."""

MANAGING = {"option", "bot", "start", "rated", "clock"}
"""Requests that set up the table (see `WritePath._check_may_manage`)."""


class WritePath(HallCore):
    async def _settle_time(self, live: Room) -> Room:
        """If the running seat's time is up, it drops out now, a change committed like any other
        (under the room's lock, before every change): the room as it is then."""
        t = self.clock()
        if not live.time_is_up(t):
            return live
        draft = live.draft()
        seat = draft.time_out(t)
        await self._commit(live, draft, [])
        said = (msg("info.game_over", outcome=outcome_arg(draft)) if draft.outcome
                else msg("info.time_up")) if draft.status == FINISHED else \
            msg("info.time_out", who=draft.person(seat))
        await self.pubsub.publish(live.id, {"event": "message", "message": proto.info(said)})
        return self.rooms.get(live.id, draft)

    async def execute(self, room: Room, player: Player | None,
                      req: Request) -> list[dict[str, Any]]:
        """Carry out one request; return the replies for the requester (broadcasts go out too).
        A change this node carried out answers with `CHANGED` among them: the requester renders
        the room now, from the return value, not from the broadcast (which it then skips as
        already seen).

        Raises ProtocolError or RoomError for a refused request, which then changed nothing.
        """
        if req.kind == "chat" and req.args["text"].lstrip().startswith("/"):
            req = parse_command(req.args["text"], req.ref)
        if req.kind == "ping":
            return [{"type": "pong", **({"id": req.ref} if req.ref is not None else {})}]
        if req.kind == "help":
            return [proto.info(help_text(), req.ref)]
        if req.kind == "who":
            return [proto.info(self._who(room), req.ref)]
        if req.kind == "options":
            opts = [f"{k}={v}" for k, v in room.game.shown_options().items()]
            return [proto.info(msg("info.options", options=joined(opts)) if opts
                               else msg("info.options_none"), req.ref)]
        if req.kind == "clocks":
            return [proto.info(self._clocks_text(room), req.ref)]
        if req.kind == "sync":
            return [{"type": "sync"}]
        if req.kind == "identify":
            raise ProtocolError(proto.UNKNOWN_TYPE, msg("error.identify_over_http"), req.ref)
        if req.kind == "rated" and "value" not in req.args:
            return [proto.info(rated_text(room), req.ref)]
        if player is None:
            raise ProtocolError(proto.NOT_IDENTIFIED, msg("error.not_identified"), req.ref)
        if req.kind == "chat":
            await self._chat_line(room, player, req.args["text"])
            return []
        if req.kind == "hint":  # read only: thought out here, on any node that has the room
            return [await answer_hint(self.bots, self.limiter, self.settings, room, player, req)]
        if req.kind == "join" and await self.is_bot_account(player.id):
            raise RoomError("bot_account", msg("error.bot_account.join"))
        if self.cluster is not None:
            return await self._execute_at_owner(room.id, player, req)
        return await self._execute_here(room.id, player, req)

    async def _execute_here(self, room_id: str, player: Player, req: Request,
                            answer: Answer | None = None) -> list[dict[str, Any]]:
        """A state-changing request for a room this node owns (every room, on a single node);
        `answer`: another node's request, answered by the state event of its change."""
        async with self._lock(room_id):
            if self.cluster is not None and self.cluster.fence(room_id) is None:
                raise NotOwner(room_id)
            live = self.rooms.get(room_id) or await self.get_room(room_id)
            if live.seat_of(player.id) is not None:
                self._presence.seen(room_id, player.id, self.clock())
            live = await self._settle_time(live)
            draft = live.draft()
            change = self._change(draft, player, req)
            if change is not None:
                rematch = self._rematch_room(draft) if draft.rematch_agreed() else None
                await self._commit(live, draft, change[1], rematch, answer=answer)
        if change is not None and change[0]:
            message = proto.info(change[0])
            await self.pubsub.publish(room_id, {"event": "message", "message": message})
        now = self.rooms.get(room_id)
        for one in (room_id, now.rematch if now is not None else None):
            now_live = self.rooms.get(one) if one is not None else None
            if now_live is not None:
                self._schedule_bot(now_live)
        self._maybe_evict(room_id)
        return [CHANGED] if change is not None else []

    async def _execute_at_owner(self, room_id: str, player: Player,
                                req: Request) -> list[dict[str, Any]]:
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
                    return await self._execute_here(room_id, player, req)
                if holder is not None:
                    start = time.perf_counter()
                    replies = await cluster.forward(
                        holder, room_id, (player.id, player.nickname, player.account), req)
                    self.metrics.forward_seconds.observe(time.perf_counter() - start)
                    return replies
            except (NotOwner, Unreachable):
                cluster.forget_owner(room_id)
            except RoomError as exc:
                if exc.code == "room_unavailable":
                    cluster.forget_owner(room_id)
                if exc.code != "room_unavailable" or not await self._was_played(room_id, player,
                                                                                req):
                    raise
                return []
            except (RedisError, OSError) as exc:
                log.warning("cannot reach Redis for room %s: %s", room_id, exc)
            if time.monotonic() > deadline:
                raise RoomError("room_unavailable", msg("error.room.changing_server"))
            await asyncio.sleep(0.1)

    async def _was_played(self, room_id: str, player: Player, req: Request) -> bool:
        """Whether a move whose answer was lost (the owner went silent) is in the stored game:
        then it counts as done, and the player is not told to try it again."""
        if req.kind != "move":
            return False
        stored = await self.storage.load_room(room_id)
        at = req.args["version"]
        if stored is None or stored.version <= at:
            return False
        played = stored.moves[at]
        typed = " ".join(str(req.args["move"]).split()).lower()
        return played.seat == stored.seat_of(player.id) and played.move.lower() == typed

    def _change(self, room: Room, player: Player,
                req: Request) -> tuple[Message | None, list[Move]] | None:
        """Apply a state-changing request to `room` (a draft): the notice for everyone and the
        moves played, or None when there is nothing to do. Raises for a refused request."""
        a = req.args
        if req.kind in MANAGING or (req.kind == "leave" and a.get("seat") is not None
                                    and (occ := room.seats[room.seat_index(a["seat"])])
                                    and occ.bot is not None):
            self._check_may_manage(room, player)
        moves: list[Move] = []
        notice: Message | None
        who = player.nickname
        if req.kind == "move":
            seat, action = room.check_move(player.id, a["move"], a["version"])
            moves = [room.apply(seat, action), *room.resolve_chance(SYSTEM_RANDOM)]
            notice = None
        elif req.kind == "join":
            seat = room.join(player.id, player.nickname, a.get("seat"), account=player.account)
            notice = msg("info.joined", player=who, seat=seat_arg(room.game, seat))
        elif req.kind in ("leave", "spectate"):
            if req.kind == "spectate" and room.seat_of(player.id) is None:
                return None
            seat = room.leave(player.id, a.get("seat"))
            notice = msg("info.left", player=who, seat=seat_arg(room.game, seat))
        elif req.kind == "bot":
            spec = bot_spec(a.get("level"), self.bots.limits)
            target = self._person_for_bot(room, a.get("seat"))
            if target is not None:
                if target != room.to_move():
                    room.set_bot(spec, f"{spec} bot", target)  # refused: a person holds it
                if target != self._claimable(room):
                    raise RoomError("not_absent", self._not_absent(room))
                absent = room.person(target)
                room.hand_to_bot(player.id, target, spec, f"{spec} bot")
                notice = msg("info.handed_to_bot", player=who, absent=absent, level=spec)
            else:
                seat = room.set_bot(spec, f"{spec} bot", a.get("seat"))
                notice = msg("info.bot_seated", player=who, level=spec,
                             seat=seat_arg(room.game, seat))
        elif req.kind == "clock":
            control = room.set_clock(a.get("control"))
            notice = (msg("info.clock_set", player=who, control=control.text) if control
                      else msg("info.clock_off", player=who))
        elif req.kind == "claim":
            away = self._claimable(room)
            room.claim(player.id, away, self._not_absent(room) if away is None else "")
            assert away is not None
            notice = (msg("info.claimed_game", player=who, outcome=outcome_arg(room))
                      if room.status == FINISHED else
                      msg("info.claimed_seat", player=who, absent=room.person(away)))
        elif req.kind == "rematch":
            notice = msg("info.rematch_starts" if room.ask_rematch(player.id)
                         else "info.rematch_asked", player=who)
        elif req.kind == "option":
            ((key, value),) = self.boards.check(type(room.game), {a["key"]: a["value"]}).items()
            notice = msg("info.option_set", player=who, option=key,
                         value=str(room.set_option(key, value)))
        elif req.kind == "start":
            room.start()
            moves = room.resolve_chance(SYSTEM_RANDOM)
            notice = msg("info.started", player=who)
        elif req.kind == "resign":
            notice = msg("info.resigned", player=who, seat=seat_arg(room.game,
                                                                    room.resign(player.id)))
        elif req.kind == "rated":
            room.set_rated(a["value"])
            notice = msg("info.rated_set", player=who, rated=_yes(a["value"]))
        else:
            raise ProtocolError(proto.UNKNOWN_TYPE, msg("error.not_room_action", kind=req.kind),
                                req.ref)
        return notice, moves

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

    def _claimable(self, room: Room) -> int | None:
        """The seat of the absent person to move, once the others may claim against it."""
        away = self.absence(room)
        return away["seat"] if away is not None and away["claim_in_ms"] == 0 else None

    def _not_absent(self, room: Room) -> Message:
        away = self.absence(room)
        if away is None:
            return msg("error.claim.nobody_absent")
        wait = -(-away["claim_in_ms"] // 1000)
        return msg("error.claim.wait", player=away["player"], seconds=wait)

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

    async def _commit(self, live: Room, draft: Room, moves: list[Move],
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
                await self._watch(also[0].id)
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
            self._install(made)
            self._plan(made)
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
                await self._announce_game(made)  # the players' event streams learn it

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
        if self.rooms.get(live.id) is live:
            self._install(fresh if fresh is not None else live)
        await self.pubsub.publish(live.id, self._resync_event(live.id))

    def _resync_event(self, room_id: str) -> Event:
        """Tells this node's connections to render the room, and other nodes to reload their
        copy if it is not at the room's revision."""
        room = self.rooms.get(room_id)
        return {"event": "state", "resync": room.revision if room is not None else -1}

    async def _chat_line(self, room: Room, player: Player, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            raise ProtocolError(proto.BAD_MESSAGE, msg("error.chat.empty"))
        line = ChatLine(player.nickname, text, now())
        kept = self.cluster is None or room.id in self.rooms
        if kept:
            await self.chat_history(room.id)  # before the line is stored: it is added once
        await self.storage.add_chat(room.id, line, keep=self.settings.chat_keep)
        if kept:
            self._chat[room.id].append(line)
        message = proto.chat(line.sender, line.text, line.at)
        await self.pubsub.publish(room.id, {"event": "message", "message": message})


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
