"""The store: the database and its repositories, opened together.

``Store.open(path)`` opens the SQLite file (:mod:`door.records.database`)
and gives ``accounts``, ``saved`` (unfinished games' action logs),
``games`` (finished games) and ``statistics`` over it.  The server, the
door mode and the records CLI all use this one async store.
"""

from __future__ import annotations

from pathlib import Path

from door.records.accounts import Account, Accounts, NameTaken
from door.records.names import name_key
from door.records.database import DATABASE_NAME, MIGRATIONS, Database, StoreError
from door.records.games import Games, GameSummary
from door.records.saved_games import SavedGame, SavedGames
from door.records.statistics import StatisticsQueries

__all__ = ["Store", "StoreError", "NameTaken", "Account", "SavedGame", "GameSummary", "MIGRATIONS",
           "name_key", "DATABASE_NAME"]


class Store:
    """The records in one database; open with :meth:`Store.open`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.path = database.path
        self.accounts = Accounts(database)
        self.saved = SavedGames(database)
        self.games = Games(database)
        self.statistics = StatisticsQueries(database)

    @classmethod
    async def open(cls, path: Path) -> "Store":
        """Open (creating on first use) the database at ``path``, migrated
        and checked.  Raises :class:`StoreError`."""
        return cls(await Database.open(path))

    async def close(self) -> None:
        """Close the database and stop its worker thread."""
        await self.database.close()
