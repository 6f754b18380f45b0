"""The store: one SQLite database file in the data folder.

Holds accounts (names unique ignoring case, scrypt password hashes, SSH
keys), every finished game and the figures of each of its hands, and the
action log of every unfinished game, so that a game survives a dropped
connection or a killed server.

All database work runs on one worker thread that owns the connection, so
the event loop never blocks on the disk; every method is a coroutine.  The
file is opened in WAL mode; its schema version is ``PRAGMA user_version``
and :data:`MIGRATIONS` brings an older file up to date.  Every write is
committed before the coroutine returns, so a caller's screen never shows a
move the store has not kept.

A file that is not a database, is damaged, or is locked by another program
raises :class:`StoreError` at open, with the path and what to do; the store
never replaces it with a new one.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from engine.game import Action, GameResult
from engine.notation import action_from_text, action_to_text, rules_from_dict, rules_to_dict
from engine.rules import Rules

from door.net.private import SecretFileError, check_private
from engine.tally import HandRecord

if TYPE_CHECKING:
    from door.records.statistics import Statistics, TopPlayer

__all__ = ["Store", "StoreError", "NameTaken", "Account", "SavedGame", "GameSummary", "MIGRATIONS",
           "name_key", "DATABASE_NAME"]

DATABASE_NAME = "cribbage.sqlite3"
"""The database's file name inside the data folder."""

T = TypeVar("T")

MIGRATIONS: list[str] = [
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
]
"""Schema migrations: entry *i* takes a database from version *i* to *i + 1*."""


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and why."""


class NameTaken(ValueError):
    """A name already registered (names are unique ignoring case)."""


def name_key(name: str) -> str:
    """The form in which names are compared: case-folded."""
    return name.casefold()


@dataclass(frozen=True)
class Account:
    """A registered caller: ``id``, display ``name``, saved ``options``."""

    id: int
    name: str
    options: dict[str, Any]


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game: enough to rebuild it exactly."""

    id: int
    account_id: int
    opponent: str
    number: int
    first_dealer: int | None
    rules: Rules
    actions: list[Action]
    match_points: tuple[int, int]
    started: float


@dataclass(frozen=True)
class GameSummary:
    """A finished game as listed in records (times in seconds since the epoch)."""

    id: int
    number: int
    players: tuple[str, str]
    scores: tuple[int, int]
    winner: int
    skunk: int
    value: int
    opponent: str
    started: float
    ended: float


class Store:
    """The database at ``path``; open with :meth:`Store.open`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._db: sqlite3.Connection | None = None

    # -- opening ---------------------------------------------------------------

    @classmethod
    async def open(cls, path: Path) -> "Store":
        """Open (creating on first use) the database at ``path``, migrate it
        to the current schema and check it.  Raises :class:`StoreError`."""
        store = cls(path)
        await store._run(store._open)
        return store

    @classmethod
    def open_sync(cls, path: Path) -> "Store":
        """:meth:`open` for command-line tools without an event loop."""
        store = cls(path)
        store._executor.submit(store._open).result()
        return store

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
                db.execute("BEGIN IMMEDIATE")
                db.executescript(MIGRATIONS[v].replace("\n    ", "\n") + f"\nPRAGMA user_version = {v + 1};")
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
            await self._run(self._db.close)
            self._db = None
        self._executor.shutdown(wait=True)

    def close_sync(self) -> None:
        """:meth:`close` without an event loop."""
        if self._db is not None:
            self._executor.submit(self._db.close).result()
            self._db = None
        self._executor.shutdown(wait=True)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    def run_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the store's thread and wait (command-line use)."""
        return self._executor.submit(fn, *args).result()

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"{self.path}: the store is closed")
        return self._db

    def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in one committed transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = fn(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    # -- accounts ----------------------------------------------------------------

    def _account(self, row: Sequence[Any] | None) -> Account | None:
        return None if row is None else Account(row[0], row[1], json.loads(row[2]))

    async def find_account(self, name: str) -> Account | None:
        """The account named ``name`` (ignoring case), or ``None``."""
        def q() -> Account | None:
            row = self.db.execute("SELECT id, name, options FROM accounts WHERE name_key = ?",
                                  (name_key(name),)).fetchone()
            return self._account(row)
        return await self._run(q)

    async def password_hash(self, account_id: int) -> str:
        """The stored scrypt hash of an account."""
        def q() -> str:
            return str(self.db.execute("SELECT password_hash FROM accounts WHERE id = ?", (account_id,)).fetchone()[0])
        return await self._run(q)

    async def create_account(self, name: str, password_hash: str) -> Account:
        """Register ``name`` with a hash from :func:`door.records.passwords.hash_password`.
        Raises :class:`NameTaken` when the name (ignoring case) exists."""
        def tx(db: sqlite3.Connection) -> Account:
            try:
                cur = db.execute("INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)",
                                 (name, name_key(name), password_hash, time.time()))
            except sqlite3.IntegrityError:
                raise NameTaken(f"the name {name!r} is taken") from None
            assert cur.lastrowid is not None
            return Account(cur.lastrowid, name, {})
        return await self._run(self._tx, tx)

    async def add_ssh_key(self, account_id: int, key: str) -> None:
        """Let the OpenSSH public key ``key`` (``"ssh-ed25519 AAAA..."``) log
        in to the account (keys are linked per account: linking a key to one
        account never changes another)."""
        def tx(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR IGNORE INTO ssh_keys (account_id, key, added) VALUES (?, ?, ?)",
                       (account_id, key, time.time()))
        await self._run(self._tx, tx)

    async def has_ssh_keys(self, account_id: int) -> bool:
        """True when at least one SSH key is linked to the account."""
        def q() -> bool:
            return self.db.execute("SELECT 1 FROM ssh_keys WHERE account_id = ? LIMIT 1",
                                   (account_id,)).fetchone() is not None
        return await self._run(q)

    async def key_matches(self, account_id: int, key: str) -> bool:
        """True when ``key`` is linked to the account."""
        def q() -> bool:
            return self.db.execute("SELECT 1 FROM ssh_keys WHERE account_id = ? AND key = ?",
                                   (account_id, key)).fetchone() is not None
        return await self._run(q)

    async def save_options(self, account_id: int, options: dict[str, Any]) -> None:
        """Remember a caller's options."""
        def tx(db: sqlite3.Connection) -> None:
            db.execute("UPDATE accounts SET options = ? WHERE id = ?", (json.dumps(options), account_id))
        await self._run(self._tx, tx)

    # -- unfinished games ----------------------------------------------------------

    async def begin_game(self, account_id: int, opponent: str, number: int, first_dealer: int | None,
                         rules: Rules, match_points: tuple[int, int]) -> int:
        """Start the action log of a new game for ``account_id`` (replacing
        any older unfinished one); returns its id."""
        def tx(db: sqlite3.Connection) -> int:
            db.execute("DELETE FROM saved_games WHERE account_id = ?", (account_id,))
            cur = db.execute("INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, "
                             "match_points, started) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (account_id, opponent, number, first_dealer, json.dumps(rules_to_dict(rules)),
                              json.dumps(list(match_points)), time.time()))
            assert cur.lastrowid is not None
            return cur.lastrowid
        return await self._run(self._tx, tx)

    async def append_action(self, saved_id: int, seq: int, action: Action) -> None:
        """Write action number ``seq`` (0, 1, ...) of a saved game."""
        def tx(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       (saved_id, seq, action_to_text(action)))
        await self._run(self._tx, tx)

    async def saved_game(self, account_id: int) -> SavedGame | None:
        """The unfinished game of an account, or ``None``."""
        def q() -> SavedGame | None:
            row = self.db.execute("SELECT id, opponent, number, first_dealer, rules, match_points, started "
                                  "FROM saved_games WHERE account_id = ?", (account_id,)).fetchone()
            if row is None:
                return None
            actions = [action_from_text(a) for (a,) in self.db.execute(
                "SELECT action FROM saved_actions WHERE saved_id = ? ORDER BY seq", (row[0],))]
            mp = json.loads(row[5])
            return SavedGame(row[0], account_id, row[1], row[2], row[3], rules_from_dict(json.loads(row[4])),
                             actions, (mp[0], mp[1]), row[6])
        return await self._run(q)

    async def drop_saved_game(self, saved_id: int) -> None:
        """Forget an unfinished game (declined, or abandoned)."""
        def tx(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,))
        await self._run(self._tx, tx)

    # -- finished games --------------------------------------------------------------

    async def record_game(self, saved_id: int | None, number: int, rules: Rules, players: tuple[str, str],
                          accounts: tuple[int | None, int | None], opponent: str, result: GameResult,
                          hands: Sequence[HandRecord], started: float) -> int:
        """Keep a finished game and its hands, and drop its action log, in
        one transaction; returns the game's id."""
        def tx(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO games (number, rules, player0, player1, account0, account1, opponent, score0, score1, "
                "winner, skunk, value, started, ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (number, json.dumps(rules_to_dict(rules)), players[0], players[1], accounts[0], accounts[1],
                 opponent, result.scores[0], result.scores[1], result.winner, int(result.skunk), result.value,
                 started, time.time()))
            game_id = cur.lastrowid
            assert game_id is not None
            rows = []
            for h in hands:
                for seat, s in enumerate(h.seats):
                    rows.append((game_id, h.number, seat, h.dealer, int(h.complete), int(h.replayed), s.pegging,
                                 s.hand_points, s.hand_true, s.hand_claim, s.crib_points, s.crib_true,
                                 s.crib_claim, s.heels, s.muggins_won, s.muggins_lost))
            db.executemany("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if saved_id is not None:
                db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,))
            return game_id
        return await self._run(self._tx, tx)

    async def recorded_rules(self, number: int) -> Rules | None:
        """The rules game ``number`` was last played with, if it is on record."""
        def q() -> Rules | None:
            row = self.db.execute("SELECT rules FROM games WHERE number = ? ORDER BY ended DESC, id DESC LIMIT 1",
                                  (number,)).fetchone()
            return None if row is None else rules_from_dict(json.loads(row[0]))
        return await self._run(q)

    def games_sync(self, name: str | None = None, limit: int | None = None) -> list[GameSummary]:
        """Finished games, newest first, of the player ``name`` (ignoring
        case) or of everyone.  Runs on the calling thread's turn (use through
        :meth:`games` or :meth:`run_sync`)."""
        sql = ("SELECT g.id, g.number, g.player0, g.player1, g.score0, g.score1, g.winner, g.skunk, g.value, "
               "g.opponent, g.started, g.ended FROM games g")
        args: list[Any] = []
        if name is not None:
            sql += (" WHERE g.account0 IN (SELECT id FROM accounts WHERE name_key = ?)"
                    " OR g.account1 IN (SELECT id FROM accounts WHERE name_key = ?)")
            args += [name_key(name), name_key(name)]
        sql += " ORDER BY g.ended DESC, g.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [GameSummary(r[0], r[1], (r[2], r[3]), (r[4], r[5]), r[6], r[7], r[8], r[9], r[10], r[11])
                for r in self.db.execute(sql, args)]

    async def games(self, name: str | None = None, limit: int | None = None) -> list[GameSummary]:
        """See :meth:`games_sync`."""
        return await self._run(self.games_sync, name, limit)

    async def statistics(self, name: str) -> "Statistics | None":
        """See :func:`door.records.statistics.player_statistics`."""
        from door.records.statistics import player_statistics
        return await self._run(lambda: player_statistics(self.db, name))

    async def top_players(self, limit: int = 10) -> "list[TopPlayer]":
        """See :func:`door.records.statistics.top_players`."""
        from door.records.statistics import top_players
        return await self._run(lambda: top_players(self.db, limit))

    def remove_player_sync(self, name: str) -> int:
        """Remove a player's account and every game that player took part
        in (Cribbage Champ's ``CRIB xxx /R``); returns the games removed."""
        def tx(db: sqlite3.Connection) -> int:
            row = db.execute("SELECT id FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
            if row is None:
                return -1
            n = db.execute("DELETE FROM games WHERE account0 = ? OR account1 = ?", (row[0], row[0])).rowcount
            db.execute("DELETE FROM accounts WHERE id = ?", (row[0],))
            return n
        return self._tx(tx)

    def remove_all_sync(self) -> int:
        """Remove every record and account (``CRIB /X``); returns the games removed."""
        def tx(db: sqlite3.Connection) -> int:
            n = db.execute("DELETE FROM games").rowcount
            db.execute("DELETE FROM accounts")
            return n
        return self._tx(tx)
