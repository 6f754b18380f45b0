"""A table's route to the store: a registered caller's game, its action
log while it runs and its record when it ends, and the matches between
callers as they end (with the ratings they move).

The table calls :meth:`Journal.action` after the engine accepted an action
and *before* anyone is shown its effect, so a game dropped at any moment
(a lost connection, a killed server) resumes exactly where the screens left
it.  A write that fails (the database locked by another program, a full
disk) is tried again for :data:`RETRY_FOR` seconds; then
:class:`JournalError` says the game cannot be kept, and the table holds
the game as the store has it (the move is never shown, the log stays
contiguous, and the caller resumes it later).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from door.records.database import Unreachable
from door.records.game_kinds import GameKind
from door.records.games import GameRecord, Opponent
from door.records.ranked.match import MatchEntry, MatchResult, MatchTerms
from door.records.ranked.ratings import MatchRecord
from door.records.saved_games import KEEP, GameStart
from door.records.saved_rows import Standing, to_move_of
from door.records.store import Conflict, SavedGame, Store, StoreError
from engine.events import GameResult, Skunk
from engine.game import Game
from engine.tally import GameTally

__all__ = ["Deadline", "Journal", "JournalError", "forfeited", "Kept", "RETRY_FOR", "HELD_MESSAGE"]

log = logging.getLogger(__name__)

BY_TURNS = frozenset({GameKind.CORRESPONDENCE, GameKind.TOURNAMENT})
"""The kinds of game played by turns over days: their matches are rated in a pool of their own."""

RETRY_FOR = 5.0
"""Seconds a failed write of a move is tried again before the game is held
(each try also waits up to the database's own 2 s busy timeout)."""

HELD_MESSAGE = ("The door cannot save your game right now; it is kept as it was before your last move. "
                "Call again later to resume it.")
"""What the players are told when the store could not keep a move."""

T = TypeVar("T")


Deadline = Callable[[int | None, float], Awaitable[float | None]]
"""When a decision of the seat to move (``None``: both) is due, from now (seconds since the epoch)."""


@dataclass(frozen=True)
class Kept:
    """How a game is kept beyond its moves: its ``kind`` (``None``: read
    from the rest, :func:`~door.records.game_kinds.derived_kind`), the
    ``days`` per move of a game by correspondence, and the ``deadline``
    of each decision (``None``: none); ``started``, told the id of each
    new game of the match as its log opens, and ``concluded``, told the
    match's result and its last game's scores (``None`` for a forfeit)
    when it ends: a tournament's pairing follows its games so.  ``terms``:
    the match each game's log says it belongs to (a game by turns goes
    on with it from sitting to sitting)."""

    kind: GameKind | None = None
    days: int | None = None
    deadline: Deadline | None = None
    started: Callable[[int], Awaitable[None]] | None = None
    concluded: Callable[[MatchResult, tuple[int, int] | None], Awaitable[None]] | None = None
    terms: MatchTerms = MatchTerms(1)
    live: bool = False

    @property
    def by_turns(self) -> bool:
        """Whether the game is played by turns over days (its records and
        ratings are those of play by turns)."""
        return self.kind in BY_TURNS and not self.live


class JournalError(RuntimeError):
    """The store could not keep a game's move (or its start) after
    :data:`RETRY_FOR` seconds of trying; the message says what failed."""


def forfeited(winner: int, scores: tuple[int, int]) -> GameResult:
    """The result of a game one player left on purpose (or ran out of time
    in): a win of ``winner`` (seat 0 or 1) at the ``scores`` it stood at
    (points, seat 0 first), one game, no skunk."""
    return GameResult(winner, scores, Skunk.NONE, 1)


class Journal:
    """Keeps the games of the account ``account_id`` (the owner; one of
    ``accounts``; ``None`` for a table of guests, whose games are not kept).

    ``players``: both seats' names; ``accounts``: both seats' account ids
    (``None`` for the computer, the sysop or a guest); ``opponent``: who
    the owner plays (:class:`Opponent`); ``warn``: called with a sentence
    for the players when the store fails; ``matches``: keep the matches
    played at the table as they end (between callers; ``None``: a club
    night's games, which keeps its own standings).  Every game is journaled, against
    the computer, the sysop or another caller, so any of them survives a
    killed server; a game between two registered callers is kept for both
    (:class:`~door.records.saved_games.SavedGame`).  Raises ``ValueError``
    when ``account_id`` is not in ``accounts``."""

    def __init__(self, store: Store, account_id: int | None, players: tuple[str, str],
                 accounts: tuple[int | None, int | None], opponent: Opponent,
                 warn: Callable[[str], None] = lambda text: None, matches: MatchEntry | None = None,
                 kept: Kept | None = None) -> None:
        self.store = store
        self.account_id = account_id
        self.players = players
        self.accounts = accounts
        self.opponent = opponent
        self.seat = accounts.index(account_id) if account_id is not None else None
        """The owner's seat (0 or 1; ``None`` without an owner)."""
        self.warn = warn
        self.matches = matches
        self.kept = kept or Kept()
        self.last_scores: tuple[int, int] | None = None
        """The scores of the last game played to its end (for :attr:`Kept.concluded`)."""
        self.saved_id: int | None = None
        self.started = self.store.clock()

    async def _telling(self, what: str, told: Awaitable[None]) -> None:
        """Await ``told`` (a hook of :attr:`kept`): one that fails is logged,
        never the game's end."""
        try:
            await told
        except Exception:
            log.exception("could not %s of game %s", what, self.saved_id)

    def _failed(self, what: str, exc: Exception) -> None:
        log.error("store failed to %s for account %d: %s", what, self.account_id, exc)
        self.warn(f"The door could not save your game ({what}).")

    async def _retrying(self, what: str, write: Callable[[], Awaitable[T]]) -> T:
        """``write()``, tried again for :data:`RETRY_FOR` seconds (backing
        off from 0.1 s); raises :class:`JournalError` when it never took."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RETRY_FOR
        pause = 0.1
        while True:
            try:
                return await write()
            except Conflict as exc:  # another writer took this step: never retried
                log.error("store refused to %s for account %d: %s", what, self.account_id, exc)
                raise JournalError(f"could not {what}: {exc}") from exc
            except StoreError as exc:
                if loop.time() + pause > deadline:
                    log.error("store failed to %s for account %d for %g s: %s", what, self.account_id,
                              RETRY_FOR, exc)
                    raise JournalError(f"could not {what}: {exc}") from exc
                quiet = isinstance(exc, Unreachable)  # (an outage is the store's to log: once, not each retry)
                log.log(logging.DEBUG if quiet else logging.WARNING, "store failed to %s for account %d (%s): "
                        "trying again", what, self.account_id, exc)
                await asyncio.sleep(pause)
                pause = min(1.0, pause * 2)

    async def start(self, game: Game, match_points: tuple[int, int]) -> None:
        """A new game began: open its action log.  Raises
        :class:`JournalError` when the store cannot keep it."""
        self.started = self.store.clock()
        if self.account_id is None or self.seat is None:
            return  # a table of guests: nothing to keep
        to_move = to_move_of(game)
        start = GameStart(self.account_id, self.opponent, game.number, game.first_dealer, game.rules, match_points,
                          self.seat, self.accounts[1 - self.seat], self.players, game.shuffle, self.kept.kind,
                          to_move, await self._deadline(to_move), self.kept.days, self.kept.terms.best_of,
                          self.kept.terms.rated)
        self.saved_id = await self._retrying("start the game", lambda: self.store.saved.begin(start))
        self.last_scores = None
        if self.kept.started is not None:
            await self._telling("follow the game", self.kept.started(self.saved_id))

    def keeps_for(self, seat: int) -> bool:
        """True when ``seat``'s player has this game kept in the store (a
        registered caller's seat, not the computer's or the sysop's)."""
        return self.accounts[seat] is not None

    def resume(self, saved: SavedGame) -> None:
        """A saved game goes on: keep writing to its log."""
        self.saved_id = saved.id
        self.started = saved.started

    async def action(self, game: Game) -> None:
        """Write the game's latest action (before its effect is shown).
        Raises :class:`JournalError` when the store cannot keep it: the
        caller must not show the move."""
        saved_id = self.saved_id
        if saved_id is None:
            return
        seq, action = len(game.actions) - 1, game.actions[-1]
        to_move, standing = to_move_of(game), Standing.of(game)  # (for the lists of kept games, without a replay)
        deadline = await self._deadline(to_move) if self.kept.deadline is not None else KEEP
        await self._retrying("save your move", lambda: self.store.saved.append(
            saved_id, seq, action, to_move=to_move, deadline=deadline, standing=standing))

    async def _deadline(self, to_move: int | None) -> float | None:
        """When the next decision is due (a game by correspondence), or ``None``."""
        if self.kept.deadline is None:
            return None
        return await self.kept.deadline(to_move, self.store.clock())

    async def drop(self) -> None:
        """The caller gave the game up (N to "Go back to it?"): forget its
        action log, leaving the records as they are.  A store that fails
        is logged and told; the game is then offered again next time."""
        saved_id, self.saved_id = self.saved_id, None
        if saved_id is None:
            return
        try:
            await self._retrying("forget the game", lambda: self.store.saved.drop(saved_id))
        except JournalError as exc:
            self._failed("forget the game", exc)

    async def forfeit(self, game: Game, tally: GameTally, winner: int) -> None:
        """Keep a game one player left on purpose as a win of ``winner`` at
        the scores it stood at (one game, no skunk; see :meth:`Table.quit
        <door.play.table.Table.quit>`), with its hands so far."""
        await self._record(game, forfeited(winner, game.scores()), tally, forfeit=True)

    async def finish(self, game: Game, tally: GameTally) -> None:
        """Keep the finished game and its hands; drop its action log."""
        assert game.result is not None
        self.last_scores = game.result.scores
        await self._record(game, game.result, tally)

    async def match_over(self, result: MatchResult) -> list[str]:
        """Keep a match that ended (with ``matches`` given; a rated one
        moves both ratings, of the pool played by turns for a game by
        correspondence or a tournament's, unless it was aborted before its
        first deal);
        returns what both players are told: the ratings before and after,
        in points (none for a match not rated).  Raises what the store
        raises (:class:`~door.records.database.StoreError`)."""
        if self.kept.concluded is not None:
            await self._telling("follow the match", self.kept.concluded(result, self.last_scores))
        if self.matches is None:
            return []
        rated = result.terms.rated and None not in self.accounts
        change = await self.store.ratings.record(MatchRecord(
            self.players, self.accounts, result.terms.best_of, rated, result.wins, result.winner, result.forfeit,
            result.aborted, result.leaver, result.hands, self.matches.networks, self.matches.unrated_why,
            self.matches.via, by_turns=self.kept.by_turns))
        return [] if change is None else change.lines(self.players)

    async def _record(self, game: Game, result: GameResult, tally: GameTally, forfeit: bool = False) -> None:
        if self.account_id is None:
            return  # a table of guests leaves no records
        record = GameRecord(game.number, game.rules, self.players, self.accounts, self.opponent, result, tally.hands,
                            self.started, forfeit, game.shuffle, game.dealt, game.first_dealer,
                            self.kept.by_turns)
        try:
            await self._retrying("record the game", lambda: self.store.games.record(self.saved_id, record))
        except JournalError as exc:
            self._failed("record the game", exc)
        self.saved_id = None
