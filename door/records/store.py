"""The store: the database and its repositories, opened together.

``Store.open(where)`` opens the SQLite file at a path
(:mod:`door.records.sqlite_database`) or the PostgreSQL database at a
``postgresql://`` URL (:mod:`door.records.postgres_database`), and gives
``accounts``, ``saved`` (unfinished games' action logs), ``games``
(finished games), ``statistics``, ``nodes`` (the serve processes
sharing it, and who is on line on each) and ``leases`` (one node at a time
for a job) and ``correspondence`` (offers, vacations, losses on time) over it.  The server, the door mode
and the records CLI all use this one async store.
"""

from __future__ import annotations

from pathlib import Path

from door.records.accounts import Account, Accounts, NameTaken, TooManyRegistrations
from door.records.bans import Bans
from door.records.bots import Bots
from door.records.clock import WALL, Clock
from door.records.correspondence.records import CorrespondenceRecords
from door.records.daily import Daily
from door.records.database import Conflict, Database, StoreError
from door.records.games import Games, GameSummary
from door.records.leases import Leases
from door.records.names import name_key
from door.records.nodes import Nodes
from door.records.postgres_database import PostgresDatabase, is_postgres_url
from door.records.ranked.clubs import Clubs
from door.records.ranked.fair_play import FairPlay
from door.records.ranked.ratings import Ratings
from door.records.saved_games import SavedGame, SavedGames
from door.records.schema import MIGRATIONS
from door.records.sqlite_database import DATABASE_NAME, SqliteDatabase
from door.records.statistics import StatisticsQueries
from door.records.tournaments.repository import Tournaments

__all__ = ["Store", "StoreError", "Conflict", "NameTaken", "TooManyRegistrations", "Account", "SavedGame", "GameSummary", "MIGRATIONS",
           "name_key", "DATABASE_NAME"]


class Store:
    """The records in one database; open with :meth:`Store.open`."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.where = database.where
        """The database in messages: the SQLite file's path, or the URL without its password."""
        self.clock = clock
        """What the records' times are read from (seconds since the epoch)."""
        self.accounts = Accounts(database, clock)
        self.saved = SavedGames(database, clock)
        self.games = Games(database, clock)
        self.ratings = Ratings(database, clock)
        self.fair_play = FairPlay(database, clock)
        self.clubs = Clubs(database, clock)
        self.statistics = StatisticsQueries(database)
        self.nodes = Nodes(database, clock)
        self.bans = Bans(database, clock)
        """Accounts, addresses and networks refused on every node (:mod:`door.records.bans`)."""
        self.daily = Daily(database, self.saved, clock)
        self.bots = Bots(database, self.accounts, clock)
        self.leases = Leases(database, clock)
        """One node at a time for a named job (:mod:`door.records.leases`)."""
        self.tournaments = Tournaments(database, clock)
        """Tournaments run over days (:mod:`door.records.tournaments`)."""
        self.correspondence = CorrespondenceRecords(database, clock)
        """Correspondence play's offers, vacations and losses on time (:mod:`door.records.correspondence`)."""

    @classmethod
    async def open(cls, where: Path | str, clock: Clock = WALL, contract: bool = False) -> Store:
        """Open the database ``where``: a ``postgresql://`` URL, else the
        path of an SQLite file (created on first use); migrated (with
        ``contract``, contract steps too, whoever is on line:
        :mod:`door.records.migrate`) and checked; its times read from
        ``clock``.  Raises :class:`StoreError`."""
        if isinstance(where, str) and is_postgres_url(where):
            return cls(await PostgresDatabase.open(where, contract), clock)
        return cls(await SqliteDatabase.open(Path(where), contract), clock)

    async def ping(self) -> None:
        """Ask the database the smallest question (``SELECT 1``): returns
        when it answers, raises :class:`StoreError` when it cannot (the
        health check, ``/healthz``)."""
        await self.database.query(lambda db: db.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        """Close the database and stop its worker thread."""
        await self.database.close()
