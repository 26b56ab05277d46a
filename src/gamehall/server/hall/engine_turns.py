"""The bots' turns: one task per room plays while a bot is to move (on the room's owner)."""

from __future__ import annotations

import asyncio
import secrets

from gamehall.server.cluster.node import NotOwner
from gamehall.server.hall.core import SYSTEM_RANDOM, HallCore, log
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import Room


class BotTurns(HallCore):
    def _schedule_bot(self, room: Room) -> None:
        if self.cluster is not None and room.id not in self.cluster.owned:
            return  # the owner plays the bots
        if not self._closing and room.bot_to_move() and room.id not in self._bot_tasks:
            self._bot_tasks[room.id] = asyncio.create_task(self._bot_loop(room.id),
                                                           name=f"bot-{room.id}")

    async def _bot_loop(self, room_id: str) -> None:
        """Play the bots' turns in one room until a person is to move or the game ends."""
        try:
            while True:
                room = self.rooms.get(room_id)
                spec = room.bot_to_move() if room is not None else None
                if room is None or spec is None or room.state is None:
                    return
                await asyncio.sleep(self.settings.bot_delay)
                room = self.rooms.get(room_id)
                if room is None or room.state is None or room.bot_to_move() != spec:
                    continue
                version, seat = room.version, room.to_move()
                chosen = await self.bots.choose(spec, room.state, secrets.randbits(32), room_id)
                async with self._lock(room_id):
                    live = self.rooms.get(room_id)
                    if live is None or live.state is None or live.version != version \
                            or live.to_move() != seat or live.bot_to_move() != spec:
                        continue
                    draft = live.draft()
                    assert draft.state is not None
                    if chosen is None or not draft.state.is_legal(chosen):
                        chosen = SYSTEM_RANDOM.choice(draft.state.legal_actions())
                    moves = [draft.apply(seat, chosen), *draft.resolve_chance(SYSTEM_RANDOM)]
                    try:
                        await self._commit(live, draft, moves)
                    except RoomError:
                        await asyncio.sleep(1.0)  # storage trouble: try the turn again
                    except NotOwner:
                        return  # another node has the room and plays its bots
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of room %s stopped", room_id)
        finally:
            self._bot_tasks.pop(room_id, None)
            self._maybe_evict(room_id)
