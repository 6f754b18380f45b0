"""Unfinished games: the action log of each, so that a game survives a
dropped connection or a killed server (the engine rebuilds it from rules,
game number, first dealer and actions)."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass

from engine.actions import Action
from engine.notation import action_from_text, action_to_text, rules_from_dict, rules_to_dict
from engine.rules import Rules

from door.records.database import Database

__all__ = ["SavedGame", "SavedGames"]


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game: enough to rebuild it exactly (``started`` in
    seconds since the epoch; ``match_points`` the games credited before it)."""

    id: int
    account_id: int
    opponent: str
    number: int
    first_dealer: int | None
    rules: Rules
    actions: list[Action]
    match_points: tuple[int, int]
    started: float


class SavedGames:
    """The action logs in ``database``: at most one unfinished game per account."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def begin(self, account_id: int, opponent: str, number: int, first_dealer: int | None,
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
        return await self.database.tx(tx)

    async def append(self, saved_id: int, seq: int, action: Action) -> None:
        """Write action number ``seq`` (0, 1, ...) of a saved game; the
        primary key (saved game, seq) refuses a second writer of the same
        step with ``sqlite3.IntegrityError``."""
        await self.database.tx(lambda db: db.execute(
            "INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
            (saved_id, seq, action_to_text(action))))

    async def load(self, account_id: int) -> SavedGame | None:
        """The unfinished game of an account, or ``None``.  Raises
        :class:`~engine.notation.NotationError` when the log cannot be read."""
        def q(db: sqlite3.Connection) -> SavedGame | None:
            row = db.execute("SELECT id, opponent, number, first_dealer, rules, match_points, started "
                             "FROM saved_games WHERE account_id = ?", (account_id,)).fetchone()
            if row is None:
                return None
            actions = [action_from_text(a) for (a,) in db.execute(
                "SELECT action FROM saved_actions WHERE saved_id = ? ORDER BY seq", (row[0],))]
            mp = json.loads(row[5])
            return SavedGame(row[0], account_id, row[1], row[2], row[3], rules_from_dict(json.loads(row[4])),
                             actions, (mp[0], mp[1]), row[6])
        return await self.database.query(q)

    async def drop(self, saved_id: int) -> None:
        """Forget an unfinished game (declined, or abandoned)."""
        await self.database.tx(lambda db: db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,)))

    async def drop_for(self, account_id: int) -> bool:
        """Forget the unfinished game of an account, even one whose log
        cannot be read; True when there was one."""
        def tx(db: sqlite3.Connection) -> bool:
            return db.execute("DELETE FROM saved_games WHERE account_id = ?", (account_id,)).rowcount > 0
        return await self.database.tx(tx)
