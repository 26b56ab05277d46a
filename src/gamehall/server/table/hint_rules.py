"""When a seat may ask for a hint: pure, so that the state message says it (``hints``) and the
engines refuse with the same reason (`engines.hints.answer_hint`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.core.messages import msg
from gamehall.server.table.errors import RoomError
from gamehall.server.table.statuses import FINISHED, PLAYING

if TYPE_CHECKING:
    from gamehall.server.table.room_facts import RoomFacts


def hint_refusal(room: RoomFacts, seat: int | None) -> RoomError | None:
    """Why `seat` may not have a hint now (None: it may). Pure: the state message asks it too."""
    if seat is None:
        return RoomError("not_seated", msg("error.hint.not_player"))
    if room.status == FINISHED:
        return RoomError("game_over", msg("error.hint.game_over"))
    if room.status != PLAYING or room.state is None:
        return RoomError("not_started", msg("error.hint.not_started"))
    if room.rated_now:
        return RoomError("hints_rated", msg("error.hint.rated"))
    if not any(o is not None and o.bot is not None and o.player_id is None
               for o in room.seats):
        return RoomError("hints_no_bot", msg("error.hint.no_bot"))
    occ = room.seats[seat]
    if occ is None or not occ.plays():
        return RoomError("out_of_game", msg("error.hint.out"))
    if room.to_move() != seat:
        return RoomError("not_your_turn", msg("error.hint.not_your_turn"))
    return None


def hints_allowed(room: RoomFacts, seat: int | None) -> bool:
    """The state message's ``hints``: whether `seat` may ask for a hint now."""
    return hint_refusal(room, seat) is None
