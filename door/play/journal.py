"""A registered caller's game in the store: the action log while it runs,
the record when it ends.

The table calls :meth:`Journal.action` after the engine accepted an action
and *before* anyone is shown its effect, so a game dropped at any moment
(a lost connection, a killed server) resumes exactly where the screens left
it.  A failure to write is logged and told to the caller; play goes on.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from typing import Callable

from engine.game import Game

from engine.tally import GameTally
from door.records.games import Opponent
from door.records.store import SavedGame, Store, StoreError

__all__ = ["Journal"]

log = logging.getLogger(__name__)


class Journal:
    """Keeps the games of the account ``account_id`` (in seat 0).

    ``players``: both seats' names; ``accounts``: both seats' account ids
    (``None`` for the computer or a guest); ``opponent``: who seat 1 is
    (:class:`Opponent`); ``warn``: called with a sentence for the caller when the
    store fails; ``log_actions``: keep the action log (games against the
    computer) or only the record."""

    def __init__(self, store: Store, account_id: int, players: tuple[str, str],
                 accounts: tuple[int | None, int | None], opponent: Opponent,
                 warn: Callable[[str], None] = lambda text: None, log_actions: bool = True) -> None:
        self.store = store
        self.account_id = account_id
        self.players = players
        self.accounts = accounts
        self.opponent = opponent
        self.warn = warn
        self.saved_id: int | None = None
        self.log_actions = log_actions
        self.started = time.time()

    def _failed(self, what: str, exc: Exception) -> None:
        log.error("store failed to %s for account %d: %s", what, self.account_id, exc)
        self.warn(f"The door could not save your game ({what}); play goes on.")

    async def start(self, game: Game, match_points: tuple[int, int]) -> None:
        """A new game began: open its action log (unless ``log_actions`` is
        off: a game against the sysop is kept in memory while it runs)."""
        self.started = time.time()
        if not self.log_actions:
            return
        try:
            self.saved_id = await self.store.saved.begin(self.account_id, self.opponent, game.number,
                                                        game.first_dealer, game.rules, match_points)
        except (StoreError, sqlite3.Error) as exc:
            self.saved_id = None
            self._failed("start the game", exc)

    def resume(self, saved: SavedGame) -> None:
        """A saved game goes on: keep writing to its log."""
        self.saved_id = saved.id
        self.started = saved.started

    async def action(self, game: Game) -> None:
        """Write the game's latest action (before its effect is shown)."""
        if self.saved_id is None:
            return
        try:
            await self.store.saved.append(self.saved_id, len(game.actions) - 1, game.actions[-1])
        except (StoreError, sqlite3.Error) as exc:
            self._failed("write a move", exc)

    async def finish(self, game: Game, tally: GameTally) -> None:
        """Keep the finished game and its hands; drop its action log."""
        assert game.result is not None
        try:
            await self.store.games.record(self.saved_id, game.number, game.rules, self.players, self.accounts,
                                         self.opponent, game.result, tally.hands, self.started)
        except (StoreError, sqlite3.Error) as exc:
            self._failed("record the game", exc)
        self.saved_id = None
