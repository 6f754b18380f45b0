"""The contract step that lets an account keep many unfinished games: the
rule of one game an owner (``saved_games.account_id`` UNIQUE) is taken
away, and every kept game gets what the expand step before it added (its
kind, the seat it waits on, its hand and scores, the time of its last
move) from what its row and log hold.  A node of the release before this one replaces an owner's
game on every new one, so the step waits until none is on line
(:mod:`door.records.migrate`).

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
from door.records.saved_rows import COLUMNS, Standing, kind_of_row, saved_from_row, to_move_of
from engine.game import replay
from engine.notation import NotationError

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
        score1 INTEGER
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
]


def contract_many_games(db: Connection) -> None:
    """The contract step, in the migration's transaction on ``db`` (an
    ``sqlite3`` connection, or PostgreSQL's): no more one game an owner;
    then each game's kind written (:func:`~door.records.saved_rows.kind_of_row`),
    its ``to_move``, hand and scores from its log replayed (``NULL`` for a
    log that does not read), and ``updated`` its start where no move time
    was kept."""
    if isinstance(db, sqlite3.Connection):
        for statement in _SQLITE_REBUILD:
            db.execute(statement)
    else:
        for (name,) in db.execute("SELECT conname FROM pg_constraint WHERE conrelid = 'saved_games'::regclass "
                                  "AND contype = 'u'").fetchall():
            db.execute(f'ALTER TABLE saved_games DROP CONSTRAINT "{name}"')
        db.execute("DROP INDEX IF EXISTS saved_games_other")
    for row in db.execute(f"SELECT {COLUMNS} FROM saved_games").fetchall():
        saved_id, opponent, match_points, shuffle, kind = row[0], row[2], row[6], row[11], row[12]
        try:
            written = kind_of_row(kind, opponent, match_points, shuffle).value
        except NotationError:
            written = kind  # (a kind of a newer release: left as it is)
        try:
            saved = saved_from_row(db, row)
            game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
            to_move, standing = to_move_of(game), Standing.of(game)
        except (ValueError, KeyError):  # a log that does not read: not known
            to_move, standing = None, None
        hand, scores = (None, (None, None)) if standing is None else (standing.hand, standing.scores)
        db.execute("UPDATE saved_games SET kind = ?, to_move = ?, hand = ?, score0 = ?, score1 = ?, "
                   "updated = COALESCE(updated, started) WHERE id = ?", (written, to_move, hand, *scores, saved_id))
