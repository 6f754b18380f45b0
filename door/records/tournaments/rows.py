"""Reading and writing a tournament's rows (worker thread, inside the
caller's transaction): the tournament by name, its entries, its
pairings, a registered caller who may enter, a pairing decided or made."""

from __future__ import annotations

import json
from typing import Any

from door.records.connection import Connection
from door.records.names import name_key
from door.records.tournaments.progress import Decision, NewPairing
from door.records.tournaments.settings import Settings, TournamentError
from door.records.tournaments.values import Entry, Pairing, State, Tournament

__all__ = ["tournament", "entries", "pairings", "account", "keep_seeds", "decide", "insert_pairing", "TOURNAMENT_COLUMNS",
           "DEFAULT_RATING"]

TOURNAMENT_COLUMNS = "id, name, title, settings, state, created, started, ended, seeds"
_PAIRING_COLUMNS = ("id, wave, stage, slot, player0, player1, paired, deadline, shown, waiting, winner, score0, "
                    "score1, skunk, how, decided")

DEFAULT_RATING = 1500.0
"""The rating an unrated caller enters with (a new Glicko-2 rating)."""


def from_row(row: Any) -> Tournament:
    """A :class:`Tournament` from a row of :data:`TOURNAMENT_COLUMNS`."""
    seeds = {label: tuple(names) for label, names in json.loads(row[8]).items()}
    return Tournament(int(row[0]), row[1], row[2], Settings.from_json(row[3]), State(row[4]), row[5], row[6],
                      row[7], seeds)


def tournament(db: Connection, name: str) -> Tournament:
    """The tournament called ``name``.  Raises :class:`TournamentError` when there is none."""
    row = db.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise TournamentError(f"there is no tournament called {name!r} (cribbage-door tournament list)")
    return from_row(row)


def entries(db: Connection, tournament_id: int) -> list[Entry]:
    """The tournament's entries, in the order they entered."""
    return [Entry(r[0], r[1], float(r[2]), r[3]) for r in db.execute(
        "SELECT name, account_id, rating, entered FROM tournament_entries WHERE tournament_id = ? "
        "ORDER BY entered, name", (tournament_id,))]


def pairings(db: Connection, tournament_id: int, player: str | None = None) -> list[Pairing]:
    """The tournament's pairings (only ``player``'s, when given), in the order they were made."""
    only, args = ("AND (player0 = ? OR player1 = ?) ", (player, player)) if player is not None else ("", ())
    return [Pairing(int(r[0]), int(r[1]), r[2], r[3], (r[4], r[5]), r[6], r[7], int(r[8]), r[9], r[10],
                    (int(r[11]), int(r[12])), int(r[13]), r[14], r[15]) for r in db.execute(
        f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = ? {only}ORDER BY id",
        (tournament_id, *args))]


def account(db: Connection, t: Tournament, player: str) -> tuple[int, str, float]:
    """The registered caller ``player`` who may enter ``t``: their account
    id, name and rating.  Raises :class:`TournamentError` for nobody of
    that name, a bot where bots may not enter, or a rating outside the band."""
    row = db.execute("SELECT id, name FROM accounts WHERE name_key = ?", (name_key(player),)).fetchone()
    if row is None:
        raise TournamentError(f"{player!r} is not a registered caller: only registered callers enter tournaments")
    account_id, name = int(row[0]), str(row[1])
    if not t.settings.bots and db.execute("SELECT 1 FROM bots WHERE account_id = ?", (account_id,)).fetchone():
        raise TournamentError(f"{name} is a bot, and bots may not enter {t.name}")
    rated = db.execute("SELECT rating FROM ratings WHERE account_id = ?", (account_id,)).fetchone()
    rating = DEFAULT_RATING if rated is None else float(rated[0])
    if not t.settings.in_band(rating):
        s = t.settings
        raise TournamentError(f"{name}'s rating {rating:.0f} is outside {t.name}'s band "
                              f"({s.min_rating or 0:g} to {s.max_rating if s.max_rating is not None else 5000:g})")
    return account_id, name, rating


def keep_seeds(db: Connection, t: Tournament) -> None:
    """Keep ``t.seeds``, its knock-out's seeds by bracket label."""
    db.execute("UPDATE tournaments SET seeds = ? WHERE id = ?",
               (json.dumps({label: list(names) for label, names in t.seeds.items()}), t.id))


def decide(db: Connection, p: Pairing, d: Decision, now: float) -> None:
    """Write decision ``d`` of pairing ``p``, decided at ``now``."""
    db.execute("UPDATE tournament_pairings SET winner = ?, score0 = ?, score1 = ?, skunk = ?, how = ?, decided = ? "
               "WHERE id = ?", (d.winner, d.scores[0], d.scores[1], d.skunk, d.how, now, p.id))


def insert_pairing(db: Connection, t: Tournament, new: NewPairing, wave: int, now: float) -> int:
    """Make pairing ``new`` of ``t`` in ``wave`` at ``now`` (a bye is
    decided at once, with no deadline); its id."""
    bye = new.players[1] is None
    return int(db.execute(
        "INSERT INTO tournament_pairings (tournament_id, wave, stage, slot, player0, player1, paired, deadline, "
        "winner, how, decided) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (t.id, wave, new.stage, new.slot, new.players[0], new.players[1], now,
         None if bye else now + t.settings.round_seconds, 0 if bye else None, "bye" if bye else "",
         now if bye else None)).fetchone()[0])
