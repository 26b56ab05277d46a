"""What the hall tells the features built on it, and what they may add to it.

The hall imports no feature (the bot API, reviews, later pairing and tournaments): a feature is
handed the hall when the app is assembled and subscribes here. So a game that starts or ends
reaches the bot API's event streams, and a request the bot API forbids (a bot account joining a
room by hand) is refused, without the hall knowing that bot accounts exist.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gamehall.server.accounts.identity import Player
from gamehall.server.table.room import Room

GameListener = Callable[[Room], Awaitable[None]]
"""Told each time a room's game starts or ends (after the commit that did it)."""

JoinCheck = Callable[[Player], Awaitable[None]]
"""Asked before a person joins a seat by hand; raises a `RoomError` to refuse it."""

Sweep = Callable[[], Awaitable[object]]
"""A feature's periodic clean-up (unanswered challenges expiring), run with the hall's own."""

RoomListener = Callable[[Room], None]
"""Told, at once and without waiting, of each room this node created or committed a change to
(the lobby's lines follow every room from these)."""

GoneListener = Callable[[str], None]
"""Told of each room this node dropped (an idle waiting room)."""


class HallEvents:
    """The subscriptions of the features, in the order they were made."""

    def __init__(self) -> None:
        self._game_listeners: list[GameListener] = []
        self._join_checks: list[JoinCheck] = []
        self.sweeps: list[Sweep] = []
        self._room_listeners: list[RoomListener] = []
        self._gone_listeners: list[GoneListener] = []

    def on_game_changed(self, listener: GameListener) -> None:
        self._game_listeners.append(listener)

    def on_room_changed(self, listener: RoomListener, gone: GoneListener) -> None:
        """Follow every room this node creates, changes or drops."""
        self._room_listeners.append(listener)
        self._gone_listeners.append(gone)

    def room_changed(self, room: Room) -> None:
        """A room was stored as it is now (new, or changed): every follower learns it."""
        for listener in self._room_listeners:
            listener(room)

    def room_gone(self, room_id: str) -> None:
        for gone in self._gone_listeners:
            gone(room_id)

    def check_join(self, check: JoinCheck) -> None:
        self._join_checks.append(check)

    def add_sweep(self, sweep: Sweep) -> None:
        self.sweeps.append(sweep)

    async def game_changed(self, room: Room) -> None:
        """A game started or ended: every listener learns it."""
        for listener in self._game_listeners:
            await listener(room)

    async def joining(self, player: Player) -> None:
        """Raise the first refusal of a feature for `player` joining a seat."""
        for check in self._join_checks:
            await check(player)
