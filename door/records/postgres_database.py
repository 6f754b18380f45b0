"""The PostgreSQL store: ``[store] url = "postgresql://..."``,
for several door processes or machines on one set of records.

The connection is psycopg 3's (the optional ``postgresql`` extra), in
autocommit mode, owned by the worker thread like SQLite's; each
:meth:`~door.records.database.Database.tx` is one ``BEGIN ... COMMIT``.
The repositories' ``?`` placeholders become psycopg's ``%s`` here, once
per statement text.  The schema version is the one row of
``schema_version``; migrations run under a transaction-scoped advisory
lock, so two nodes starting at once migrate one at a time.
:meth:`PostgresDatabase.listen` gives the nodes their wake-up by LISTEN /
NOTIFY, on a dedicated connection.

A lost connection (the server restarted, the network dropped) fails the
statement under way with :class:`~door.records.database.StoreError` and is
made again on the next one, so the journal's retries carry a game across a
PostgreSQL restart (:class:`~door.records.database.Unreachable`).  An
outage is logged once when it starts, once a minute while it lasts and
once when it ends (:class:`~door.records.outage.OutageLog`), not at every
attempt.  The URL's password never appears in a message (:func:`masked`).
"""

from __future__ import annotations

import functools
import threading
import urllib.parse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from door.records.connection import Connection, Cursor
from door.records.database import Conflict, Database, StoreError, Unreachable
from door.records.migrate import migrate_one
from door.records.outage import OutageLog

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresDatabase", "is_postgres_url", "masked"]

T = TypeVar("T")

MIGRATION_LOCK = 0x63726962  # "crib": the advisory lock key migrations hold
CONNECT_TIMEOUT = 5
"""Seconds to wait for the server when connecting."""


def is_postgres_url(text: str) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` URL.

    >>> is_postgres_url("postgresql://door@db/cribbage"), is_postgres_url("data/cribbage.sqlite3")
    (True, False)
    """
    return text.startswith(("postgresql://", "postgres://"))


def masked(url: str) -> str:
    """``url`` with its password replaced by ``***``: the one after the
    user name (whatever characters it holds: everything up to the last
    ``@`` of the authority) and a ``password`` parameter of the query;
    text without a scheme is read as if it followed one.
    The one way a URL is written in a log line or an error.

    >>> masked("postgresql://door:s3cret@db:5432/cribbage")
    'postgresql://door:***@db:5432/cribbage'
    >>> masked("postgresql://door:a/b@c@db/cribbage?sslmode=require&password=x")
    'postgresql://door:***@db/cribbage?sslmode=require&password=***'
    >>> masked("postgresql://door@db/cribbage")
    'postgresql://door@db/cribbage'
    """
    scheme, sep, rest = url.partition("://")
    if not sep:  # (not a URL, but perhaps meant for one: masked all the same)
        scheme, rest = "", url
    head, mark, query = rest.partition("?")
    at = head.rfind("@")
    if at >= 0 and ":" in head[:at]:
        head = head[:head.index(":")] + ":***" + head[at:]
    if mark:
        query = "&".join(p.split("=", 1)[0] + "=***" if p.split("=", 1)[0].lower() == "password" else p
                         for p in query.split("&"))
    return scheme + sep + head + mark + query


def _secrets(url: str) -> list[str]:
    """The password(s) in ``url``, as written and decoded (longest first)."""
    found: set[str] = set()
    _, _, rest = url.partition("://")
    head, _, query = rest.partition("?")
    at = head.rfind("@")
    if at >= 0 and ":" in head[:at]:
        found.add(head[head.index(":") + 1:at])
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key.lower() == "password":
            found.add(value)
    found |= {urllib.parse.unquote(f) for f in found}
    return sorted((f for f in found if f), key=len, reverse=True)


@functools.lru_cache(maxsize=256)
def _pg_sql(sql: str, placeholders: bool = True) -> bytes:
    """The repositories' SQL as psycopg takes it (bytes, worked out once
    per statement text): with ``placeholders``, ``?`` becomes ``%s`` and a
    ``%`` is doubled; without (no parameters), a ``%`` is itself.

    >>> _pg_sql("SELECT 1 WHERE a = ? AND b LIKE 'x%'")
    b"SELECT 1 WHERE a = %s AND b LIKE 'x%%'"
    """
    return (sql.replace("%", "%%").replace("?", "%s") if placeholders else sql).encode()


class _Connection:
    """A :class:`~door.records.connection.Connection` over a psycopg
    connection."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        if not parameters:
            return self._conn.execute(_pg_sql(sql, False))
        return self._conn.execute(_pg_sql(sql), parameters)

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> Cursor:
        cur = self._conn.cursor()
        cur.executemany(_pg_sql(sql), parameters)
        return cur


class PostgresDatabase(Database):
    """The PostgreSQL database at ``url``; open with :meth:`PostgresDatabase.open`."""

    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        super().__init__(masked(url))
        self.url = url
        self.outage = OutageLog(self.where)
        """The server's outages, as logged (once at the start, once a minute, once at the end)."""
        self._conn: psycopg.Connection[Any] | None = None
        self._closed = False

    @classmethod
    async def open(cls, url: str, contract: bool = False) -> PostgresDatabase:
        """Connect to ``url``, migrate the database to the current schema
        (``contract``: :meth:`door.records.sqlite_database.SqliteDatabase.open`).
        Raises :class:`StoreError` (no psycopg, the server unreachable or
        refusing, a schema newer than this program)."""
        database = cls(url)
        database.contract = contract
        await database._start()
        return database

    def _connection(self) -> psycopg.Connection[Any]:
        """The open connection, made again when it was lost."""
        if self._closed:
            raise StoreError(f"{self.where}: the store is closed")
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        try:
            import psycopg
        except ImportError:
            raise StoreError("a PostgreSQL store needs the psycopg package: "
                             "pip install 'cribbage-door[postgresql]'") from None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        try:
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                         application_name="cribbage-door")
        except psycopg.Error as exc:
            reason = _reason(exc, self.url)
            self.outage.failed(reason)
            raise Unreachable(f"{self.where}: cannot connect to PostgreSQL: {reason}") from None
        self.outage.reached()
        return self._conn

    def _failed(self, conn: psycopg.Connection[Any], exc: Exception, doing: str) -> StoreError:
        """The error to raise for ``exc``, raised by ``conn`` while
        ``doing`` ("write", "read"): :class:`Unreachable` (the outage
        counted) when the connection was lost with it."""
        reason = _reason(exc, self.url)
        if conn.closed or conn.broken:
            self.outage.failed(reason)
            return Unreachable(f"{self.where}: cannot {doing}: {reason}")
        return StoreError(f"{self.where}: cannot {doing}: {reason}")

    def _open(self) -> None:
        def migrate(db: Connection) -> None:
            db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            if row is None:
                db.execute("INSERT INTO schema_version (version) VALUES (0)")
            version = 0 if row is None else int(row[0])
            # a step at a time, expand steps under older nodes, contract steps only when none is on line
            while (kept := migrate_one(db, self.where, self.dialect, version, _script, self.contract)) is not None:
                if kept != version:
                    db.execute("UPDATE schema_version SET version = ?", (kept,))
                    version = kept
        self._tx(migrate)

    def _tx(self, fn: Callable[[Connection], T]) -> T:
        import psycopg

        conn = self._connection()
        try:
            with conn.transaction():
                return fn(_Connection(conn))
        except psycopg.errors.IntegrityError as exc:
            raise Conflict(f"{self.where}: refused: {_reason(exc, self.url)}") from exc
        except psycopg.Error as exc:
            raise self._failed(conn, exc, "write") from exc

    def _query(self, fn: Callable[[Connection], T]) -> T:
        import psycopg

        conn = self._connection()
        try:
            return fn(_Connection(conn))
        except psycopg.Error as exc:
            raise self._failed(conn, exc, "read") from exc

    def notify(self, db: Connection, channel: str) -> None:
        """``NOTIFY channel`` (sent when the transaction commits)."""
        if not channel.isidentifier():
            raise ValueError(f"not a channel name: {channel!r}")
        db.execute(f"NOTIFY {channel}")

    def listen(self, channel: str, wake: Callable[[], None]) -> Callable[[], None] | None:
        """LISTEN on ``channel`` on a connection of its own, on a thread of
        its own (made again after a second when lost); ``wake()`` is called
        on that thread for each notification.  ``channel`` must be an SQL
        identifier."""
        import psycopg

        if not channel.isidentifier():
            raise ValueError(f"not a channel name: {channel!r}")
        stopping = threading.Event()

        def run() -> None:
            while not stopping.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                         application_name="cribbage-door listen") as conn:
                        conn.execute(f"LISTEN {channel}".encode())
                        self.outage.reached()
                        wake()  # (anything sent while not listening is looked at now)
                        while not stopping.is_set():
                            for _ in conn.notifies(timeout=1.0):
                                wake()
                except psycopg.Error as exc:  # (logged as the store's outage: once, once a minute, at its end)
                    if not stopping.is_set():
                        self.outage.failed(f"LISTEN {channel}: {_reason(exc, self.url)}")
                    stopping.wait(1.0)

        threading.Thread(target=run, name=f"listen-{channel}", daemon=True).start()
        return stopping.set

    def _close(self) -> None:
        self._closed = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _reason(exc: Exception, url: str) -> str:
    """The first line of a driver error, without the URL's password
    (the URL masked, and the password itself wherever else it shows)."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    text = text.replace(url, masked(url))
    for secret in _secrets(url):
        text = text.replace(secret, "***")
    return text


def _script(db: Connection, sql: str) -> None:
    """A migration's SQL, all its statements at once (PostgreSQL takes a script in one execute)."""
    db.execute(sql)
