"""A concern's own tables over the hall's SQL storage: the base of `BotStore` and `ReviewStore`.

Their tables are part of the hall's schema (`schema.metadata`, one migration each); every write
goes through the storage's one writer (its commit batching) and every read through its readers,
so they commit in order with the rooms and every node of a cluster reads the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import Connection

from gamehall.server.storage.batch import Write
from gamehall.server.storage.interface import Storage
from gamehall.server.storage.sql import SqlStorage

T = TypeVar("T")


class SqlExtension:
    """Reads and writes of a concern's own statements on the hall's storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @property
    def available(self) -> bool:
        """Whether the hall's storage is SQL (a test's in-memory storage has no such tables)."""
        return isinstance(self.storage, SqlStorage)

    def _sql(self) -> SqlStorage:
        assert isinstance(self.storage, SqlStorage)
        return self.storage

    async def _read(self, fn: Callable[[Connection], T]) -> T:
        return await self._sql()._read(fn)

    async def _write(self, fn: Callable[[Connection], T]) -> T:
        out: list[T] = []
        await self._sql()._write(Write(fn=lambda conn: out.append(fn(conn))))
        return out[0]
