"""Alembic environment: runs on the connection the server passes (storage.upgrade_schema)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes its connection
    raise RuntimeError("run migrations through gamehall.server.storage.upgrade_schema")

context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
