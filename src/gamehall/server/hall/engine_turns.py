"""The house bots' turns: one task per room plays while a house bot is to move (on the room's
owner), thinking in the engines' worker processes and committing through the write path."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from gamehall.server.cluster.host import NotOwner
from gamehall.server.cluster.node import Cluster
from gamehall.server.engines.pool import BotPool
from gamehall.server.hall.keeper import RoomKeeper
from gamehall.server.hall.write_path import SYSTEM_RANDOM, WritePath, log
from gamehall.server.ops.settings import Settings
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import Room


class EngineTurns:
    """The tasks that play the house bots' turns, one per room."""

    def __init__(self, keeper: RoomKeeper, writes: WritePath, bots: BotPool,
                 settings: Settings, cluster: Cluster | None) -> None:
        self.keeper, self.writes, self.bots = keeper, writes, bots
        self.settings, self.cluster = settings, cluster
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False
        keeper.busy = lambda room_id: room_id in self.tasks
        writes.changed = self.schedule

    def schedule(self, room: Room) -> None:
        """Start the room's task if a house bot is to move and none plays yet."""
        if self.cluster is not None and room.id not in self.cluster.owned:
            return  # the owner plays the bots
        if not self.closing and room.bot_to_move() and room.id not in self.tasks:
            self.tasks[room.id] = asyncio.create_task(self._bot_loop(room.id),
                                                      name=f"bot-{room.id}")

    def stop_room(self, room_id: str) -> None:
        """Another node has the room: its task stops."""
        task = self.tasks.pop(room_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def stop(self) -> None:
        """The hall stops: every task is cancelled and awaited, then the workers close."""
        self.closing = True
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bots.close()

    async def _bot_loop(self, room_id: str) -> None:
        """Play the bots' turns in one room until a person is to move or the game ends."""
        try:
            while True:
                room = self.keeper.rooms.get(room_id)
                spec = room.bot_to_move() if room is not None else None
                if room is None or spec is None or room.state is None:
                    return
                await asyncio.sleep(self.settings.bot_delay)
                room = self.keeper.rooms.get(room_id)
                if room is None or room.state is None or room.bot_to_move() != spec:
                    continue
                version, seat = room.version, room.to_move()
                chosen = await self.bots.choose(spec, room.state, secrets.randbits(32), room_id)
                async with self.keeper.lock(room_id):
                    live = self.keeper.rooms.get(room_id)
                    if live is None or live.state is None or live.version != version \
                            or live.to_move() != seat or live.bot_to_move() != spec:
                        continue
                    draft = live.draft()
                    assert draft.state is not None
                    if chosen is None or not draft.state.is_legal(chosen):
                        chosen = SYSTEM_RANDOM.choice(draft.state.legal_actions())
                    moves = [draft.apply(seat, chosen), *draft.resolve_chance(SYSTEM_RANDOM)]
                    try:
                        await self.writes.commit(live, draft, moves)
                    except RoomError:
                        await asyncio.sleep(1.0)  # storage trouble: try the turn again
                    except NotOwner:
                        return  # another node has the room and plays its bots
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of room %s stopped", room_id)
        finally:
            self.tasks.pop(room_id, None)
            self.keeper.maybe_evict(room_id)
