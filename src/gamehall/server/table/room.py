"""A room: one game's table — seats, options, the position, the move list. Pure logic, no I/O.

The hall (hall.py) calls these methods under the room's lock, persists what changed, then
publishes. Every refusal is a `RoomError` with a stable code and a sentence for people; a refused
call changes nothing.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.core import (
    GamehallError,
    OptionValue,
    load_game,
)
from gamehall.core.messages import Message, msg
from gamehall.core.options import resolve_options
from gamehall.server.table import endings
from gamehall.server.table import room_json as roomjson
from gamehall.server.table.clocks import Clock, ClockError, TimeControl, parse_control
from gamehall.server.table.errors import RoomError, Said
from gamehall.server.table.moves import Move
from gamehall.server.table.room_facts import Occupant, RoomFacts
from gamehall.server.table.sentences import joined, reason_of, seat_arg
from gamehall.server.table.statuses import FINISHED, PLAYING, WAITING


@dataclass
class Room(RoomFacts):
    """One table and how it changes: seats taken and left, options, the start, moves, the ways a
    game ends, rematches. What a room is, and its facts, are `RoomFacts`'s."""

    def draft(self) -> Room:
        """A copy to change: the hall applies a request to it, commits it, and only then makes it
        the room everyone reads, so nothing unstored is ever shown.

        Moves are immutable, so a shallow copy of the move list suffices; the seats' occupants,
        the clock and the position are copied."""
        out = _shallow(self)
        out.options = dict(self.options)
        out.seats = [_shallow(o) if o is not None else None for o in self.seats]
        out.moves = list(self.moves)
        out.rendered = self.rendered.draft()
        if self.state is not None:
            out.state = self.state.clone()
        if self.clock is not None:
            out.clock = copy.deepcopy(self.clock)
        return out

    def _free_seat(self) -> int:
        for i, occ in enumerate(self.seats):
            if occ is None:
                return i
        raise RoomError("no_free_seat", msg("error.seat.none_free"))

    def check_open(self, seat: int | None = None) -> None:
        """Refuse a change of what an accepted challenge fixed: its seats (`seat`), or with no
        seat named the options, clock and rating (the terms both sides agreed)."""
        held = [i for i, o in enumerate(self.seats) if o is not None and o.challenged]
        if held and (seat is None or seat in held):
            raise RoomError("challenge_terms", msg("error.challenge.terms") if seat is None
                            else msg("error.challenge.terms_seat",
                                     seat=seat_arg(self.game, seat)))

    def _require(self, *statuses: str) -> None:
        if self.status in statuses:
            return
        if self.status == FINISHED:
            raise RoomError("game_over", msg("error.game.over"))
        if self.status == PLAYING:
            raise RoomError("already_started", msg("error.game.started"))
        raise RoomError("not_started", msg("error.game.not_started"))

    # --- seats -------------------------------------------------------------------------------
    def join(self, player_id: int, nickname: str, ref: str | int | None, account: bool = False,
             bot_account: bool = False, challenged: bool = False) -> int:
        """Seat a person: the named seat, or the first free one (first come, first seated)."""
        self._require(WAITING, PLAYING)
        held = self.seat_of(player_id)
        if held is not None:
            raise RoomError("already_seated",
                            msg("error.seat.already_seated", seat=seat_arg(self.game, held)))
        seat = self._free_seat() if ref is None else self.seat_index(ref)
        occ = self.seats[seat]
        if occ is not None:
            raise RoomError("seat_taken", msg("error.seat.taken", seat=seat_arg(self.game, seat),
                                              player=occ.nickname))
        self.seats[seat] = Occupant(nickname, player_id=player_id, account=account,
                                    bot_account=bot_account, challenged=challenged)
        self.rev += 1
        return seat

    def leave(self, player_id: int, ref: str | int | None) -> int:
        """Free your own seat, or (with a seat named) remove a bot from a seat."""
        self._require(WAITING, PLAYING)
        if ref is not None:
            seat = self.seat_index(ref)
            occ = self.seats[seat]
            if occ is None:
                raise RoomError("seat_empty",
                                msg("error.seat.empty", seat=seat_arg(self.game, seat)))
            if occ.player_id != player_id:
                if occ.bot is None:
                    raise RoomError("not_your_seat", msg("error.seat.not_yours",
                                                         seat=seat_arg(self.game, seat),
                                                         player=occ.nickname))
                if self.status != WAITING:
                    raise RoomError("already_started", msg("error.bot.stays"))
        else:
            held = self.seat_of(player_id)
            if held is None:
                raise RoomError("not_seated", msg("error.seat.none_held"))
            seat = held
        occ = self.seats[seat]
        if self.status == PLAYING and occ is not None and occ.player_id is not None:
            if occ.out:
                raise RoomError("out_of_game", msg("error.seat.already_out"))
            return self.resign(player_id)  # no empty seat in a running game: leaving resigns
        self.check_open(seat)
        self.seats[seat] = None
        self.rev += 1
        return seat

    def set_bot(self, spec: str, name: str, ref: str | int | None) -> int:
        """Seat a server-side bot in the named seat or the first free one (or re-level a bot)."""
        self._require(WAITING, PLAYING)
        seat = self._free_seat() if ref is None else self.seat_index(ref)
        occ = self.seats[seat]
        if occ is not None and occ.bot is None:
            raise RoomError("seat_taken", msg("error.seat.taken", seat=seat_arg(self.game, seat),
                                              player=occ.nickname))
        self.check_open(seat)
        self.seats[seat] = Occupant(name, bot=spec)
        self.rev += 1
        return seat

    def set_option(self, key: str, value: object) -> OptionValue:
        """Change one game option before the start; seats beyond a smaller table are freed."""
        self._require(WAITING)
        self.check_open()
        wanted: dict[str, object] = dict(self.options)
        wanted[key.strip()] = value
        try:
            resolved = resolve_options(self.game.OPTIONS, wanted)
            game = load_game(self.game_name, **resolved)
        except GamehallError as exc:
            raise RoomError("bad_option", msg("error.option.bad", reason=reason_of(exc))) from None
        self.game, self.options, self._preview = game, dict(game.options), None
        n = game.num_players
        self.seats = (self.seats + [None] * n)[:n]
        self.rev += 1
        return game.shown_options()[key.strip()]

    def note_account(self, player_id: int) -> bool:
        """The seated player has just become an account: True if the table shows it now."""
        seat = self.seat_of(player_id)
        if seat is None:
            return False
        occ = self.seats[seat]
        if occ is None or occ.account:
            return False
        self.seats[seat] = dataclasses.replace(occ, account=True)
        self.rev += 1
        return True

    def set_rated(self, rated: bool) -> None:
        """Make the game rated or casual (before the start)."""
        self._require(WAITING)
        self.check_open()
        self.rated = rated
        self.rev += 1

    def set_clock(self, text: str | None) -> TimeControl | None:
        """Choose the time control before the start (None: untimed)."""
        self._require(WAITING)
        self.check_open()
        try:
            self.time_control = parse_control(text)
        except ClockError as exc:
            raise RoomError("bad_clock", exc.said) from None
        self.rev += 1
        return self.time_control

    # --- play --------------------------------------------------------------------------------
    def start(self) -> None:
        """Start once every seat is filled (the hall then resolves any chance at the start, and
        starts the clock with `settle_clock`)."""
        self._require(WAITING)
        empty = [seat_arg(self.game, i) for i, occ in enumerate(self.seats) if occ is None]
        if empty:
            raise RoomError("seats_empty", msg("error.seat.wait_for", seats=joined(empty)))
        self.state = self.game.new_initial_state(self.seed)
        self.status = PLAYING
        people = any(o is not None and o.bot is None for o in self.seats)
        self.rated = self.rated_now and people
        if self.time_control is not None:
            self.clock = Clock.new(self.time_control, self.game.num_players)
        self.rev += 1

    def check_move(self, player_id: int, text: str, version: int) -> tuple[int, int]:
        """The (seat, action) a person's submission names; RoomError if it may not be played."""
        self._require(PLAYING)
        assert self.state is not None
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("not_seated", msg("error.seat.not_in_game"))
        if version != self.version:
            raise RoomError("stale_version", msg("error.move.stale", version=self.version,
                                                 yours=version))
        held = self.seats[seat]
        if held is not None and held.out:
            raise RoomError("out_of_game", msg("error.move.out"))
        if self.to_move() != seat:
            raise RoomError("not_your_turn", msg("error.move.not_your_turn"))
        if any(occ is None for occ in self.seats):
            raise RoomError("seats_empty", msg("error.move.seat_empty"))
        try:
            return seat, self.state.string_to_action(text)
        except GamehallError as exc:
            raise RoomError("illegal_move", msg("error.move.illegal", reason=reason_of(exc))) \
                from None

    def play_steps(self, player_id: int, texts: Sequence[str], version: int) -> list[Move]:
        """Play the steps of one turn of `player_id`'s seat, in order, from the position
        `version` (a draft's: the hall commits them together or not at all). A turn stops at a
        step that leaves the seat (chance, another seat, the end): a step after it is refused,
        and a refused step is named by its place and notation."""
        played: list[Move] = []
        for n, text in enumerate(texts, 1):
            if played and self.state is not None and self.state.is_chance_node():
                raise RoomError("illegal_move", msg("error.turn.after_chance", n=n, move=text))
            try:
                seat, action = self.check_move(player_id, text, version + len(played))
            except RoomError as exc:
                if len(texts) == 1 or exc.code == "stale_version" and not played:
                    raise
                raise RoomError(exc.code, msg("error.turn.step", n=n, move=text,
                                              reason=exc.said)) from None
            played.append(self.apply(seat, action))
        return played

    def apply(self, seat: int | None, action: int) -> Move:
        """Apply an action already checked legal, and note the end of the game."""
        assert self.state is not None
        move = Move.played(self.state, seat, action, self.moves[-1] if self.moves else None)
        self.state.apply_action(action)
        self.moves.append(move)
        self._finish_if_over()
        self.rev += 1
        return move

    def resolve_chance(self, rng: random.Random) -> list[Move]:
        """Draw every pending chance outcome from `rng` (the hall passes a system generator)."""
        drawn: list[Move] = []
        while self.status == PLAYING and self.state is not None and self.state.is_chance_node():
            drawn.append(self.apply(None, self.state.sample_chance(rng)))
        return drawn

    def _finish_if_over(self) -> None:
        assert self.state is not None
        if self.state.is_terminal():
            self.status = FINISHED
            self.result = [float(x) for x in self.state.returns()]
            self.outcome_message = self.state.outcome_message()
            self.ended_by = "rules"
            out = [i for i, occ in enumerate(self.seats) if occ is not None and occ.out]
            if out:
                self._rank_last(out)

    def _rank_last(self, out: list[int]) -> None:
        """The rules ended a game some seats dropped out of: they get the worst result, and what
        they would have had goes to the best placed of the seats still in (Hau La: a dropped
        seat's share of the win goes to the other winners, or to everyone still in)."""
        g, result = self.game, list(self.result or [])
        surplus = sum(result[i] - g.min_utility for i in out)
        stayed = [i for i in range(len(result)) if i not in out]
        best = max(result[i] for i in stayed)
        top = [i for i in stayed if result[i] == best]
        for i in out:
            result[i] = g.min_utility
        for i in top:
            result[i] += surplus / len(top)
        self.result = result
        self.outcome_message = endings.ranked_last(self, out, top, surplus > 0)

    def _end(self, losers: list[int], reason: str, why: Message) -> None:
        """End the game at once for `why`: `losers` get the worst result, the other seats share
        the rest."""
        g = self.game
        n = g.num_players
        winners = [i for i in range(n) if i not in losers]
        total = g.utility_sum
        share = ((total - g.min_utility * len(losers)) / len(winners) if total is not None
                 else g.max_utility)
        self.result = [g.min_utility if i in losers else share for i in range(n)]
        self.outcome_message = endings.ended(self, winners, why)
        self.status, self.ended_by = FINISHED, reason
        self.rev += 1

    def _dropped(self) -> list[int]:
        return [i for i, occ in enumerate(self.seats) if occ is not None and occ.out]

    def resign(self, player_id: int) -> int:
        """End the game: the resigning seat (and any that dropped out before) gets the worst
        result, the others share the rest."""
        seat = self._seat_in_play(player_id, msg("error.seat.not_in_game"))
        self._end([*self._dropped(), seat], "resign", endings.resigned(self, seat))
        return seat

    def go_berserk(self, player_id: int) -> int:
        """`player_id` goes berserk in an arena's game, before their first move: half their
        starting time is taken and their increment dropped, for a bonus point on a win."""
        seat = self._seat_in_play(player_id, msg("error.seat.not_in_game"))
        clock = self.clock
        if clock is None or not clock.berserk_ok:
            raise RoomError("no_berserk", msg("error.berserk.not_arena"))
        if seat in clock.berserk:
            raise RoomError("berserk_already", msg("error.berserk.already"))
        if any(m.seat == seat for m in self.moves):
            raise RoomError("berserk_too_late", msg("error.berserk.moved"))
        clock.go_berserk(seat)
        self.rev += 1
        return seat

    def _seat_in_play(self, player_id: int, not_seated: Said) -> int:
        """The seat `player_id` plays in this running game; RoomError if none (or dropped)."""
        self._require(PLAYING)
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("not_seated", not_seated)
        occ = self.seats[seat]
        if occ is not None and occ.out:
            raise RoomError("out_of_game", msg("error.seat.already_out"))
        return seat

    def drop_out(self, seat: int, reason: str) -> None:
        """`seat` leaves the game for `reason` (``time``, ``claim``). With two seats, or when only
        one seat would be left in, the game ends now and every seat that dropped loses; in a
        game of three or more a bot plays the seat on, and it ranks last at the end."""
        self._require(PLAYING)
        occ = self.seats[seat]
        assert occ is not None
        staying = [i for i, o in enumerate(self.seats) if i != seat and o is not None
                   and not o.out]
        if len(staying) >= 2:
            occ.out = reason
            self.rev += 1
            return
        self._end([i for i in range(len(self.seats)) if i not in staying], reason,
                  endings.dropped(self, seat, reason))

    # --- clocks and absent players --------------------------------------------------------------
    def settle_clock(self, now: float) -> None:
        """Bring the clock up to date after any change (the hall calls this before each commit):
        the turn may have passed, a bot may play the seat to move, or the game may be over."""
        if self.clock is None:
            return
        if self.status != PLAYING:
            self.clock.stop(now)
            return
        seat = self.to_move()
        occ = self.seats[seat] if seat is not None else None
        self.clock.advance(now, seat, occ is not None and occ.plays())

    def time_is_up(self, now: float) -> bool:
        return self.status == PLAYING and self.clock is not None and self.clock.expired(now)

    def time_out(self, now: float) -> int:
        """The running seat's time ran out at `now` (check `time_is_up` first): it drops out."""
        assert self.clock is not None
        seat = self.clock.flag(now)
        self.drop_out(seat, "time")
        self.settle_clock(now)
        return seat

    def _check_claimant(self, player_id: int, seat: int) -> None:
        """`player_id` may act against the absent `seat`: a person still in the game, another."""
        mine = self._seat_in_play(player_id, msg("error.claim.not_player"))
        if mine == seat:
            raise RoomError("not_absent", msg("error.claim.yourself"))

    def claim(self, player_id: int, seat: int | None, why_not: Said = "") -> None:
        """Claim the game against the absent seat to move; the hall finds that seat (None when
        nobody may be claimed against yet, and `why_not` says why)."""
        if self.clock is not None or self.time_control is not None:
            raise RoomError("clock_decides", msg("error.claim.timed"))
        if seat is None:
            self._require(PLAYING)
            raise RoomError("not_absent", why_not or msg("error.claim.nobody"))
        self._check_claimant(player_id, seat)
        self.drop_out(seat, "claim")

    def hand_to_bot(self, player_id: int, seat: int, spec: str, name: str) -> None:
        """Give the absent person's seat to a bot, which plays it on (the hall checks the
        absence). The person no longer holds the seat."""
        self._check_claimant(player_id, seat)
        self.check_open(seat)
        self.seats[seat] = Occupant(name, bot=spec)
        self.rev += 1

    # --- rematch -------------------------------------------------------------------------------
    def ask_rematch(self, player_id: int) -> bool:
        """Note that a person who played asks for a rematch; True once every one of them has."""
        if self.status != FINISHED:
            raise RoomError("not_finished", msg("error.rematch.not_finished"))
        if self.rematch is not None:
            raise RoomError("rematch_started", msg("error.rematch.started", room=self.rematch))
        seat = self.seat_of(player_id)
        occ = self.seats[seat] if seat is not None else None
        if occ is None:
            raise RoomError("not_seated", msg("error.rematch.not_player"))
        if not occ.rematch:
            occ.rematch = True
            self.rev += 1
        return all(o.rematch for o in self.seats if o is not None and o.player_id is not None)

    def rematch_agreed(self) -> bool:
        """Every person who played asked for a rematch, and it has not been made yet."""
        people = [o for o in self.seats if o is not None and o.player_id is not None]
        return self.status == FINISHED and self.rematch is None and bool(people) \
            and all(o.rematch for o in people)

    def rematch_seats(self) -> list[Occupant | None]:
        """The same players (people and bots) one seat further on: the first seat's occupant
        takes the second seat, …, the last one's the first."""
        n = len(self.seats)
        seats: list[Occupant | None] = [None] * n
        for i, occ in enumerate(self.seats):
            if occ is not None:
                seats[(i + 1) % n] = Occupant(occ.nickname, occ.player_id, occ.bot,
                                              account=occ.account, bot_account=occ.bot_account)
        return seats

    # --- what clients see -------------------------------------------------------------------
    def seats_json(self, online: set[int]) -> list[dict[str, Any]]:
        return roomjson.seats_json(self, online)

    def clock_json(self, now: float) -> dict[str, Any] | None:
        """The ``clock`` object at `now` (None in an untimed game)."""
        return roomjson.clock_json(self, now)

    def render_head(self, seat: int | None, online: set[int]) -> str:
        """`snapshot` as JSON text without the move list and its closing brace."""
        return roomjson.render_head(self, seat, online)

    def moves_text(self, start: int) -> str:
        """The moves from index `start` on, as JSON array items."""
        return roomjson.moves_text(self, start)

    def render(self, seat: int | None, online: set[int], moves_from: int = 0,
               head: str | None = None, now: float = 0.0,
               absent: dict[str, Any] | None = None) -> str:
        """The `state` message as JSON text, with the moves from `moves_from` on."""
        return roomjson.render(self, seat, online, moves_from, head, now, absent)

    def snapshot(self, seat: int | None, online: set[int], with_moves: bool = True,
                 now: float = 0.0, absent: dict[str, Any] | None = None,
                 seat_parts: bool = True) -> dict[str, Any]:
        """The `state` message for a client holding `seat` (None: spectator)."""
        return roomjson.snapshot(self, seat, online, with_moves, now, absent, seat_parts)

    def summary(self, online: set[int] | None = None, now: float = 0.0) -> dict[str, Any]:
        """The lobby's line for this room (its clock as at `now`)."""
        return roomjson.summary(self, online, now)

    # --- rebuilding ---------------------------------------------------------------------------
    def replay(self, moves: list[Move]) -> None:
        """Rebuild the position from stored moves (after a restart): exactly the stored game."""
        self.moves = []
        if self.status == WAITING:
            return
        self.state = self.game.new_initial_state(self.seed)
        for m in moves:
            move = Move.played(self.state, m.seat, m.action,
                               self.moves[-1] if self.moves else None)
            self.state.apply_action(m.action)
            self.moves.append(move)
        if self.state.is_terminal() and self.ended_by is None:
            self._finish_if_over()

    def continued(self, stored: Room, actions: Sequence[tuple[int | None, int]]) -> Room:
        """`stored` (the room's row as its owner just committed it, without moves) with this
        room's position continued by `actions`: how a node that does not own a room follows
        the owner's commits without replaying the whole game."""
        if stored.status == WAITING:
            return stored
        if self.state is not None:
            state = self.state.clone()
            stored.moves = list(self.moves)
            stored.rendered.moves_json = list(self.rendered.moves_json)
        else:
            state = stored.game.new_initial_state(stored.seed)
        for seat, action in actions:
            stored.moves.append(Move.played(state, seat, action,
                                            stored.moves[-1] if stored.moves else None))
            state.apply_action(action)
        stored.state = state
        return stored


def _shallow(obj: Any) -> Any:
    """`copy.copy` of a plain instance without its generic protocol (a room is drafted for
    every move)."""
    out = object.__new__(type(obj))
    out.__dict__.update(obj.__dict__)
    return out
