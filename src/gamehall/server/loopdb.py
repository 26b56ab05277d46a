"""A PostgreSQL connection of the event loop's own (psycopg's `AsyncConnection`, in autocommit),
for the statements on a move's way: its commit (`SqlStorage._commit_in_one`) and the token
look-up that comes before it (`SqlStorage.token_owner`).

Through a thread, each such statement cost two hand-overs: the thread woken to send it, then
the event loop woken with the answer, each waiting for the GIL while the loop was busy. In the
three-node benchmark a move's commit took the hall 6.1-6.4 ms that way, of which 3.5 ms in the
thread (benchmarks/README.md, "Sixth session"). The loop sends the statement itself and goes on
with other work until the answer comes."""

from __future__ import annotations

import contextlib
from typing import Any

from sqlalchemy.engine import URL


class LoopConnection:
    """One connection, opened when first used; one that failed is closed, and the next
    statement opens a new one. Statements from several tasks take turns (psycopg's lock)."""

    def __init__(self, url: URL) -> None:
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.connection: Any = None
        """psycopg's AsyncConnection while one is open, else None."""

    async def execute(self, text: str, params: Any) -> Any:
        """Run one statement (psycopg's parameters); its cursor. Whatever fails closes the
        connection and is raised."""
        try:
            if self.connection is None:
                import psycopg  # only a PostgreSQL hall needs it

                self.connection = await psycopg.AsyncConnection.connect(self._conninfo,
                                                                        autocommit=True)
            return await self.connection.execute(text, params)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self.connection is not None:
            conn, self.connection = self.connection, None
            with contextlib.suppress(Exception):
                await conn.close()
