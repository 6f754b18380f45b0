"""The database behind the store, whichever it is: one connection owned by
one worker thread, so the event loop never blocks on the disk or the
network.

:class:`Database` is what the repositories use: :meth:`Database.tx` runs a
function of the connection in one transaction, committed before the
coroutine returns (so a caller's screen never shows a move the store has
not kept), and :meth:`Database.query` runs a read.  Two databases give it:
an SQLite file in the data folder (:mod:`door.records.sqlite_database`,
the default) and a PostgreSQL server (:mod:`door.records.postgres_database`,
``[store] url``).  Whatever goes wrong underneath reaches the repositories
as :class:`StoreError`, and a write refused by a unique key (another writer
took the step first) as :class:`Conflict`.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from door.net.metrics import store_call
from door.records.connection import Connection

__all__ = ["Database", "StoreError", "Conflict", "Unreachable"]

T = TypeVar("T")


class StoreError(RuntimeError):
    """The database cannot be used or cannot do this now; the message
    names the database (a file, or a server without its password) and why."""


class Conflict(StoreError):
    """A write the database refused because it breaks a unique key or a
    reference: another writer made it first (the same step of a game, a
    name just registered).  Trying it again cannot help."""


class Unreachable(StoreError):
    """The database's server cannot be reached now (stopped, restarting,
    the network cut).  The store logs such an outage itself, once when it
    starts, once a minute while it lasts and once when it ends
    (:class:`door.records.outage.OutageLog`): whoever catches this need
    not log it again."""


class Database(ABC):
    """One database and the worker thread that owns its connection.

    ``where`` names it in messages and logs; ``dialect`` is ``"sqlite"``
    or ``"postgresql"`` (see :func:`door.records.schema.render`)."""

    dialect: str = ""
    contract: bool = False
    """Make contract steps of the schema even with nodes on line (``records contract``; :mod:`door.records.migrate`)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    async def _start(self) -> None:
        """Open the connection and migrate, on the worker thread; the
        thread is stopped when that raises."""
        try:
            await self.run(self._open)
        except BaseException:
            self._executor.shutdown(wait=False)
            raise

    @abstractmethod
    def _open(self) -> None:
        """Connect, migrate to the current schema and check (worker thread).
        Raises :class:`StoreError`."""

    @abstractmethod
    def _tx(self, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` in one committed transaction (worker thread);
        raises :class:`Conflict` or :class:`StoreError`."""

    @abstractmethod
    def _query(self, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` outside a transaction (worker thread); raises
        :class:`StoreError`."""

    @abstractmethod
    def _close(self) -> None:
        """Close the connection (worker thread)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the worker thread (which owns the connection)."""
        loop = asyncio.get_running_loop()
        with store_call():  # (its time and its errors, for /metrics)
            return await loop.run_in_executor(self._executor, fn, *args)

    async def tx(self, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` in one transaction on the worker thread,
        committed before this returns (rolled back if ``fn`` raises).  A
        write refused by a unique key raises :class:`Conflict`; one the
        database cannot make now (locked, a full disk, the server gone)
        raises :class:`StoreError`, naming the database and why."""
        return await self.run(self._tx, fn)

    async def query(self, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` on the worker thread, outside a transaction
        (reads).  Raises :class:`StoreError`."""
        return await self.run(self._query, fn)

    async def close(self) -> None:
        """Close the connection and stop the worker thread."""
        await self.run(self._close)
        self._executor.shutdown(wait=True)

    def notify(self, db: Connection, channel: str) -> None:
        """Within a transaction on ``db``: when it commits, wake whoever
        :meth:`listen` s on ``channel``.  Nothing where the database has no
        notifications (SQLite: its listeners see every commit)."""
        return None  # (a database with no notifications: nothing to do)

    def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``wake()`` (from another thread) whenever a transaction
        sends ``channel`` a notification (or, where the database cannot
        tell, whenever anything was committed); returns the function that
        stops listening, or ``None`` where nothing can be heard (the
        listener then only polls)."""
        return None

    async def backup(self, target: Path) -> None:
        """A consistent copy of the database in the file ``target``.
        Raises ``FileExistsError`` when ``target`` exists, and
        :class:`StoreError` where the database has no such copy."""
        raise StoreError(f"{self.where}: this database is not copied by the door; use the database's own tools")
