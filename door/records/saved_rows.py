"""An unfinished game as a value (:class:`SavedGame`, and :class:`GameStart`
for a new one) and as the row of ``saved_games`` the store keeps, read
back with its action log (:func:`saved_from_row`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from door.records.connection import Connection
from door.records.game_kinds import GameKind, derived_kind
from door.records.games import Opponent
from engine.actions import Action
from engine.game import Game
from engine.notation import NotationError, action_from_text, rules_from_dict
from engine.rules import Rules
from engine.shuffle import SeededShuffle, ShuffleError

__all__ = ["GameStart", "SavedGame", "Standing", "COLUMNS", "saved_from_row", "kind_of_row", "to_move_of"]

COLUMNS = ("id, account_id, opponent, number, first_dealer, rules, match_points, started, seat, other_account, "
           "players, shuffle, kind, updated, to_move, deadline, days_per_move, hand, score0, score1, best_of, rated")
"""The columns of ``saved_games`` :func:`saved_from_row` reads, in its order."""


@dataclass(frozen=True)
class Standing:
    """Where a game stands: its ``hand`` number (1 for the first deal)
    and both seats' ``scores`` (points, seat 0 first)."""

    hand: int
    scores: tuple[int, int]

    @classmethod
    def of(cls, game: Game) -> Standing:
        """Where ``game`` stands now."""
        return cls(game.hand_number, game.scores())


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game: enough to rebuild it exactly (``started`` in
    seconds since the epoch; ``match_points`` the games credited before it).

    ``account_id`` owns it and sits in ``seat`` (0 or 1); in a game between
    two callers ``other_account`` is the other caller's account (``None``
    for a guest), who finds it too.  ``players``: both seats' names as the
    game was played (empty for games kept before schema version 3).
    ``kind``: what it is (:class:`~door.records.game_kinds.GameKind`);
    ``updated``: when its last move was kept (seconds since the epoch; its
    start before one); ``to_move``: the seat whose decision it waits for,
    ``None`` when both decide (the discard) or it is not known;
    ``deadline`` (seconds since the epoch) and ``days_per_move``: a
    correspondence game's, else ``None``; ``best_of`` and ``rated``: the
    match it is a game of, as a game by turns goes on from sitting to
    sitting (``match_points`` then the games each seat won in it)."""

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
    kind: GameKind = GameKind.COMPUTER
    updated: float = 0.0
    to_move: int | None = None
    deadline: float | None = None
    days_per_move: int | None = None
    best_of: int = 1
    rated: bool = False

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
        return f"game #{self.number} (hand {game.hand_number}, you {scores[seat]}, {self.other_name(seat)} " \
               f"{scores[1 - seat]})"

    def other_name(self, seat: int) -> str:
        """Who plays against ``seat``: ``Computer``, ``the sysop``, the
        other caller's name as the game was played, or ``another caller``
        when the game did not keep names."""
        if self.opponent == Opponent.SYSOP:
            return "the sysop"
        if self.opponent == Opponent.CALLER:
            return self.players[1 - seat] if len(self.players) == 2 else "another caller"
        return "Computer"


@dataclass(frozen=True)
class GameStart:
    """A new game whose action log begins: owned by ``account_id``, who
    plays ``opponent`` (an :class:`~door.records.games.Opponent` value), game ``number``
    with its fixed ``first_dealer`` (``None``: the cut decides) under
    ``rules``, the games each seat was credited before it (``match_points``),
    the owner sitting in ``seat``; ``other_account``, ``players`` and
    ``shuffle``: see :class:`SavedGame`.  ``kind``: what the game is
    (``None``: read from the rest, :func:`~door.records.game_kinds.derived_kind`);
    ``to_move``, ``deadline`` (seconds since the epoch),
    ``days_per_move``, ``best_of`` and ``rated``: see :class:`SavedGame`."""

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
    kind: GameKind | None = None
    to_move: int | None = None
    deadline: float | None = None
    days_per_move: int | None = None
    best_of: int = 1
    rated: bool = False

    def game_kind(self) -> GameKind:
        """``kind``, or the kind read from the rest when it is ``None``."""
        if self.kind is not None:
            return self.kind
        shuffle = None if self.shuffle is None else json.dumps(self.shuffle.to_dict())
        return derived_kind(self.opponent, self.match_points, shuffle)


def kind_of_row(kind: str, opponent: str, match_points: str, shuffle: str | None) -> GameKind:
    """The kind a ``saved_games`` row keeps, or (``kind`` empty: a row
    kept before kinds were written, or by a node of the release before)
    the kind its other columns tell (:func:`~door.records.game_kinds.derived_kind`).
    Raises :class:`~engine.notation.NotationError` for a kind this
    program does not know."""
    if not kind:
        return derived_kind(opponent, match_points, shuffle)
    try:
        return GameKind(kind)
    except ValueError:
        raise NotationError(f"unknown kind of game {kind!r}") from None


def saved_from_row(db: Connection, row: Sequence[Any], texts: Sequence[str] | None = None) -> SavedGame:
    """The game a row of ``saved_games`` (its :data:`COLUMNS`) keeps, with
    its actions (``texts``, in order, when the caller read them; else read
    from ``saved_actions`` on ``db``).  Raises
    :class:`~engine.notation.NotationError` when the row or its log
    cannot be read."""
    if texts is None:
        texts = [a for (a,) in db.execute("SELECT action FROM saved_actions WHERE saved_id = ? ORDER BY seq",
                                          (row[0],))]
    actions = [action_from_text(a) for a in texts]
    try:
        mp, players = json.loads(row[6]), json.loads(row[10])
        rules = rules_from_dict(json.loads(row[5]))
    except ValueError as exc:
        raise NotationError(f"saved game {row[0]}: {exc}") from exc
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise NotationError(f"saved game {row[0]}: players {row[10]!r} are not names")
    try:
        shuffle = None if row[11] is None else SeededShuffle.from_dict(row[3], json.loads(row[11]))
    except (ShuffleError, ValueError) as exc:
        raise NotationError(f"saved game {row[0]}: {exc}") from exc
    kind = kind_of_row(row[12], row[2], row[6], row[11])
    return SavedGame(row[0], row[1], row[2], row[3], row[4], rules, actions, (mp[0], mp[1]), row[7], row[8],
                     row[9], tuple(players), shuffle, kind, row[7] if row[13] is None else row[13], row[14],
                     row[15], row[16], int(row[20]), bool(row[21]))


def to_move_of(game: Game) -> int | None:
    """The seat whose decision ``game`` waits for: 0 or 1, or ``None``
    when both decide (the discard) or none does (it is over)."""
    waiting = game.to_act()
    return waiting[0] if len(waiting) == 1 else None
