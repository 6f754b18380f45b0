"""An account's unfinished games as a list (:class:`KeptGame`: each with
its state, rebuilt by the engine) and the one-line summary of those
waiting on it (:class:`Waiting`), as the store reads them."""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from door.records.connection import Connection
from door.records.game_kinds import GameKind
from door.records.games import Opponent
from door.records.saved_rows import COLUMNS, kind_of_row, saved_from_row, to_move_of
from engine.game import replay
from engine.notation import NotationError

__all__ = ["Turn", "KeptGame", "Waiting", "kept_games", "waiting_on"]


class Turn(enum.StrEnum):
    """Whose decision an unfinished game waits for, as one of its players sees it."""

    YOU = "you"
    THEM = "them"
    BOTH = "both"
    """Both decide at once (the discard), or it is not known."""


@dataclass(frozen=True)
class KeptGame:
    """One unfinished game as the account ``seat`` sits in sees it: its
    ``id`` (:meth:`~door.records.saved_games.SavedGames.load_game`),
    ``kind``, the ``other`` side's name (``Computer``, ``the sysop``, the
    other caller's name, or ``a guest``), game ``number``, ``started`` and
    ``updated`` (the last move kept; seconds since the epoch), ``to_move``,
    ``deadline`` (seconds since the epoch) and ``days_per_move`` (``None``
    but in correspondence), ``owned`` (this account owns it), and its
    state: ``hand`` (the hand number) and ``scores`` (this account's
    first), both ``None`` when its log does not read; ``guest``: a game
    between callers whose other player was a guest (no account), who
    cannot come back to it."""

    id: int
    kind: GameKind
    other: str
    number: int
    started: float
    updated: float
    to_move: Turn
    deadline: float | None
    days_per_move: int | None
    seat: int
    owned: bool
    hand: int | None
    scores: tuple[int, int] | None
    guest: bool = False


@dataclass(frozen=True)
class Waiting:
    """The unfinished games waiting on one account's decision: how many
    (``count``) and the nearest ``deadline`` among them (seconds since the
    epoch; ``None`` when none has one)."""

    count: int
    deadline: float | None


_IN = "s.account_id = ? OR s.other_account = ?"
"""An account's games (``saved_games s``), owned or as the other caller."""

_WAITING = ("(s.account_id = ? AND (s.to_move IS NULL OR s.to_move = s.seat)) "
            "OR (s.other_account = ? AND (s.to_move IS NULL OR s.to_move = 1 - s.seat))")
"""An account's games that wait on its decision: its seat to move, or both."""


def _turn(to_move: int | None, seat: int) -> Turn:
    if to_move is None:
        return Turn.BOTH
    return Turn.YOU if to_move == seat else Turn.THEM


def _other(row: Sequence[Any], seat: int, owned: bool, players: Sequence[str]) -> str:
    """The other side's name: the computer, the sysop, the other caller's
    name as played, else as the account is named now (``row``'s last two
    columns: the owner's and the other caller's account names)."""
    opponent = row[2]
    if opponent == Opponent.SYSOP:
        return "the sysop"
    if opponent == Opponent.COMPUTER:
        return "Computer"
    if len(players) == 2:
        return players[1 - seat]
    name = row[-1] if owned else row[-2]
    return str(name) if name is not None else "a guest"


def _guest(row: Sequence[Any]) -> bool:
    """True for ``row``'s game between callers with no other account (a guest's)."""
    return bool(row[2] == Opponent.CALLER and row[9] is None)


def _stood(account_id: int, row: Sequence[Any]) -> KeptGame | None:
    """The game of ``row`` as its last writer said it stands (its hand,
    scores and seat to move), or ``None`` when it did not say, or the row
    does not read: then its log is replayed."""
    if row[17] is None or row[18] is None or row[19] is None:
        return None
    try:
        kind = kind_of_row(row[12], row[2], row[6], row[11])
        players = json.loads(row[10])
    except ValueError:  # (NotationError too)
        return None
    owned = row[1] == account_id
    seat = row[8] if owned else 1 - row[8]
    scores = (row[18], row[19])
    return KeptGame(row[0], kind, _other(row, seat, owned, players if isinstance(players, list) else ()), row[3],
                    row[7], row[7] if row[13] is None else row[13], _turn(row[14], seat), row[15], row[16], seat,
                    owned, row[17], (scores[seat], scores[1 - seat]), _guest(row))


def _kept(db: Connection, account_id: int, row: Sequence[Any], texts: Sequence[str]) -> KeptGame:
    owned = row[1] == account_id
    seat = row[8] if owned else 1 - row[8]
    updated = row[7] if row[13] is None else row[13]
    try:
        saved = saved_from_row(db, row, texts)
        game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
    except (ValueError, KeyError):  # (NotationError, IllegalAction: a log that does not read)
        try:
            kind = kind_of_row(row[12], row[2], row[6], row[11])
        except (NotationError, ValueError):
            kind = GameKind.CALLER if row[2] == Opponent.CALLER else GameKind.COMPUTER
        return KeptGame(row[0], kind, _other(row, seat, owned, ()), row[3], row[7], updated, _turn(row[14], seat),
                        row[15], row[16], seat, owned, None, None, _guest(row))
    scores = game.scores()
    return KeptGame(saved.id, saved.kind, _other(row, seat, owned, saved.players), saved.number, saved.started,
                    updated, _turn(to_move_of(game), seat), saved.deadline, saved.days_per_move, seat, owned,
                    game.hand_number, (scores[seat], scores[1 - seat]), _guest(row))


def kept_games(db: Connection, account_id: int, waiting: bool = False, stood: bool = True) -> list[KeptGame]:
    """Every unfinished game ``account_id`` is in (owned, or as the other
    caller) on ``db`` (``waiting``: only those waiting on its decision, as
    :func:`waiting_on` counts them), each with its state and whose move it
    is, as its last writer said they stand (``stood``; else, or where it
    did not say, its log replayed): those with a deadline first, the
    nearest first, then the most recently played first.  At most two
    queries whatever the number of games."""
    columns = ", ".join(f"s.{c}" for c in COLUMNS.split(", "))
    rows = db.execute(f"SELECT {columns}, a.name, o.name FROM saved_games s "
                      "LEFT JOIN accounts a ON a.id = s.account_id LEFT JOIN accounts o ON o.id = s.other_account "
                      f"WHERE {_WAITING if waiting else _IN} "
                      "ORDER BY s.deadline IS NULL, s.deadline, COALESCE(s.updated, s.started) DESC, s.id DESC",
                      (account_id, account_id)).fetchall()
    known = {row[0]: game for row in rows if stood and (game := _stood(account_id, row)) is not None}
    replayed = [row[0] for row in rows if row[0] not in known]
    texts: dict[int, list[str]] = {saved_id: [] for saved_id in replayed}
    if replayed:
        for saved_id, text in db.execute(f"SELECT saved_id, action FROM saved_actions WHERE saved_id IN "
                                         f"({', '.join('?' * len(replayed))}) ORDER BY saved_id, seq", replayed):
            texts[saved_id].append(text)
    return [known[row[0]] if row[0] in known else _kept(db, account_id, row, texts[row[0]]) for row in rows]


def waiting_on(db: Connection, account_id: int) -> Waiting:
    """How many of ``account_id``'s unfinished games wait on its decision
    (the seat to move is its own, or both decide) and the nearest deadline
    among them: one query on the indexes by account, no replay."""
    row = db.execute(f"SELECT COUNT(*), MIN(s.deadline) FROM saved_games s WHERE {_WAITING}",
                     (account_id, account_id)).fetchone()
    return Waiting(int(row[0]), None if row[1] is None else float(row[1]))
