"""The store: the database and its repositories, opened together.

``Store.open(where)`` opens the SQLite file at a path
(:mod:`door.records.sqlite_database`) or the PostgreSQL database at a
``postgresql://`` URL (:mod:`door.records.postgres_database`), and gives
``accounts``, ``saved`` (unfinished games' action logs), ``games``
(finished games), ``statistics`` and ``nodes`` (the serve processes
sharing it, and who is on line on each) over it.  The server, the door mode
and the records CLI all use this one async store.
"""

from __future__ import annotations

from pathlib import Path

from door.records.accounts import Account, Accounts, NameTaken, TooManyRegistrations
from door.records.names import name_key
from door.records.database import Conflict, Database, StoreError
from door.records.postgres_database import PostgresDatabase, is_postgres_url
from door.records.schema import MIGRATIONS
from door.records.sqlite_database import DATABASE_NAME, SqliteDatabase
from door.records.games import Games, GameSummary
from door.records.nodes import Nodes
from door.records.saved_games import SavedGame, SavedGames
from door.records.statistics import StatisticsQueries

__all__ = ["Store", "StoreError", "Conflict", "NameTaken", "TooManyRegistrations", "Account", "SavedGame", "GameSummary", "MIGRATIONS",
           "name_key", "DATABASE_NAME"]


class Store:
    """The records in one database; open with :meth:`Store.open`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.where = database.where
        """The database in messages: the SQLite file's path, or the URL without its password."""
        self.accounts = Accounts(database)
        self.saved = SavedGames(database)
        self.games = Games(database)
        self.statistics = StatisticsQueries(database)
        self.nodes = Nodes(database)

    @classmethod
    async def open(cls, where: Path | str) -> "Store":
        """Open the database ``where``: a ``postgresql://`` URL, else the
        path of an SQLite file (created on first use); migrated and
        checked.  Raises :class:`StoreError`."""
        if isinstance(where, str) and is_postgres_url(where):
            return cls(await PostgresDatabase.open(where))
        return cls(await SqliteDatabase.open(Path(where)))

    async def close(self) -> None:
        """Close the database and stop its worker thread."""
        await self.database.close()
