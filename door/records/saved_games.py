"""Unfinished games: the action log of each, so that a game survives a
dropped connection or a killed server (the engine rebuilds it from rules,
game number, first dealer and actions)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.games import Opponent
from engine.actions import Action
from engine.game import Game
from engine.notation import NotationError, action_from_text, action_to_text, rules_from_dict, rules_to_dict
from engine.rules import Rules
from engine.shuffle import SeededShuffle, ShuffleError

__all__ = ["GameStart", "SavedGame", "SavedGames"]


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game: enough to rebuild it exactly (``started`` in
    seconds since the epoch; ``match_points`` the games credited before it).

    ``account_id`` owns it and sits in ``seat`` (0 or 1); in a game between
    two callers ``other_account`` is the other caller's account (``None``
    for a guest), who finds it too.  ``players``: both seats' names as the
    game was played (empty for games kept before schema version 3)."""

    id: int
    account_id: int
    opponent: str
    number: int
    first_dealer: int | None
    rules: Rules
    actions: list[Action]
    match_points: tuple[int, int]
    started: float
    seat: int = 0
    other_account: int | None = None
    players: tuple[str, ...] = ()
    shuffle: SeededShuffle | None = None
    """The seeds of its shuffles, or ``None`` for a numbered game."""

    def seat_of(self, account_id: int) -> int:
        """The seat ``account_id`` plays in this game (0 or 1).  Raises
        ``ValueError`` for an account that is not in it."""
        if account_id == self.account_id:
            return self.seat
        if account_id == self.other_account:
            return 1 - self.seat
        raise ValueError(f"account {account_id} is not in saved game {self.id}")

    def line(self, account_id: int, game: Game) -> str:
        """``"game #N (hand 3, you 20, Ann 26)"`` as ``account_id`` sees
        it, from ``game`` (this game replayed); the other player is
        ``Computer``, ``the sysop`` or the other caller's name.  Raises
        ``ValueError`` for an account not in it."""
        seat = self.seat_of(account_id)
        scores = game.scores()
        if self.opponent == Opponent.SYSOP:
            who = "the sysop"
        elif self.opponent == Opponent.CALLER:
            who = self.players[1 - seat] if len(self.players) == 2 else "another caller"
        else:
            who = "Computer"
        return f"game #{self.number} (hand {game.hand_number}, you {scores[seat]}, {who} {scores[1 - seat]})"


@dataclass(frozen=True)
class GameStart:
    """A new game whose action log begins: owned by ``account_id``, who
    plays ``opponent`` (an :class:`~door.records.games.Opponent` value), game ``number``
    with its fixed ``first_dealer`` (``None``: the cut decides) under
    ``rules``, the games each seat was credited before it (``match_points``),
    the owner sitting in ``seat``; ``other_account``, ``players`` and
    ``shuffle``: see :class:`SavedGame`."""

    account_id: int
    opponent: str
    number: int
    first_dealer: int | None
    rules: Rules
    match_points: tuple[int, int]
    seat: int = 0
    other_account: int | None = None
    players: tuple[str, str] | None = None
    shuffle: SeededShuffle | None = None


class SavedGames:
    """The action logs in ``database``: each account owns at most one
    unfinished game; a game between two callers belongs to one of them
    (the owner) and is found by both."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def begin(self, start: GameStart) -> int:
        """Start the action log of a new game (``start``; it replaces any
        older unfinished game its owner owns; a game the owner is only the
        other caller of stays).  Returns its id."""
        account_id, opponent, number, first_dealer = start.account_id, start.opponent, start.number, start.first_dealer
        rules, match_points, seat, other_account = start.rules, start.match_points, start.seat, start.other_account
        players, shuffle = start.players, start.shuffle

        def tx(db: Connection) -> int:
            db.execute("DELETE FROM saved_games WHERE account_id = ?", (account_id,))
            row = db.execute("INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, "
                             "match_points, started, seat, other_account, players, shuffle) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                             (account_id, opponent, number, first_dealer, json.dumps(rules_to_dict(rules)),
                              json.dumps(list(match_points)), self.clock(), seat, other_account,
                              json.dumps(list(players or ())),
                              None if shuffle is None else json.dumps(shuffle.to_dict()))).fetchone()
            return int(row[0])
        return await self.database.tx(tx)

    async def append(self, saved_id: int, seq: int, action: Action) -> None:
        """Write action number ``seq`` (0, 1, ...) of a saved game; the
        primary key (saved game, seq) refuses a second writer of the same
        step with :class:`~door.records.database.Conflict`."""
        await self.database.tx(lambda db: db.execute(
            "INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
            (saved_id, seq, action_to_text(action))))

    async def load(self, account_id: int) -> SavedGame | None:
        """The unfinished game of an account: the one it owns, else the
        newest game another caller owns with it; ``None`` when there is
        none.  Raises :class:`~engine.notation.NotationError` when the log
        cannot be read."""
        def q(db: Connection) -> SavedGame | None:
            row = db.execute("SELECT id, account_id, opponent, number, first_dealer, rules, match_points, started, "
                             "seat, other_account, players, shuffle FROM saved_games "
                             "WHERE account_id = ? OR other_account = ? "
                             "ORDER BY account_id = ? DESC, started DESC, id DESC LIMIT 1",
                             (account_id, account_id, account_id)).fetchone()
            if row is None:
                return None
            actions = [action_from_text(a) for (a,) in db.execute(
                "SELECT action FROM saved_actions WHERE saved_id = ? ORDER BY seq", (row[0],))]
            mp, players = json.loads(row[6]), json.loads(row[10])
            if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
                raise NotationError(f"saved game {row[0]}: players {row[10]!r} are not names")
            try:
                shuffle = None if row[11] is None else SeededShuffle.from_dict(row[3], json.loads(row[11]))
            except (ShuffleError, ValueError) as exc:
                raise NotationError(f"saved game {row[0]}: {exc}") from exc
            return SavedGame(row[0], row[1], row[2], row[3], row[4], rules_from_dict(json.loads(row[5])),
                             actions, (mp[0], mp[1]), row[7], row[8], row[9], tuple(players), shuffle)
        return await self.database.query(q)

    async def drop(self, saved_id: int) -> None:
        """Forget an unfinished game (declined, or abandoned)."""
        await self.database.tx(lambda db: db.execute("DELETE FROM saved_games WHERE id = ?", (saved_id,)))

    async def drop_for(self, account_id: int) -> bool:
        """Forget the unfinished game of an account (the one :meth:`load`
        gives), even one whose log cannot be read; True when there was one."""
        def tx(db: Connection) -> bool:
            return db.execute(
                "DELETE FROM saved_games WHERE id = (SELECT id FROM saved_games "
                "WHERE account_id = ? OR other_account = ? ORDER BY account_id = ? DESC, started DESC, id DESC "
                "LIMIT 1)", (account_id, account_id, account_id)).rowcount > 0
        return await self.database.tx(tx)
