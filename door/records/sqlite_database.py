"""The SQLite store: one file in the data folder (the default).

The file is opened in WAL mode; its schema version is ``PRAGMA
user_version`` and :data:`~door.records.schema.MIGRATIONS` brings an older
file up to date.  Every write takes the file's write lock at ``BEGIN
IMMEDIATE``, so two processes on one file write one at a time.

A file that is not a database, is damaged, or is locked by another program
raises :class:`~door.records.database.StoreError` at open, with the path
and what to do; the database is never replaced with a new one.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from door.net.private import SecretFileError, check_private
from door.records.connection import Connection
from door.records.database import Conflict, Database, StoreError
from door.records.migrate import migrate_one, refusal
from door.records.schema import MIGRATIONS

__all__ = ["SqliteDatabase", "DATABASE_NAME"]

DATABASE_NAME = "cribbage.sqlite3"
"""The database's file name inside the data folder."""

T = TypeVar("T")

POLL = 0.05
"""Seconds between two looks at the file's ``data_version`` by :meth:`SqliteDatabase.listen`."""


class SqliteDatabase(Database):
    """The SQLite database at ``path``; open with :meth:`SqliteDatabase.open`."""

    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path
        self._db: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: Path, contract: bool = False) -> SqliteDatabase:
        """Open (creating on first use) the database at ``path``, migrate it
        to the current schema and check it (``contract``: make contract
        steps even with nodes on line, :mod:`door.records.migrate`).
        Raises :class:`StoreError`."""
        database = cls(path)
        database.contract = contract
        await database._start()
        return database

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            try:
                check_private(self.path, "the accounts and their password hashes")
            except SecretFileError as exc:
                raise StoreError(str(exc)) from None
        else:
            # made private before SQLite writes anything; -wal and -shm follow its mode
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            db = sqlite3.connect(self.path, timeout=2.0, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: could not switch the database to WAL mode (got {mode!r})")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{self.path}: the database is damaged ({check}); restore it from a backup")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise StoreError(refusal(str(self.path), version, len(MIGRATIONS)))
            while not _current(db):  # a step a transaction (door.records.migrate)
                db.execute("BEGIN IMMEDIATE")
                # another process (a worker) may have migrated while this one waited for the lock
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                try:
                    kept = migrate_one(db, str(self.path), self.dialect, version, _script, self.contract)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                if kept is not None and kept != version:
                    db.execute(f"PRAGMA user_version = {int(kept)}")
                db.execute("COMMIT")
                if kept is None:
                    break
        except sqlite3.DatabaseError as exc:
            db.close()
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise StoreError(f"{self.path}: the database is locked by another program ({text}); "
                                 "stop it or use another data folder") from None
            raise StoreError(f"{self.path}: not a usable cribbage database ({text}); move it aside or "
                             "restore it from a backup: it is left as it is") from None
        except StoreError:
            db.close()
            raise
        self._db = db

    def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``wake()`` (on a thread of its own) soon after any other
        connection to the file commits: SQLite has no notifications, so a
        read-only connection of the thread's own asks ``PRAGMA
        data_version`` every :data:`POLL` seconds (a look at the WAL index
        in shared memory, no disk read).  Every commit wakes it, of
        whatever table: ``channel`` is not told apart, and the listener
        reads to find out what changed."""
        stopping = threading.Event()

        def run() -> None:
            db: sqlite3.Connection | None = None
            seen = None
            while not stopping.wait(POLL):
                try:
                    if db is None:
                        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=1.0,
                                             check_same_thread=False)
                    version = db.execute("PRAGMA data_version").fetchone()[0]
                except sqlite3.Error:
                    if db is not None:
                        db.close()
                    db, seen = None, None
                    continue
                if seen is not None and version != seen:
                    wake()
                seen = version
            if db is not None:
                db.close()

        threading.Thread(target=run, name=f"listen-{channel}", daemon=True).start()
        return stopping.set

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _query(self, fn: Callable[[Connection], T]) -> T:
        try:
            return fn(self.connection)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot read: {exc}") from exc

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection (use it only on the worker thread).
        Raises :class:`StoreError` once closed."""
        if self._db is None:
            raise StoreError(f"{self.path}: the store is closed")
        return self._db

    def _tx(self, fn: Callable[[Connection], T]) -> T:
        db = self.connection
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = fn(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"{self.path}: refused: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}") from exc
        return result

    async def backup(self, target: Path) -> None:
        """A consistent copy of the database in ``target`` (SQLite's online
        backup: safe while the server runs), made 0600 before anything is
        written, since it holds the password hashes.  Raises
        ``FileExistsError`` when ``target`` exists."""
        def copy() -> None:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            other = sqlite3.connect(target)
            with other:
                self.connection.backup(other)
            other.close()
        await self.run(copy)


def _current(db: sqlite3.Connection) -> bool:
    """True when the store has made every step this program has (read
    without a lock: opening a current store, as ``records`` does beside a
    running server, writes nothing)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_steps'").fetchone() is None:
        return False
    row = db.execute("SELECT version FROM schema_steps").fetchone()
    return row is not None and int(row[0]) >= len(MIGRATIONS)


def _script(db: Connection, sql: str) -> None:
    """A migration's SQL, statement by statement (``executescript()`` would commit first, outside the lock)."""
    for statement in _statements(sql):
        db.execute(statement)


def _statements(script: str) -> list[str]:
    """The SQL statements of ``script``, each whole (``sqlite3.complete_statement``
    decides where one ends, so a ``;`` inside a string does not split it)."""
    statements: list[str] = []
    current = ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                statements.append(current.strip())
            current = ""
    return statements
