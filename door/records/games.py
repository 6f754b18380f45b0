"""Finished games: each game's result and the figures of each of its hands
(from :class:`engine.tally.GameTally`), for records and statistics."""

from __future__ import annotations

import enum
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from door.net.metrics import GAMES_FINISHED
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.names import name_key
from engine.actions import Action
from engine.cards import Card, format_cards
from engine.events import GameResult, Skunk
from engine.notation import NotationError, action_from_text, rules_from_dict, rules_to_dict
from engine.rules import Rules
from engine.shuffle import SeededShuffle, ShuffleError
from engine.tally import HandRecord

__all__ = ["GameRecord", "GameSummary", "Games", "Opponent", "RecordedMoves", "GAME_COLUMNS", "GAME_VALUES", "game_row", "write_hands", "write_record"]


class Opponent(enum.StrEnum):
    """Who the caller of a recorded game played (its value is what the
    database keeps): seat 1 against the computer or the sysop."""

    COMPUTER = "computer"
    SYSOP = "sysop"
    CALLER = "caller"
    """Another caller; each caller's account is in its seat."""


@dataclass(frozen=True)
class GameSummary:
    """A finished game as listed in records (times in seconds since the
    epoch; ``opponent`` the opponent kind's value, ``rules`` as played)."""

    id: int
    number: int
    players: tuple[str, str]
    scores: tuple[int, int]
    winner: int
    skunk: Skunk
    value: int
    opponent: str
    started: float
    ended: float
    rules: Rules
    forfeit: bool = False
    """True when the loser left the game (it was won by forfeit)."""
    shuffle: SeededShuffle | None = None
    """The seeds its shuffles came from, or ``None`` for a
    numbered game (or a record whose seeds cannot be read)."""

    def line(self) -> str:
        """``"2026-11-21 11:58  #639040  Ann 121 - Computer 98  skunk"``; a
        forfeit says who won it: ``"... Ann 80 - Sysop 96  Ann by forfeit"``."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.ended))
        skunk = {Skunk.NONE: "", Skunk.SKUNK: "  skunk", Skunk.DOUBLE: "  double skunk"}[self.skunk]
        a, b = self.players
        if self.forfeit:
            skunk = f"  {self.players[self.winner]} by forfeit"
        return f"{when}  #{self.number:<6}  {a} {self.scores[0]} - {b} {self.scores[1]}{skunk}"


@dataclass(frozen=True)
class RecordedMoves:
    """A recorded game as :func:`engine.game.replay` takes it: its
    ``number``, ``rules``, ``first_dealer``, ``shuffle`` and ``actions``;
    and the ``accounts`` in its seats (``None``: the computer, the sysop
    or a guest)."""

    game_id: int
    number: int
    rules: Rules
    first_dealer: int | None
    shuffle: SeededShuffle | None
    actions: list[Action]
    accounts: tuple[int | None, int | None]


def _summary(r: Sequence[Any]) -> GameSummary:
    shuffle = None
    if r[14] is not None:
        try:
            shuffle = SeededShuffle.from_dict(r[1], json.loads(r[14]))
        except (ShuffleError, ValueError):
            shuffle = None  # cribbage-door verify says what is wrong with it
    return GameSummary(r[0], r[1], (r[2], r[3]), (r[4], r[5]), r[6], Skunk(r[7]), r[8], r[9], r[10], r[11],
                       rules_from_dict(json.loads(r[12])), bool(r[13]), shuffle)


@dataclass(frozen=True)
class GameRecord:
    """A finished game to keep: its ``number`` and ``rules``, both seats'
    ``players`` (names) and ``accounts`` (``None`` for the computer, the
    sysop or a guest), who the caller played (``opponent``, an
    :class:`Opponent` value), the ``result``, the figures of its ``hands``,
    when it ``started`` (seconds since the epoch); ``forfeit``: the loser
    left the game before its end; ``shuffle``: its seeds (a verifiable
    shuffle; ``None`` for a numbered game); ``dealt``: the cards each
    shuffle gave (:attr:`engine.game.Game.dealt`), which ``cribbage-door
    verify`` deals again; ``first_dealer``: the game's fixed first dealer
    (``None``: the cut decided); ``by_turns``: played by turns over days
    (by correspondence, or a tournament's)."""

    number: int
    rules: Rules
    players: tuple[str, str]
    accounts: tuple[int | None, int | None]
    opponent: str
    result: GameResult
    hands: Sequence[HandRecord]
    started: float
    forfeit: bool = False
    shuffle: SeededShuffle | None = None
    dealt: Mapping[int, Sequence[Card]] | None = None
    first_dealer: int | None = None
    by_turns: bool = False


class Games:
    """The finished games in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock
        self.recorded: list[Callable[[], None]] = []
        """Called after each game is recorded (the bulletins are written then)."""

    async def record(self, saved_id: int | None, game: GameRecord) -> int:
        """Keep a finished ``game`` and its hands, and drop its action log
        (``saved_id``), in one transaction; returns the game's id.  The action
        log is kept with the record (``game_actions``), for the game's
        review."""
        game_id = await self.database.tx(lambda db: write_record(db, saved_id, game, self.clock()))
        self.finished()
        return game_id

    def finished(self, count: int = 1) -> None:
        """``count`` games were recorded (by :meth:`record`, or by
        :func:`write_record` in a transaction of their own): counted in the
        metrics, and the :attr:`recorded` hooks called for each."""
        for _ in range(count):
            GAMES_FINISHED.inc()
            for hook in self.recorded:
                hook()

    async def moves(self, game_id: int) -> RecordedMoves | None:
        """What a recorded game's review replays: its setup and its moves
        in order; ``None`` when it has no moves on record (recorded before
        they were kept, or a guest's).  Raises
        :class:`~engine.notation.NotationError` when they cannot be read."""
        def q(db: Connection) -> RecordedMoves | None:
            row = db.execute("SELECT number, rules, first_dealer, shuffle, account0, account1 FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                return None
            actions = [action_from_text(a) for (a,) in db.execute(
                "SELECT action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,))]
            if not actions:
                return None
            try:
                shuffle = None if row[3] is None else SeededShuffle.from_dict(row[0], json.loads(row[3]))
            except (ShuffleError, ValueError) as exc:
                raise NotationError(f"game {game_id}: {exc}") from exc
            return RecordedMoves(game_id, row[0], rules_from_dict(json.loads(row[1])), row[2], shuffle, actions,
                                 (row[4], row[5]))
        return await self.database.query(q)

    async def recorded_rules(self, number: int) -> Rules | None:
        """The rules game ``number`` was last played with, if it is on record."""
        def q(db: Connection) -> Rules | None:
            row = db.execute("SELECT rules FROM games WHERE number = ? ORDER BY ended DESC, id DESC LIMIT 1",
                             (number,)).fetchone()
            return None if row is None else rules_from_dict(json.loads(row[0]))
        return await self.database.query(q)

    async def recent(self, name: str | None = None, limit: int | None = None,
                     oldest_first: bool = False) -> list[GameSummary]:
        """Finished games, newest first (or oldest first), of the player
        ``name`` (ignoring case) or of everyone; at most ``limit``."""
        sql = ("SELECT g.id, g.number, g.player0, g.player1, g.score0, g.score1, g.winner, g.skunk, g.value, "
               "g.opponent, g.started, g.ended, g.rules, g.forfeit, g.shuffle FROM games g")
        args: list[Any] = []
        if name is not None:
            sql += (" WHERE g.account0 IN (SELECT id FROM accounts WHERE name_key = ?)"
                    " OR g.account1 IN (SELECT id FROM accounts WHERE name_key = ?)")
            args += [name_key(name), name_key(name)]
        sql += " ORDER BY g.ended, g.id" if oldest_first else " ORDER BY g.ended DESC, g.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return await self.database.query(lambda db: [_summary(r) for r in db.execute(sql, args)])


GAME_COLUMNS = ("number, rules, player0, player1, account0, account1, opponent, score0, score1, winner, skunk, value, "
                "started, ended, forfeit, shuffle, first_dealer, by_turns")
"""The columns of ``games`` a record writes, in :func:`game_row`'s order."""

GAME_VALUES = ", ".join("?" * (GAME_COLUMNS.count(",") + 1))
"""One placeholder for each of :data:`GAME_COLUMNS`."""


def game_row(game: GameRecord, ended: float) -> tuple[Any, ...]:
    """The values of :data:`GAME_COLUMNS` for ``game`` ended at ``ended``
    (seconds since the epoch)."""
    result, players, accounts, shuffle = game.result, game.players, game.accounts, game.shuffle
    return (game.number, json.dumps(rules_to_dict(game.rules)), players[0], players[1], accounts[0], accounts[1],
            game.opponent, result.scores[0], result.scores[1], result.winner, int(result.skunk), result.value,
            game.started, ended, int(game.forfeit), None if shuffle is None else json.dumps(shuffle.to_dict()),
            game.first_dealer, int(game.by_turns))


def write_record(db: Connection, saved_id: int | None, game: GameRecord, ended: float) -> int:
    """In the transaction of ``db``: keep the finished ``game`` (ended at
    ``ended``, seconds since the epoch), its deals and its hands, copy the
    action log of the saved game ``saved_id`` (if any) to the record
    (``game_actions``, for the game's review) and drop that saved game;
    returns the game's id.  Call :meth:`Games.finished` once the
    transaction is committed."""
    row = db.execute(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({GAME_VALUES}) RETURNING id",
                     game_row(game, ended)).fetchone()
    game_id = int(row[0])
    write_hands(db, game_id, game.hands, game.dealt)
    if saved_id is not None:
        db.execute("INSERT INTO game_actions (game_id, seq, action) "
                   "SELECT ?, seq, action FROM saved_actions WHERE saved_id = ?", (game_id, saved_id))
        db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,))
    return game_id


def write_hands(db: Connection, game_id: int, hands: Sequence[HandRecord],
                dealt: Mapping[int, Sequence[Card]] | None) -> None:
    """In the transaction of ``db``: keep the figures of the ``hands`` of
    the recorded game ``game_id`` and the cards each of its shuffles
    ``dealt`` (see :class:`GameRecord`)."""
    db.executemany("INSERT INTO game_deals (game_id, shuffle, cards) VALUES (?, ?, ?)",
                   [(game_id, k, format_cards(cards)) for k, cards in sorted((dealt or {}).items())])
    rows = []
    for h in hands:
        for seat, s in enumerate(h.seats):
            rows.append((game_id, h.number, seat, h.dealer, int(h.complete), int(h.replayed), s.pegging,
                         s.hand_points, s.hand_true, s.hand_claim, s.crib_points, s.crib_true,
                         s.crib_claim, s.heels, s.muggins_won, s.muggins_lost))
    db.executemany("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
