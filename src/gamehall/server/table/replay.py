"""Replaying a room's record for the browser: the spectator's view after any number of moves.

The browser has no game engines, so to step through a finished game it asks for the position
after move `step` (``GET /api/rooms/{id}/replay/{step}``). The answer is `view(None)` — what a
spectator may see — so it tells nothing a spectator of the live game could not have seen. Chance
outcomes are actions in the record, so replaying the actions reproduces every position.

Stepping forward is the common case, so the last replayed position of a few rooms is kept and
the next step costs one action instead of a replay from the start.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from gamehall.core import GameRecord, State
from gamehall.core.messages import msg
from gamehall.core.phrases import beside
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import WAITING, Room

CACHED_ROOMS = 16


class ReplayCache:
    """The last replayed position per room (a few rooms), so stepping forward is cheap."""

    def __init__(self, size: int = CACHED_ROOMS) -> None:
        self.size = size
        self._positions: OrderedDict[str, tuple[int, State]] = OrderedDict()
        self._lock = threading.Lock()

    def position(self, room: Room, actions: list[int], step: int) -> State:
        """The state after the first `step` of `actions` (a fresh state the caller owns)."""
        with self._lock:
            cached = self._positions.get(room.id)
        if cached is not None and cached[0] <= step:
            at, state = cached[0], cached[1].clone()
        else:
            at, state = 0, room.game.new_initial_state(room.seed)
        for action in actions[at:step]:
            state.apply_action(action)
        with self._lock:
            self._positions[room.id] = (step, state.clone())
            self._positions.move_to_end(room.id)
            while len(self._positions) > self.size:
                self._positions.popitem(last=False)
        return state


async def replay_step(room: Room, step: int, cache: ReplayCache) -> dict[str, Any]:
    """The JSON answer for `GET /api/rooms/{id}/replay/{step}`."""
    if room.status == WAITING:
        raise RoomError("not_started", msg("error.replay.not_started"))
    moves = list(room.moves)
    if not 0 <= step <= len(moves):
        raise RoomError("bad_step", msg("error.replay.step", most=len(moves)))
    live = room.state
    if step == len(moves) and live is not None:
        state = live
    else:
        actions = [m.action for m in moves]
        state = await asyncio.to_thread(cache.position, room, actions, step)
    seat = state.current_player()
    return {
        "room": room.id,
        "step": step,
        "total": len(moves),
        "move": moves[step - 1].move if step else None,
        "to_move": seat if seat >= 0 else None,
        "view": state.view(None),
    }


def game_record(room: Room) -> dict[str, Any]:
    """The room's record in the `gamehall replay` format: moves with notation, players, result.

    The seed is never included. Every action in the record has already been played, and every
    chance outcome is public once drawn, so the record holds nothing a player could not see.
    """
    players = [o.nickname if o else "" for o in room.seats]
    rec = GameRecord(game=room.game_name, options=dict(room.options), players=players,
                     actions=[(m.action, m.move) for m in room.moves], seed=None,
                     result=room.result if room.ended_by == "rules" else None,
                     outcome=room.outcome)
    data = rec.to_dict()
    data.update({"room": room.id, "status": room.status, "ended_by": room.ended_by,
                 "final_result": room.result, **beside("outcome", room.outcome_message)})
    if room.status == WAITING:
        data["actions"] = []
    return data
