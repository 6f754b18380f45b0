"""What the repositories' SQL runs on: a connection with ``execute`` and
``executemany`` and the cursor they return, as SQLite's ``sqlite3`` module
gives them and as :mod:`door.records.postgres_database` gives them over
PostgreSQL.

The SQL the repositories write is the part both databases share: ``?``
placeholders, ``INSERT ... RETURNING id`` for a new row's key, ``ON
CONFLICT DO NOTHING``; see :mod:`door.records.schema` for the tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

__all__ = ["Connection", "Cursor"]


class Cursor(Protocol):
    """The rows of one statement (tuples), and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A database connection: one statement with ``?`` placeholders
    (``execute``), or one statement for each row of parameters
    (``executemany``)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> Cursor: ...
