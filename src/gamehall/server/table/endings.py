"""The room's end-of-game sentences: the game's own outcome, or how the hall ended it (a
resignation, a clock, a claim) and who dropped out, as messages with keys (nested: the game's
sentence inside the hall's), so that each client says the end in its own language and a stored
game keeps its key and arguments (`Room.outcome_message`, stored as JSON beside the English).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamehall.core.messages import Arg, Message, msg
from gamehall.core.phrases import and_list
from gamehall.core.phrases import seat as phrase_seat

if TYPE_CHECKING:
    from gamehall.server.table.room_facts import RoomFacts

DROPPED = {"time": "room.outcome.time", "claim": "room.outcome.claim"}
"""Why a seat drops out (``time``, ``claim``): the key of the clause that says it."""


def person(room: RoomFacts, seat: int) -> Arg:
    """`Room.person` for a message: a name as it is; the seat's name, said in the reader's
    language, where nobody sits or beside a name two seats share (two "random bot"s)."""
    occ = room.seats[seat] if seat < len(room.seats) else None
    label = phrase_seat(room.game.seat_names[seat])
    if occ is None:
        return label
    if room.person(seat) != occ.nickname:
        return msg("room.person_seat", name=occ.nickname, seat=label)
    return occ.nickname


def people(room: RoomFacts, seats: Sequence[int]) -> Arg:
    """The persons of `seats`, joined by "and"."""
    return and_list([person(room, i) for i in seats])


def resigned(room: RoomFacts, seat: int) -> Message:
    return msg("room.outcome.resigned", who=person(room, seat))


def dropped(room: RoomFacts, seat: int, reason: str) -> Message:
    """`seat` ran out of time (``time``) or was away too long (``claim``)."""
    return msg(DROPPED[reason], who=person(room, seat))


def ended(room: RoomFacts, winners: Sequence[int], why: Message) -> Message:
    """The hall ended the game for `why` (`resigned`, `dropped`): the `winners` win."""
    return msg("room.outcome.ended", why=why, winners=people(room, winners), count=len(winners))


def ranked_last(room: RoomFacts, out: Sequence[int], top: Sequence[int], share: bool) -> Message:
    """The rules ended a game the seats `out` dropped out of: they rank last. With `share`
    (what they would have had went to the seats `top`) the sentence names those as winners,
    else it keeps the game's own sentence."""
    head: Message
    if share:
        head = msg("game.outcome.winners", winners=people(room, top), count=len(top))
    else:
        head = room.outcome_message or msg("room.outcome.over")
    return msg("room.outcome.dropped", head=head, dropped=people(room, out), count=len(out))
