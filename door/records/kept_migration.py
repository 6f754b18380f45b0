"""The contract step that lets an account keep many unfinished games: the
rule of one game an owner (``saved_games.account_id`` UNIQUE) is taken
away, and every kept game gets its kind and the time of its last move
from what its row holds.  A node of the release before this one
replaces an owner's game on every new one, so the step waits until none
is on line (:mod:`door.records.migrate`).

SQLite cannot drop a constraint: both tables are made again (the games
first, then the actions that refer to them, each copied whole) and the
old ones dropped, the actions before the games so that no cascade runs.
PostgreSQL drops the constraint.  Either way every game and every action
is kept, under its own id, and no id is given twice (SQLite's games are
made AUTOINCREMENT, as PostgreSQL's identity already is): a node that
takes a game up by its id never finds another game under it."""

from __future__ import annotations

import sqlite3

from door.records.connection import Connection
from door.records.saved_rows import COLUMNS, kind_of_row

__all__ = ["contract_many_games"]

_SQLITE_REBUILD = [
    """CREATE TABLE saved_games_new (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        opponent TEXT NOT NULL,
        number INTEGER NOT NULL,
        first_dealer INTEGER,
        rules TEXT NOT NULL,
        match_points TEXT NOT NULL,
        started REAL NOT NULL,
        seat INTEGER NOT NULL DEFAULT 0,
        other_account INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        players TEXT NOT NULL DEFAULT '[]',
        shuffle TEXT,
        kind TEXT NOT NULL DEFAULT '',
        updated REAL,
        to_move INTEGER,
        deadline REAL,
        days_per_move INTEGER,
        hand INTEGER,
        score0 INTEGER,
        score1 INTEGER,
        best_of INTEGER NOT NULL DEFAULT 1,
        rated INTEGER NOT NULL DEFAULT 0
    )""",
    f"INSERT INTO saved_games_new ({COLUMNS}) SELECT {COLUMNS} FROM saved_games",
    """CREATE TABLE saved_actions_new (
        saved_id INTEGER NOT NULL REFERENCES saved_games_new(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (saved_id, seq)
    )""",
    "INSERT INTO saved_actions_new (saved_id, seq, action) SELECT saved_id, seq, action FROM saved_actions",
    "DROP TABLE saved_actions",
    "DROP TABLE saved_games",
    "ALTER TABLE saved_games_new RENAME TO saved_games",  # (saved_actions_new's reference follows the name)
    "ALTER TABLE saved_actions_new RENAME TO saved_actions",
    "CREATE INDEX saved_games_owner ON saved_games(account_id, deadline)",
    "CREATE INDEX saved_games_other_deadline ON saved_games(other_account, deadline)",
    "CREATE INDEX saved_games_kind_deadline ON saved_games(kind, deadline)",  # (the expand step before this one's)
    "CREATE INDEX saved_games_kind_idle ON saved_games(kind, (COALESCE(updated, started)))",
]


def contract_many_games(db: Connection) -> None:
    """The contract step, in the migration's transaction on ``db`` (an
    ``sqlite3`` connection, or PostgreSQL's): no more one game an owner;
    then each game's kind written where a node of the release before
    left none (:func:`~door.records.saved_rows.kind_of_row`), ``updated``
    its start where no move time was kept, and the seat to move and
    where it stands forgotten (a node of the release before may have
    moved a game since this release wrote them: until its next move, the
    lists replay it and it waits on both).  No log is replayed here, so
    that the step holds the store for as short a time as it can."""
    if isinstance(db, sqlite3.Connection):
        for statement in _SQLITE_REBUILD:
            db.execute(statement)
    else:
        for (name,) in db.execute("SELECT conname FROM pg_constraint WHERE conrelid = 'saved_games'::regclass "
                                  "AND contype = 'u'").fetchall():
            db.execute(f'ALTER TABLE saved_games DROP CONSTRAINT "{name}"')
        db.execute("DROP INDEX IF EXISTS saved_games_other")
    kinds = []
    for saved_id, opponent, match_points, shuffle in db.execute(
            "SELECT id, opponent, match_points, shuffle FROM saved_games WHERE kind = ''").fetchall():
        try:
            kinds.append((kind_of_row("", opponent, match_points, shuffle).value, saved_id))
        except ValueError:  # (a row that does not read: its kind as its opponent says)
            kinds.append(({"computer": "computer", "sysop": "sysop"}.get(opponent, "caller"), saved_id))
    if kinds:
        db.executemany("UPDATE saved_games SET kind = ? WHERE id = ?", kinds)
    db.execute("UPDATE saved_games SET updated = COALESCE(updated, started), to_move = NULL, hand = NULL, "
               "score0 = NULL, score1 = NULL")
