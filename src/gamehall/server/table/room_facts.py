"""What a room is — its game, seats, status, moves and result — and the facts read from them
(whose turn it is, who sits where, whether it counts for ratings). Pure, no I/O.

Apart from how a room changes (`room.py`), so that what only reads a room (its JSON, its end
sentences, the hint rules) depends on this and the room's rules of play depend on those.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gamehall.core import Game, GamehallError, OptionValue, State, load_game
from gamehall.core.messages import Message, msg
from gamehall.server.table.clocks import Clock, TimeControl
from gamehall.server.table.errors import RoomError
from gamehall.server.table.moves import Move
from gamehall.server.table.protocol import TypedSeat
from gamehall.server.table.render_cache import RenderCache
from gamehall.server.table.sentences import joined, seat_arg
from gamehall.server.table.statuses import FINISHED, PLAYING, WAITING

OUT_BOT = "random"
"""The bot that plays a seat that dropped out of a game of three or more (see `Room.drop_out`)."""


@dataclass
class Occupant:
    """Who holds a seat: a person (by player id) or a server-side bot (by spec).

    `out` is set when the person dropped out of a game of three or more (their time ran out, or
    the others claimed against their absence): a bot plays the seat on and it ranks last.
    `rematch` is set once the person asked for a rematch after the end."""

    nickname: str
    player_id: int | None = None
    bot: str | None = None
    account: bool = False
    """A person whose nickname has a password (decides whether the game is rated by default)."""
    out: str | None = None
    rematch: bool = False
    bot_account: bool = False
    """A bot account (a program playing through the bot API, `bot_api.py`): shown on its seat
    so that people know they play a program."""
    challenged: bool = False
    """Seated by an accepted challenge: a term both sides agreed, so it stays (`check_open`)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nickname": self.nickname, "player_id": self.player_id,
                               "bot": self.bot}
        if self.account:
            out["account"] = True
        if self.out:
            out["out"] = self.out
        if self.rematch:
            out["rematch"] = True
        if self.bot_account:
            out["bot_account"] = True
        if self.challenged:
            out["challenged"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Occupant:
        return cls(str(data["nickname"]), data.get("player_id"), data.get("bot"),
                   bool(data.get("account", False)), data.get("out"),
                   bool(data.get("rematch", False)), bool(data.get("bot_account", False)),
                   bool(data.get("challenged", False)))

    def plays(self) -> bool:
        """A person still playing (not a bot, not dropped out): whose turns run a clock."""
        return self.bot is None and self.out is None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class RoomFacts:
    """What a room is: its game, seats, status, moves and result, and the facts read from them.
    `seed` seeds the initial state only; it is secret and never leaves the server. How a room
    changes is `Room` (room.py); its JSON (`room_json`), sentences (`endings`) and hints
    (`hint_rules`) only read these facts."""

    id: str
    game_name: str
    options: dict[str, OptionValue]
    created_by: str
    seed: int
    seats: list[Occupant | None] = field(default_factory=list)
    status: str = WAITING
    moves: list[Move] = field(default_factory=list)
    result: list[float] | None = None
    outcome_message: Message | None = None
    """How the game ended, as a sentence with a key (`outcome` is its English text)."""
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
    revision: int = 0
    """How many changes of the room have been committed (stored with it): nodes of a cluster
    apply a room's changes in this order."""
    time_control: TimeControl | None = None
    clock: Clock | None = None
    """The running clocks (from the start of a timed game on)."""
    rematch_of: str | None = None
    """The room whose rematch this is."""
    rematch: str | None = None
    """The room where this game's rematch is played."""
    shared: tuple[set[int], dict[str, Any] | None] | None = field(default=None, compare=False,
                                                                   repr=False)
    """Only on a copy read from storage by a cluster node that does not keep the room: who is
    connected on every node and the owner's absence object, as Redis had them with the read."""

    def __post_init__(self) -> None:
        self.game: Game = load_game(self.game_name, **self.options)
        self.options = dict(self.game.options)
        if not self.seats:
            self.seats = [None] * self.game.num_players
        self._preview: State | None = None
        self.rendered = RenderCache()
        """What `roomjson` has rendered of this room (moves, position, head)."""

    # --- facts -------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The number of actions played: what a move submission must name."""
        return len(self.moves)

    @property
    def rated_now(self) -> bool:
        """Whether the game counts for ratings: as chosen, or by default when every person
        seated has an account (a guest's game is casual unless the room is made rated). Fixed
        at the start; a game with no person seated is never rated."""
        if self.rated is not None:
            return self.rated
        return all(o.account for o in self.seats if o is not None and o.bot is None)

    @property
    def outcome(self) -> str | None:
        """How the game ended, in English (None while it has not)."""
        return self.outcome_message.text if self.outcome_message is not None else None

    def seat_of(self, player_id: int) -> int | None:
        for i, occ in enumerate(self.seats):
            if occ is not None and occ.player_id == player_id:
                return i
        return None

    def to_move(self) -> int | None:
        """The seat whose turn it is, or None (not started, over, or at a chance node)."""
        if self.status != PLAYING or self.state is None:
            return None
        seat = self.state.current_player()
        return seat if seat >= 0 else None

    def bot_to_move(self) -> str | None:
        """The bot spec of the seat to move, when a bot is to move (or plays a dropped seat)."""
        seat = self.to_move()
        occ = self.seats[seat] if seat is not None else None
        if occ is None:
            return None
        return OUT_BOT if occ.out else occ.bot

    def person_to_move(self) -> Occupant | None:
        """The person whose turn it is (not a bot, not dropped out), if any."""
        seat = self.to_move()
        occ = self.seats[seat] if seat is not None else None
        return occ if occ is not None and occ.plays() else None

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
        seats = [seat_arg(self.game, i) for i in range(len(names))]
        if isinstance(ref, TypedSeat):
            seats = [msg("list.numbered", number=i, item=s) for i, s in enumerate(seats, 1)]
        raise RoomError("no_such_seat", msg(
            "error.seat.no_such_name" if isinstance(ref, str) else "error.seat.no_such",
            game=self.game.title, seat=ref.typed() if isinstance(ref, TypedSeat) else ref,
            seats=joined(seats)))

    def person(self, seat: int) -> str:
        """Who `seat` is in a sentence for people ("ann resigned: bea wins"): the nickname where
        one sits, with the seat's name when another seat has the same one (two "random bot"s),
        else the seat's name. The page words seats the same way (words.js `personName`)."""
        label = self.game.seat_names[seat]
        occ = self.seats[seat] if seat < len(self.seats) else None
        if occ is None:
            return label
        shared = any(o is not None and o.nickname == occ.nickname
                     for i, o in enumerate(self.seats) if i != seat)
        return f"{occ.nickname} ({label})" if shared else occ.nickname

    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as `seat` may see it; before the start, the starting position."""
        return self.shown_state().view(seat)

    def shown_state(self) -> State:
        """The position clients see: the game's, or before the start the starting one."""
        if self.state is None:
            if self._preview is None:
                self._preview = self.game.new_initial_state(self.seed)
            return self._preview
        return self.state

    # the JSON clients get: rendered in roomjson.py, the methods kept for the hall's callers

    def scores(self) -> list[float] | None:
        """Each seat's score once the game is over (`Game.scores`), or None."""
        if self.status != FINISHED or self.state is None:
            return None
        return self.game.scores(self.state)
