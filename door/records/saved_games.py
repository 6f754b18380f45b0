"""Unfinished games: the action log of each, so that a game survives a
dropped connection or a killed server (the engine rebuilds it from rules,
game number, first dealer and actions), and no table need stay in memory
while nobody plays at it: any node loads it by id.

An account keeps any number of unfinished games, each kind with its own
limit (:mod:`door.records.game_kinds`), once the store has made the
contract step :data:`~door.records.schema.MANY_GAMES`.  Before it (a node
of the release before may still use the store, which keeps one game an
owner) a new game replaces its owner's older one, as it always did; the
store reads which steps it made on every new game, so a node needs no
restart when the step is made."""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.game_kinds import KEPT_LIMITS, ONE_A_PAIR, REPLACES, GameKind, TooManyGames, kind_words
from door.records.kept_list import KeptGame, Waiting, kept_games, waiting_on
from door.records.saved_rows import COLUMNS, GameStart, SavedGame, Standing, kind_of_row, saved_from_row
from door.records.schema import MANY_GAMES
from engine.actions import Action
from engine.notation import NotationError, action_to_text, rules_to_dict

__all__ = ["DUE_SQL", "GameStart", "SavedGame", "SavedGames", "Standing", "StoodAt", "KEEP"]

log = logging.getLogger(__name__)


class _Keep(enum.Enum):
    KEEP = "keep"


KEEP = _Keep.KEEP
"""For :meth:`SavedGames.append`: leave the game's seat to move (or deadline) as it is."""

_NEWEST = "ORDER BY account_id = ? DESC, started DESC, id DESC LIMIT 1"
"""An account's newest game: the newest it owns, else the newest another caller owns with it."""


def _many(db: Connection) -> bool:
    """Whether the store made the contract step that lets an owner keep many games."""
    row = db.execute("SELECT version FROM schema_steps").fetchone()
    return row is not None and int(row[0]) >= MANY_GAMES


def _name(db: Connection, account_id: int) -> str:
    row = db.execute("SELECT name FROM accounts WHERE id = ?", (account_id,)).fetchone()
    return str(row[0]) if row is not None else f"account {account_id}"


def _row_kind(row: Sequence[Any]) -> GameKind | None:
    try:
        return kind_of_row(row[3], row[4], row[5], row[6])
    except (NotationError, ValueError):
        return None  # (a kind of a newer release, or a row that does not read: counts for no kind)


def _pair_replaced(same: list[Any], kind: GameKind, pair: tuple[int, int | None], drop: list[int]) -> list[Any]:
    """``same`` (rows of a kind) without the older game the two callers of
    ``pair`` keep together in a kind of :data:`ONE_A_PAIR`, whose id goes
    to ``drop`` (a new one replaces it)."""
    owner, other = pair
    if other is None or kind not in ONE_A_PAIR:
        return same
    together = [r[0] for r in same if {r[1], r[2]} == {owner, other}]
    drop.extend(i for i in together if i not in drop)
    return [r for r in same if r[0] not in together]


def _full(name: str, kind: GameKind, limit: int) -> str:
    """Why ``name`` may not keep another game of ``kind`` (``limit`` kept at most), in a sentence."""
    if limit <= 0:
        return f"The door keeps no {kind_words(kind, 2)}."
    if limit == 1:
        return f"{name} already has an unfinished {kind_words(kind)}: finish it or give it up first."
    return (f"{name} already has {limit} unfinished {kind_words(kind, 2)}, as many as the door "
            "keeps: finish one or give one up first.")


DUE_SQL = ("SELECT g.id, g.to_move, g.deadline, COALESCE(g.updated, g.started), g.seat, g.account_id, "
           "g.other_account, g.days_per_move, (SELECT COUNT(*) FROM saved_actions a WHERE a.saved_id = g.id) "
           "FROM saved_games g WHERE g.id IN (SELECT id FROM saved_games WHERE kind = ? AND deadline <= ? "
           "UNION SELECT id FROM saved_games WHERE kind = ? AND (COALESCE(updated, started)) <= ?) ORDER BY g.id")
"""The sweeper's query (:meth:`SavedGames.correspondence_due`; its
arguments: a kind, a time, the kind again, a time): the games of a kind
due by their deadline, and those idle since a time, each read through an
index (``saved_games_kind_deadline``, ``saved_games_kind_idle``)."""


@dataclass(frozen=True)
class DueGame:
    """A correspondence game as the sweeper sees it: its ``id``, the seat
    ``to_move`` (``None``: both, or nobody), its ``deadline`` and the time
    it was last ``updated`` (seconds since the epoch), both players'
    ``accounts`` by seat, its ``days`` per move, whether it has
    ``started`` (a move was made) and how many ``moves`` its log holds."""

    id: int
    to_move: int | None
    deadline: float | None
    updated: float
    accounts: tuple[int | None, int | None]
    days: int | None
    started: bool
    moves: int = 0


@dataclass(frozen=True)
class StoodAt:
    """A kept game where its last move left it, read without its log: the
    ``saved`` game (its ``actions`` empty: not read), the number of
    ``moves`` in its log, and both seats' ``scores`` (``None``: not kept,
    as for a game not moved since the store's contract step: replay it),
    in its ``hand`` (its number, 0: not kept)."""

    saved: SavedGame
    moves: int
    scores: tuple[int, int] | None
    hand: int = 0


class SavedGames:
    """The action logs in ``database``: an account keeps up to ``limits``
    unfinished games of each kind (:data:`~door.records.game_kinds.KEPT_LIMITS`);
    a game between two callers belongs to one of them (the owner) and is
    found by both."""

    def __init__(self, database: Database, clock: Clock = WALL, limits: Mapping[GameKind, int] = KEPT_LIMITS) -> None:
        self.database = database
        self.clock = clock
        self.limits = limits

    def _room(self, db: Connection, owner: int, kind: GameKind, other: int | None, one_an_owner: bool) -> list[int]:
        """The games to drop so that a new game of ``kind`` owned by
        ``owner`` (with the other caller ``other``) fits (the owner's
        oldest of a kind that replaces; the two callers' older game of a
        kind they keep one of together).  ``one_an_owner``: the store keeps
        one game an owner and the owner's are all replaced, so they do not
        count.  Raises :class:`TooManyGames`."""
        limit = self.limits.get(kind, 0)
        drop: list[int] = []
        for account in (owner,) if other is None else (owner, other):
            rows = db.execute("SELECT id, account_id, other_account, kind, opponent, match_points, shuffle "
                              "FROM saved_games WHERE account_id = ? OR other_account = ? ORDER BY started, id",
                              (account, account)).fetchall()
            same = [r for r in rows if _row_kind(r) == kind and not (one_an_owner and r[1] == owner)]
            same = _pair_replaced(same, kind, (owner, other), drop)
            if len(same) < limit:
                continue
            owned = [r[0] for r in same if r[1] == owner]
            need = len(same) - limit + 1
            if kind in REPLACES and account == owner and limit > 0 and len(owned) >= need:
                drop.extend(owned[:need])
                continue
            message = _full(_name(db, account), kind, limit)
            raise TooManyGames(message, account, kind, limit)
        return drop

    async def check_room(self, account_id: int, kind: GameKind, other_account: int | None = None) -> None:
        """Return when a new game of ``kind`` owned by ``account_id``
        (with ``other_account``, the other caller) may begin; raises
        :class:`~door.records.game_kinds.TooManyGames` (its message a
        sentence for the caller) when :meth:`begin` would refuse it.  So
        the game's service can refuse before seating anybody."""
        await self.database.query(lambda db: self._room(db, account_id, kind, other_account, not _many(db)))

    async def may_begin(self, account_id: int, kind: GameKind, other_account: int | None = None) -> bool:
        """Whether :meth:`begin` would keep a new game of ``kind`` owned by
        ``account_id`` with ``other_account`` (:meth:`check_room` says why not)."""
        try:
            await self.check_room(account_id, kind, other_account)
        except TooManyGames:
            return False
        return True

    async def begin(self, start: GameStart) -> int:
        """Start the action log of a new game (``start``); returns its id.
        When its kind is full for its owner (or the other caller), the
        owner's oldest game of a kind that replaces
        (:data:`~door.records.game_kinds.REPLACES`) makes room; any other
        kind raises :class:`~door.records.game_kinds.TooManyGames` and
        nothing is written.  The two callers' older game of a kind they
        keep one of together (:data:`~door.records.game_kinds.ONE_A_PAIR`)
        is replaced.  Before the store made the contract step
        :data:`~door.records.schema.MANY_GAMES`, the new game replaces
        every game its owner owns (a game the owner is only the other
        caller of stays), as it always did."""
        kind = start.game_kind()

        def tx(db: Connection) -> int:
            one_an_owner = not _many(db)
            drop = self._room(db, start.account_id, kind, start.other_account, one_an_owner)
            if one_an_owner:
                db.execute("DELETE FROM saved_games WHERE account_id = ?", (start.account_id,))
            for saved_id in drop:
                db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,))
            now = self.clock()
            row = db.execute(
                "INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, match_points, started, "
                "seat, other_account, players, shuffle, kind, updated, to_move, deadline, days_per_move, best_of, rated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (start.account_id, start.opponent, start.number, start.first_dealer,
                 json.dumps(rules_to_dict(start.rules)), json.dumps(list(start.match_points)), now, start.seat,
                 start.other_account, json.dumps(list(start.players or ())),
                 None if start.shuffle is None else json.dumps(start.shuffle.to_dict()), kind.value, now,
                 start.to_move, start.deadline, start.days_per_move, start.best_of, int(start.rated))).fetchone()
            return int(row[0])
        return await self.database.tx(tx)

    async def append(self, saved_id: int, seq: int, action: Action, to_move: int | None | _Keep = KEEP,
                     deadline: float | None | _Keep = KEEP, standing: Standing | None = None) -> None:
        """Write action number ``seq`` (0, 1, ...) of a saved game, and in
        the same transaction the time of its last move (now), where the
        game stands after it (``standing``, for :meth:`unfinished` to show
        without replaying the log; ``None``: not known, the list replays
        it), and, when given, the seat whose decision it waits for next
        (``to_move``: 0, 1, or ``None`` when both decide; see
        :func:`~door.records.saved_rows.to_move_of`) and its ``deadline``
        (seconds since the epoch, or ``None``); :data:`KEEP` leaves one as
        it is.  The primary key (saved game, seq) refuses a second writer
        of the same step with :class:`~door.records.database.Conflict`."""
        hand, scores = (None, (None, None)) if standing is None else (standing.hand, standing.scores)
        sets = ["updated = ?", "hand = ?", "score0 = ?", "score1 = ?"]
        values: list[float | None] = [self.clock(), hand, *scores]
        if to_move is not KEEP:
            sets.append("to_move = ?")
            values.append(to_move)
        if deadline is not KEEP:
            sets.append("deadline = ?")
            values.append(deadline)

        def tx(db: Connection) -> None:
            db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       (saved_id, seq, action_to_text(action)))
            db.execute(f"UPDATE saved_games SET {', '.join(sets)} WHERE id = ?", (*values, saved_id))
        await self.database.tx(tx)

    async def load(self, account_id: int, kind: GameKind | None = None) -> SavedGame | None:
        """The newest unfinished game of an account (of ``kind``, when
        given): the newest it owns, else the newest another caller owns
        with it; ``None`` when there is none.  Raises
        :class:`~engine.notation.NotationError` when the log cannot be
        read."""
        def q(db: Connection) -> SavedGame | None:
            where, args = self._where(account_id, kind)
            row = db.execute(f"SELECT {COLUMNS} FROM saved_games WHERE {where} {_NEWEST}", args).fetchone()
            return None if row is None else saved_from_row(db, row)
        return await self.database.query(q)

    async def load_game(self, saved_id: int) -> SavedGame | None:
        """The unfinished game ``saved_id``, ``None`` when there is none
        (finished, dropped).  Raises :class:`~engine.notation.NotationError`
        when its log cannot be read."""
        def q(db: Connection) -> SavedGame | None:
            row = db.execute(f"SELECT {COLUMNS} FROM saved_games WHERE id = ?", (saved_id,)).fetchone()
            return None if row is None else saved_from_row(db, row)
        return await self.database.query(q)

    async def unfinished(self, account_id: int, waiting: bool = False) -> list[KeptGame]:
        """Every unfinished game ``account_id`` is in (``waiting``: those
        waiting on its decision, the "your move" list), with its state
        (:func:`~door.records.kept_list.kept_games`): those with a deadline
        first, the nearest first, then the most recently played first."""
        return await self.database.query(lambda db: kept_games(db, account_id, waiting, _many(db)))

    async def rated_between(self, a: int, b: int, kind: GameKind = GameKind.CORRESPONDENCE) -> int:
        """How many rated unfinished games (a match counted once) of
        ``kind`` accounts ``a`` and ``b`` play with each other: fair play
        counts them with the pair's rated matches of the day."""
        return int(await self.database.query(lambda db: db.execute(
            "SELECT COUNT(*) FROM saved_games WHERE kind = ? AND rated = 1 AND ((account_id = ? AND other_account = ?) "
            "OR (account_id = ? AND other_account = ?))", (kind.value, a, b, b, a)).fetchone()[0]))

    async def waiting_on(self, account_id: int) -> Waiting:
        """How many unfinished games wait on ``account_id``'s decision and
        the nearest deadline among them (the login's summary; one indexed
        query, :func:`~door.records.kept_list.waiting_on`)."""
        return await self.database.query(lambda db: waiting_on(db, account_id))

    async def load_games(self, saved_ids: Sequence[int]) -> dict[int, SavedGame]:
        """The unfinished games of ``saved_ids`` that are there and read,
        by id (a game gone, finished or dropped, is left out; so is one
        whose row or log does not read, logged), in two queries (the rows,
        then every action of them)."""
        ids = sorted(set(saved_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))

        def q(db: Connection) -> dict[int, SavedGame]:
            rows = db.execute(f"SELECT {COLUMNS} FROM saved_games WHERE id IN ({marks})", ids).fetchall()
            texts: dict[int, list[str]] = {i: [] for i in ids}
            for saved_id, text in db.execute(f"SELECT saved_id, action FROM saved_actions WHERE saved_id IN ({marks}) "
                                             "ORDER BY saved_id, seq", ids):
                texts[int(saved_id)].append(text)
            games = {}
            for row in rows:
                try:
                    games[int(row[0])] = saved_from_row(db, row, texts[int(row[0])])
                except NotationError as exc:
                    log.warning("saved game %s does not read: %s", row[0], exc)
            return games
        return await self.database.query(q)

    async def stood_at(self, saved_ids: Sequence[int]) -> dict[int, StoodAt]:
        """The unfinished games of ``saved_ids`` that are there and read,
        by id, each with the length of its log and the scores its last
        move left (:class:`StoodAt`), its actions not read: one query."""
        ids = sorted(set(saved_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))

        def q(db: Connection) -> dict[int, StoodAt]:
            found = {}
            for row in db.execute(f"SELECT {COLUMNS}, (SELECT COUNT(*) FROM saved_actions a WHERE a.saved_id = "
                                  f"saved_games.id) FROM saved_games WHERE id IN ({marks})", ids).fetchall():
                try:
                    saved = saved_from_row(db, row, [])
                except NotationError as exc:
                    log.warning("saved game %s does not read: %s", row[0], exc)
                    continue
                scores = None if row[18] is None or row[19] is None else (int(row[18]), int(row[19]))
                found[saved.id] = StoodAt(saved, int(row[-1]), scores, int(row[17] or 0))
            return found
        return await self.database.query(q)

    async def correspondence_due(self, now: float, idle_since: float) -> list[DueGame]:
        """The correspondence games whose deadline is at or before ``now``
        or whose last move (or start) is at or before ``idle_since``
        (seconds since the epoch), for the sweeper: read through the
        indexes ``saved_games_kind_deadline`` and ``saved_games_kind_idle``,
        never the games not due."""
        def q(db: Connection) -> list[DueGame]:
            rows = db.execute(DUE_SQL, (GameKind.CORRESPONDENCE.value, now, GameKind.CORRESPONDENCE.value,
                                        idle_since)).fetchall()
            return [DueGame(r[0], r[1], r[2], float(r[3]), (r[5], r[6]) if r[4] == 0 else (r[6], r[5]), r[7],
                            int(r[8]) > 0, int(r[8])) for r in rows]
        return await self.database.query(q)

    async def drop(self, saved_id: int) -> None:
        """Forget an unfinished game (declined, or abandoned)."""
        await self.database.tx(lambda db: db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,)))

    async def drop_for(self, account_id: int, kind: GameKind | None = None) -> bool:
        """Forget the unfinished game of an account that :meth:`load` gives
        (of ``kind``, when given), even one whose log cannot be read; True
        when there was one."""
        def tx(db: Connection) -> bool:
            where, args = self._where(account_id, kind)
            return db.execute(f"DELETE FROM saved_games WHERE id = (SELECT id FROM saved_games WHERE {where} "
                              f"{_NEWEST})", args).rowcount > 0
        return await self.database.tx(tx)

    @staticmethod
    def _where(account_id: int, kind: GameKind | None) -> tuple[str, tuple[Any, ...]]:
        """The games of ``account_id`` (of ``kind``) and :data:`_NEWEST`'s
        arguments.  A kind is matched on the kind written; rows a node of
        the release before wrote (no kind yet) match the kind their
        opponent tells."""
        if kind is None:
            return "(account_id = ? OR other_account = ?)", (account_id, account_id, account_id)
        fallback = {GameKind.COMPUTER: "computer", GameKind.DAILY: "computer", GameKind.SYSOP: "sysop"}
        return ("(account_id = ? OR other_account = ?) AND (kind = ? OR (kind = '' AND opponent = ?))",
                (account_id, account_id, kind.value, fallback.get(kind, "caller"), account_id))
