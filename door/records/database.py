"""The database: one SQLite file in the data folder, one worker thread.

All database work runs on one worker thread that owns the connection, so
the event loop never blocks on the disk; :meth:`Database.run` hands it a
function and awaits the result.  The file is opened in WAL mode; its schema
version is ``PRAGMA user_version`` and :data:`MIGRATIONS` brings an older
file up to date.  Every write (:meth:`Database.tx`) is committed before the
coroutine returns, so a caller's screen never shows a move the store has
not kept.

A file that is not a database, is damaged, or is locked by another program
raises :class:`StoreError` at open, with the path and what to do; the
database is never replaced with a new one.  The repositories
(:mod:`door.records.accounts`, :mod:`door.records.saved_games`,
:mod:`door.records.games`, :mod:`door.records.statistics`) hold the SQL.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

from door.net.private import SecretFileError, check_private
from door.records.names import name_key

__all__ = ["Database", "StoreError", "MIGRATIONS", "DATABASE_NAME"]

DATABASE_NAME = "cribbage.sqlite3"
"""The database's file name inside the data folder."""

T = TypeVar("T")

MIGRATIONS: list[str | Callable[[sqlite3.Connection], None]] = [
    # version 1
    """
    CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created REAL NOT NULL,
        options TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE ssh_keys (
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        added REAL NOT NULL,
        PRIMARY KEY (account_id, key)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        number INTEGER NOT NULL,
        rules TEXT NOT NULL,
        player0 TEXT NOT NULL,
        player1 TEXT NOT NULL,
        account0 INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        account1 INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        opponent TEXT NOT NULL,
        score0 INTEGER NOT NULL,
        score1 INTEGER NOT NULL,
        winner INTEGER NOT NULL,
        skunk INTEGER NOT NULL,
        value INTEGER NOT NULL,
        started REAL NOT NULL,
        ended REAL NOT NULL
    );
    CREATE INDEX games_account0 ON games(account0);
    CREATE INDEX games_account1 ON games(account1);
    CREATE TABLE hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        complete INTEGER NOT NULL,
        replayed INTEGER NOT NULL,
        pegging INTEGER NOT NULL,
        hand_points INTEGER NOT NULL,
        hand_true INTEGER,
        hand_claim INTEGER,
        crib_points INTEGER NOT NULL,
        crib_true INTEGER,
        crib_claim INTEGER,
        heels INTEGER NOT NULL,
        muggins_won INTEGER NOT NULL,
        muggins_lost INTEGER NOT NULL
    );
    CREATE INDEX hands_game ON hands(game_id);
    CREATE TABLE saved_games (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE,
        opponent TEXT NOT NULL,
        number INTEGER NOT NULL,
        first_dealer INTEGER,
        rules TEXT NOT NULL,
        match_points TEXT NOT NULL,
        started REAL NOT NULL
    );
    CREATE TABLE saved_actions (
        saved_id INTEGER NOT NULL REFERENCES saved_games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (saved_id, seq)
    );
    """,
    # version 2: names compared by NFKC + case fold, ignorables removed
    lambda db: _rekey_names(db),
    # version 3: a game between two callers is kept for both (issue 16.3): the owner's seat, the other
    # caller's account, and both players' names
    """
    ALTER TABLE saved_games ADD COLUMN seat INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE saved_games ADD COLUMN other_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL;
    ALTER TABLE saved_games ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX saved_games_other ON saved_games(other_account);
    """,
]
"""Schema migrations: entry *i* takes a database from version *i* to *i + 1*
(an SQL script, or a function of the connection run in the same transaction)."""


def _rekey_names(db: sqlite3.Connection) -> None:
    """Migration 2: every account's ``name_key`` by today's
    :func:`~door.records.names.name_key`.  Two old names that are now one
    name (``Ann`` and a full-width ``Ａnn``): the older account gets the key,
    the other keeps its old one (and is logged, for the sysop to rename)."""
    import logging

    taken: set[str] = set()
    for account_id, name, old in db.execute("SELECT id, name, name_key FROM accounts ORDER BY id").fetchall():
        key = name_key(name)
        if key in taken:
            logging.getLogger(__name__).warning("account %d %r looks like an older name: kept its old key",
                                                account_id, name)
            key = old
        taken.add(key)
        if key != old:
            db.execute("UPDATE accounts SET name_key = ? WHERE id = ?", (key, account_id))


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and why."""


class Database:
    """The SQLite database at ``path``; open with :meth:`Database.open`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._db: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: Path) -> "Database":
        """Open (creating on first use) the database at ``path``, migrate it
        to the current schema and check it.  Raises :class:`StoreError`."""
        database = cls(path)
        try:
            await database.run(database._open)
        except BaseException:
            database._executor.shutdown(wait=False)
            raise
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
                raise StoreError(f"{self.path}: schema version {version} is newer than this program "
                                 f"({len(MIGRATIONS)}); upgrade cribbage-door")
            for v in range(version, len(MIGRATIONS)):
                step = MIGRATIONS[v]
                db.execute("BEGIN IMMEDIATE")
                if callable(step):
                    step(db)
                    db.execute(f"PRAGMA user_version = {v + 1}")
                else:
                    db.executescript(step.replace("\n    ", "\n") + f"\nPRAGMA user_version = {v + 1};")
                if db.in_transaction:
                    db.execute("COMMIT")
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

    async def close(self) -> None:
        """Close the database and stop the worker thread."""
        if self._db is not None:
            await self.run(self._db.close)
            self._db = None
        self._executor.shutdown(wait=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the worker thread (which owns the connection)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` in one transaction on the worker thread,
        committed before this returns (rolled back if ``fn`` raises).  A
        write the database cannot make now (locked by another program, a
        full disk) raises :class:`StoreError`, naming the file and why."""
        try:
            return await self.run(self._tx, fn)
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}") from exc

    async def query(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the worker thread, outside a transaction
        (reads)."""
        return await self.run(lambda: fn(self.connection))

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection (use it only on the worker thread).
        Raises :class:`StoreError` once closed."""
        if self._db is None:
            raise StoreError(f"{self.path}: the store is closed")
        return self._db

    def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        db = self.connection
        db.execute("BEGIN IMMEDIATE")
        try:
            result = fn(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    async def backup(self, target: Path) -> None:
        """A consistent copy of the database at ``target`` (SQLite's online
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
