"""A room: one game's table — seats, options, the position, the move list. Pure logic, no I/O.

The hall (hall.py) calls these methods under the room's lock, persists what changed, then
publishes. Every refusal is a `RoomError` with a stable code and a sentence for people; a refused
call changes nothing.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gamehall.core import (
    Game,
    GamehallError,
    OptionValue,
    State,
    load_game,
)
from gamehall.core.options import resolve_options
from gamehall.server.protocol import TypedSeat

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"


class RoomError(Exception):
    """A refused room operation: `code` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Occupant:
    """Who holds a seat: a person (by player id) or a server-side bot (by spec)."""

    nickname: str
    player_id: int | None = None
    bot: str | None = None
    account: bool = False
    """A person whose nickname has a password (decides whether the game is rated by default)."""

    def to_json(self) -> dict[str, Any]:
        return {"nickname": self.nickname, "player_id": self.player_id, "bot": self.bot,
                "account": self.account}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Occupant:
        return cls(str(data["nickname"]), data.get("player_id"), data.get("bot"),
                   bool(data.get("account", False)))


@dataclass(frozen=True)
class Move:
    """One applied action: the seat that played it (None for chance), the integer, the notation."""

    seat: int | None
    action: int
    move: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class Room:
    """One table. `seed` seeds the initial state only; it is secret and never leaves the server."""

    id: str
    game_name: str
    options: dict[str, OptionValue]
    created_by: str
    seed: int
    seats: list[Occupant | None] = field(default_factory=list)
    status: str = WAITING
    moves: list[Move] = field(default_factory=list)
    result: list[float] | None = None
    outcome: str | None = None
    ended_by: str | None = None
    created_at: str = field(default_factory=now)
    rated: bool | None = None
    """True/False once chosen (or fixed at the start); None: the default rule (`rated_now`)."""
    ended_at: str | None = None
    """When the game ended (set by the hall when it commits the end)."""
    rating_changes: list[dict[str, Any]] | None = None
    """Each seat's rating before and after a rated game (set with the commit of the end)."""
    state: State | None = None
    stored_version: int = 0
    """The version the storage row holds (for lobby lines built without the moves)."""
    rev: int = 0
    """Bumped on every change a client can see (cache key for rendered messages)."""

    def __post_init__(self) -> None:
        self.game: Game = load_game(self.game_name, **self.options)
        self.options = dict(self.game.options)
        if not self.seats:
            self.seats = [None] * self.game.num_players
        self._preview: State | None = None
        self._moves_json: list[str] = []

    # --- facts -------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The number of actions played: what a move submission must name."""
        return len(self.moves)

    def seat_of(self, player_id: int) -> int | None:
        for i, occ in enumerate(self.seats):
            if occ is not None and occ.player_id == player_id:
                return i
        return None

    @property
    def rated_now(self) -> bool:
        """Whether the game counts for ratings: as chosen, or by default when every person
        seated has an account (a guest's game is casual unless the room is made rated). Fixed
        at the start; a game with no person seated is never rated."""
        if self.rated is not None:
            return self.rated
        return all(o.account for o in self.seats if o is not None and o.bot is None)

    def to_move(self) -> int | None:
        """The seat whose turn it is, or None (not started, over, or at a chance node)."""
        if self.status != PLAYING or self.state is None:
            return None
        seat = self.state.current_player()
        return seat if seat >= 0 else None

    def bot_to_move(self) -> str | None:
        """The bot spec of the seat to move, when a bot is to move."""
        seat = self.to_move()
        occ = self.seats[seat] if seat is not None else None
        return occ.bot if occ is not None else None

    def seat_index(self, ref: str | int) -> int:
        """A seat by index (from 0) or name; RoomError if there is none."""
        names = self.game.seat_names
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < len(names):
                return ref
        elif isinstance(ref, str):
            try:
                return self.game.seat_index(ref)
            except GamehallError:
                pass
        if isinstance(ref, TypedSeat):
            listed = ", ".join(f"{i} {name}" for i, name in enumerate(names, start=1))
            raise RoomError("no_such_seat",
                            f"{self.game.title} has no seat {ref.typed()} (seats: {listed})")
        raise RoomError("no_such_seat",
                        f"{self.game.title} has no seat {ref!r} (seats: {', '.join(names)})")

    def _free_seat(self) -> int:
        for i, occ in enumerate(self.seats):
            if occ is None:
                return i
        raise RoomError("no_free_seat", "every seat is taken")

    def _require(self, *statuses: str) -> None:
        if self.status in statuses:
            return
        if self.status == FINISHED:
            raise RoomError("game_over", "the game is over")
        if self.status == PLAYING:
            raise RoomError("already_started", "the game has already started")
        raise RoomError("not_started", "the game has not started yet (/start)")

    # --- seats -------------------------------------------------------------------------------
    def join(self, player_id: int, nickname: str, ref: str | int | None,
             account: bool = False) -> int:
        """Seat a person: the named seat, or the first free one (first come, first seated)."""
        self._require(WAITING, PLAYING)
        held = self.seat_of(player_id)
        if held is not None:
            raise RoomError("already_seated",
                            f"you already sit as {self.game.seat_names[held]} (/leave first)")
        seat = self._free_seat() if ref is None else self.seat_index(ref)
        occ = self.seats[seat]
        if occ is not None:
            raise RoomError("seat_taken",
                            f"{self.game.seat_names[seat]} is taken by {occ.nickname}")
        self.seats[seat] = Occupant(nickname, player_id=player_id, account=account)
        self.rev += 1
        return seat

    def leave(self, player_id: int, ref: str | int | None) -> int:
        """Free your own seat, or (with a seat named) remove a bot from a seat."""
        self._require(WAITING, PLAYING)
        if ref is not None:
            seat = self.seat_index(ref)
            occ = self.seats[seat]
            if occ is None:
                raise RoomError("seat_empty", f"{self.game.seat_names[seat]} is empty")
            if occ.player_id != player_id:
                if occ.bot is None:
                    raise RoomError("not_your_seat",
                                    f"{self.game.seat_names[seat]} belongs to {occ.nickname}")
                if self.status != WAITING:
                    raise RoomError("already_started", "bots stay in their seats once it starts")
        else:
            held = self.seat_of(player_id)
            if held is None:
                raise RoomError("not_seated", "you do not hold a seat")
            seat = held
        self.seats[seat] = None
        self.rev += 1
        return seat

    def set_bot(self, spec: str, name: str, ref: str | int | None) -> int:
        """Seat a server-side bot in the named seat or the first free one (or re-level a bot)."""
        self._require(WAITING, PLAYING)
        seat = self._free_seat() if ref is None else self.seat_index(ref)
        occ = self.seats[seat]
        if occ is not None and occ.bot is None:
            raise RoomError("seat_taken",
                            f"{self.game.seat_names[seat]} is taken by {occ.nickname}")
        self.seats[seat] = Occupant(name, bot=spec)
        self.rev += 1
        return seat

    def set_option(self, key: str, value: object) -> OptionValue:
        """Change one game option before the start; seats beyond a smaller table are freed."""
        self._require(WAITING)
        wanted: dict[str, object] = dict(self.options)
        wanted[key.strip()] = value
        try:
            resolved = resolve_options(self.game.OPTIONS, wanted)
            game = load_game(self.game_name, **resolved)
        except GamehallError as exc:
            raise RoomError("bad_option", str(exc)) from None
        self.game, self.options, self._preview = game, dict(game.options), None
        n = game.num_players
        self.seats = (self.seats + [None] * n)[:n]
        self.rev += 1
        return self.options[key.strip()]

    def set_rated(self, rated: bool) -> None:
        """Make the game rated or casual (before the start)."""
        self._require(WAITING)
        self.rated = rated
        self.rev += 1

    # --- play --------------------------------------------------------------------------------
    def start(self) -> None:
        """Start once every seat is filled (the hall then resolves any chance at the start)."""
        self._require(WAITING)
        empty = [self.game.seat_names[i] for i, occ in enumerate(self.seats) if occ is None]
        if empty:
            raise RoomError("seats_empty", f"waiting for a player as {', '.join(empty)} "
                                           "(/join or /bot)")
        self.state = self.game.new_initial_state(self.seed)
        self.status = PLAYING
        people = any(o is not None and o.bot is None for o in self.seats)
        self.rated = self.rated_now and people
        self.rev += 1

    def check_move(self, player_id: int, text: str, version: int) -> tuple[int, int]:
        """The (seat, action) a person's submission names; RoomError if it may not be played."""
        self._require(PLAYING)
        assert self.state is not None
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("not_seated", "you do not hold a seat in this game")
        if version != self.version:
            raise RoomError("stale_version", f"the position has changed (version {self.version},"
                                             f" your move was for version {version})")
        if self.to_move() != seat:
            raise RoomError("not_your_turn", "it is not your turn")
        if any(occ is None for occ in self.seats):
            raise RoomError("seats_empty", "a seat is empty: the game waits for a player")
        try:
            return seat, self.state.string_to_action(text)
        except GamehallError as exc:
            raise RoomError("illegal_move", str(exc)) from None

    def apply(self, seat: int | None, action: int) -> Move:
        """Apply an action already checked legal, and note the end of the game."""
        assert self.state is not None
        move = Move(seat, action, self.state.action_to_string(action))
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
            self.outcome = self.state.outcome_text()
            self.ended_by = "rules"

    def resign(self, player_id: int) -> int:
        """End the game: the resigning seat gets the worst result, the others share the rest."""
        self._require(PLAYING)
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("not_seated", "you do not hold a seat in this game")
        g = self.game
        n = g.num_players
        total = g.utility_sum
        share = (total - g.min_utility) / (n - 1) if total is not None else g.max_utility
        self.result = [g.min_utility if i == seat else share for i in range(n)]
        others = [name for i, name in enumerate(g.seat_names) if i != seat]
        verb = "wins" if len(others) == 1 else "win"
        self.outcome = f"{g.seat_names[seat]} resigned: {' and '.join(others)} {verb}"
        self.status, self.ended_by = FINISHED, "resign"
        self.rev += 1
        return seat

    # --- what clients see -------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as `seat` may see it; before the start, the starting position."""
        if self.state is None:
            if self._preview is None:
                self._preview = self.game.new_initial_state(self.seed)
            return self._preview.view(seat)
        return self.state.view(seat)

    def seats_json(self, online: set[int]) -> list[dict[str, Any]]:
        out = []
        for i, name in enumerate(self.game.seat_names):
            occ = self.seats[i]
            out.append({
                "index": i,
                "name": name,
                "player": occ.nickname if occ else None,
                "bot": occ.bot if occ else None,
                "connected": bool(occ and (occ.bot is not None or occ.player_id in online)),
            })
        return out

    def render_head(self, seat: int | None, online: set[int]) -> str:
        """`snapshot` as JSON text without the move list and its closing brace (see `render`)."""
        head = json.dumps(self.snapshot(seat, online, with_moves=False), ensure_ascii=False,
                          separators=(",", ":"))
        return head[:-1]

    def moves_text(self, start: int) -> str:
        """The moves from index `start` on, as JSON array items; each move serialised once."""
        if len(self._moves_json) > len(self.moves):
            self._moves_json = []
        for m in self.moves[len(self._moves_json):]:
            self._moves_json.append(json.dumps({"seat": m.seat, "move": m.move},
                                               ensure_ascii=False, separators=(",", ":")))
        return ",".join(self._moves_json[start:])

    def render(self, seat: int | None, online: set[int], moves_from: int = 0,
               head: str | None = None) -> str:
        """The `state` message as JSON text, with the moves from `moves_from` on (a client that
        has the earlier ones needs only the rest)."""
        start = max(0, min(moves_from, self.version))
        head = head if head is not None else self.render_head(seat, online)
        return f'{head},"moves_from":{start},"moves":[{self.moves_text(start)}]}}'

    def snapshot(self, seat: int | None, online: set[int],
                 with_moves: bool = True) -> dict[str, Any]:
        """The `state` message for a client holding `seat` (None: spectator)."""
        to_move = self.to_move()
        legal: list[str] = []
        if seat is not None and to_move == seat and self.state is not None:
            legal = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        return {
            "type": "state",
            "room": self.id,
            "game": self.game_name,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "version": self.version,
            "seat": seat,
            "seats": self.seats_json(online),
            "to_move": to_move,
            "legal_moves": legal,
            "view": self.view(seat),
            "result": self.result,
            "outcome": self.outcome,
            "ended_by": self.ended_by,
            "rated": self.rated_now,
            "rating_changes": self.rating_changes,
            **({"moves_from": 0, "moves": [{"seat": m.seat, "move": m.move}
                                           for m in self.moves]} if with_moves else {}),
        }

    def summary(self, online: set[int] | None = None) -> dict[str, Any]:
        """The lobby's line for this room."""
        return {
            "id": self.id,
            "game": self.game_name,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "version": max(self.version, self.stored_version),
            "seats": self.seats_json(online or set()),
            "created_by": self.created_by,
            "created_at": self.created_at,
            "outcome": self.outcome,
            "rated": self.rated_now,
            "ended_at": self.ended_at,
        }

    # --- rebuilding ---------------------------------------------------------------------------
    def replay(self, moves: list[Move]) -> None:
        """Rebuild the position from stored moves (after a restart): exactly the stored game."""
        self.moves = []
        if self.status == WAITING:
            return
        self.state = self.game.new_initial_state(self.seed)
        for m in moves:
            move = Move(m.seat, m.action, self.state.action_to_string(m.action))
            self.state.apply_action(m.action)
            self.moves.append(move)
        if self.state.is_terminal() and self.ended_by is None:
            self._finish_if_over()
