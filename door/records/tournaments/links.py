"""Which kept game plays which tournament pairing: the game service seats
a pairing as a kept game (played by correspondence or live), links the two, and
reads the link back when a player opens the game (its match length, its
deadline, where its result goes) and when the pairing is decided without
it (its deadline passed: the game is dropped)."""

from __future__ import annotations

from dataclasses import dataclass

from door.records.connection import Connection
from door.records.database import Database
from door.records.tournaments.settings import Play, Settings

__all__ = ["GameLink", "Links"]


@dataclass(frozen=True)
class GameLink:
    """A kept game's tournament pairing: the ``tournament``'s name, the
    ``pairing`` id, the players' names by seat, the ``best_of`` games of
    its match (1 in a Swiss), its round's ``deadline`` (seconds since
    the epoch, ``None``: none), whether it is ``decided``, and whether
    it is played ``live`` (else by correspondence)."""

    tournament: str
    pairing: int
    players: tuple[str, str]
    best_of: int
    deadline: float | None
    decided: bool
    live: bool = False


_SELECT = ("SELECT t.name, p.id, p.player0, p.player1, p.stage, t.settings, p.deadline, p.winner "
           "FROM tournament_games g JOIN tournament_pairings p ON p.id = g.pairing_id "
           "JOIN tournaments t ON t.id = p.tournament_id ")


def _link(row: tuple[object, ...]) -> GameLink:
    settings = Settings.from_json(str(row[5]))
    best_of = 1 if row[4] == "swiss" else settings.format.games
    return GameLink(str(row[0]), int(str(row[1])), (str(row[2]), str(row[3] or "")), best_of,
                    None if row[6] is None else float(str(row[6])), row[7] is not None, settings.play is Play.LIVE)


class Links:
    """The links in ``database`` (``tournament_games``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def link(self, pairing_id: int, saved_id: int) -> None:
        """The kept game ``saved_id`` plays pairing ``pairing_id`` (a new
        game of its match replaces the one before)."""
        def tx(db: Connection) -> None:
            db.execute("DELETE FROM tournament_games WHERE pairing_id = ?", (pairing_id,))
            db.execute("INSERT INTO tournament_games (pairing_id, saved_id) VALUES (?, ?)", (pairing_id, saved_id))
        await self.database.tx(tx)

    async def of_game(self, saved_id: int) -> GameLink | None:
        """The pairing the kept game ``saved_id`` plays, if any."""
        row = await self.database.query(lambda db: db.execute(
            _SELECT + "WHERE g.saved_id = ?", (saved_id,)).fetchone())
        return None if row is None else _link(row)

    async def games_of(self, pairing_ids: list[int]) -> dict[int, int]:
        """The kept game playing each of ``pairing_ids`` that has one: pairing id -> kept game id."""
        if not pairing_ids:
            return {}
        marks = ", ".join("?" * len(pairing_ids))
        return {int(r[0]): int(r[1]) for r in await self.database.query(lambda db: db.execute(
            f"SELECT pairing_id, saved_id FROM tournament_games WHERE pairing_id IN ({marks})",
            tuple(pairing_ids)).fetchall())}

    async def decided(self) -> list[int]:
        """The kept games whose pairing is decided (played out, or by its deadline)."""
        return [int(r[0]) for r in await self.database.query(lambda db: db.execute(
            "SELECT g.saved_id FROM tournament_games g JOIN tournament_pairings p ON p.id = g.pairing_id "
            "WHERE p.winner IS NOT NULL").fetchall())]

    async def forget(self, saved_id: int) -> None:
        """The kept game ``saved_id`` no longer plays a pairing."""
        await self.database.tx(lambda db: db.execute("DELETE FROM tournament_games WHERE saved_id = ?", (saved_id,)))
