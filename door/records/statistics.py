"""Statistics of a player from the records (Cribbage Partner's "about 20
categories", Cribbage for Windows's per-player score database).

Only hands that were not replayed count; averages per hand, crib and play
count only *complete* hands, whose show finished (as Cribbage Partner does).
Muggins points are totalled apart from the other categories.
"""

from __future__ import annotations

from dataclasses import dataclass

from door.records.connection import Connection
from door.records.database import Database
from door.records.names import name_key

__all__ = ["Forfeits", "Statistics", "player_statistics", "TopPlayer", "top_players", "StatisticsQueries"]


@dataclass(frozen=True)
class Forfeits:
    """A player's games ended by forfeit: ``won`` (the other player left)
    and ``lost`` (they left, or ran out of time), and of those lost, the
    games by correspondence the door ended because their deadline passed
    (``on_time``)."""

    won: int = 0
    lost: int = 0
    on_time: int = 0


@dataclass(frozen=True)
class Statistics:
    """A player's figures; points are cribbage points, rates are percent."""

    name: str
    games: int = 0
    wins: int = 0
    credited: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    double_skunks_given: int = 0
    double_skunks_taken: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    pegging_points: int = 0
    best_hand: int = 0
    twenty_nines: int = 0
    heels: int = 0
    muggins_taken: int = 0
    muggins_given: int = 0
    claims: int = 0
    exact_claims: int = 0
    margin_total: int = 0
    longest_streak: int = 0
    vs_sysop: int = 0
    vs_computer: int = 0
    vs_callers: int = 0
    forfeits: Forfeits = Forfeits()

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @staticmethod
    def _avg(total: int, n: int) -> float:
        return total / n if n else 0.0

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) lines for the statistics screen."""
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.0f}%" if b else "-"

        return [
            ("Games played", str(self.games)),
            ("Won / lost", f"{self.wins} / {self.losses}"),
            ("Win rate", pct(self.wins, self.games)),
            ("Games credited (skunks count double)", str(self.credited)),
            ("Skunks given / taken", f"{self.skunks_given} / {self.skunks_taken}"),
            ("Double skunks given / taken", f"{self.double_skunks_given} / {self.double_skunks_taken}"),
            ("Average margin per game", f"{self._avg(self.margin_total, self.games):+.1f}"),
            ("Longest winning streak", str(self.longest_streak)),
            ("Won / lost by forfeit (a player left)", f"{self.forfeits.won} / {self.forfeits.lost}"),
            ("Correspondence games lost on time", str(self.forfeits.on_time)),
            ("Games vs the sysop / computer / callers",
             f"{self.vs_sysop} / {self.vs_computer} / {self.vs_callers}"),
            ("Hands played", str(self.hands)),
            ("Average points per hand", f"{self._avg(self.hand_points, self.hands):.2f}"),
            ("Average points per crib", f"{self._avg(self.crib_points, self.cribs):.2f}"),
            ("Average pegging per hand", f"{self._avg(self.pegging_points, self.hands):.2f}"),
            ("Best hand or crib", str(self.best_hand)),
            ("29 hands", str(self.twenty_nines)),
            ("His heels", str(self.heels)),
            ("Muggins points taken / given", f"{self.muggins_taken} / {self.muggins_given}"),
            ("Counts claimed exactly", f"{pct(self.exact_claims, self.claims)} of {self.claims}"),
        ]


def player_statistics(db: Connection, name: str) -> Statistics | None:
    """The statistics of the registered player ``name`` (ignoring case), or
    ``None`` when there is no such account."""
    row = db.execute("SELECT id, name FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
    if row is None:
        return None
    account_id, display = row
    games = db.execute(
        "SELECT id, CASE WHEN account0 = ? THEN 0 ELSE 1 END AS seat, score0, score1, winner, skunk, value, "
        "opponent, forfeit FROM games WHERE account0 = ? OR account1 = ? ORDER BY ended, id",
        (account_id, account_id, account_id)).fetchall()
    s: dict[str, int] = {f: 0 for f in Statistics.__dataclass_fields__ if f not in ("name", "forfeits")}
    forfeits = [0, 0]
    streak = 0
    seats = {}
    for gid, seat, score0, score1, winner, skunk, value, opponent, forfeit in games:
        seats[gid] = seat
        s["games"] += 1
        if forfeit:
            forfeits[winner != seat] += 1
        mine, theirs = (score0, score1) if seat == 0 else (score1, score0)
        s["margin_total"] += mine - theirs
        s[{"sysop": "vs_sysop", "caller": "vs_callers"}.get(opponent, "vs_computer")] += 1
        if winner == seat:
            s["wins"] += 1
            s["credited"] += value
            s["skunks_given"] += skunk >= 1
            s["double_skunks_given"] += skunk >= 2
            streak += 1
            s["longest_streak"] = max(s["longest_streak"], streak)
        else:
            s["skunks_taken"] += skunk >= 1
            s["double_skunks_taken"] += skunk >= 2
            streak = 0
    if seats:
        marks = ",".join("?" * len(seats))
        for (gid, seat, dealer, complete, pegging, hand_points, hand_true, hand_claim, crib_points, crib_true,
             crib_claim, heels, mug_won, mug_lost) in db.execute(
                f"SELECT game_id, seat, dealer, complete, pegging, hand_points, hand_true, hand_claim, crib_points, "
                f"crib_true, crib_claim, heels, muggins_won, muggins_lost FROM hands "
                f"WHERE replayed = 0 AND game_id IN ({marks})", list(seats)):
            if seats[gid] != seat:
                continue
            s["heels"] += heels
            s["muggins_taken"] += mug_won
            s["muggins_given"] += mug_lost
            for true, claim in ((hand_true, hand_claim), (crib_true, crib_claim)):
                if true is not None:
                    s["best_hand"] = max(s["best_hand"], true)
                    s["twenty_nines"] += true == 29
                if claim is not None:
                    s["claims"] += 1
                    s["exact_claims"] += claim == true
            if complete:
                s["hands"] += 1
                s["hand_points"] += hand_points
                s["pegging_points"] += pegging
                if dealer == seat:
                    s["cribs"] += 1
                    s["crib_points"] += crib_points
    lost = db.execute("SELECT lost_on_time FROM correspondence_results WHERE account_id = ?",
                      (account_id,)).fetchone()
    return Statistics(name=display, forfeits=Forfeits(forfeits[0], forfeits[1], 0 if lost is None else int(lost[0])),
                      **s)


@dataclass(frozen=True)
class TopPlayer:
    """A line of the top-players table."""

    name: str
    games: int
    wins: int
    credited: int

    @property
    def win_rate(self) -> float:
        """Percent of games won."""
        return 100 * self.wins / self.games if self.games else 0.0


def top_players(db: Connection, limit: int = 10) -> list[TopPlayer]:
    """Registered players by games credited, then win rate, then name."""
    rows = db.execute(
        """
        SELECT a.name,
               COUNT(g.id),
               SUM(CASE WHEN (g.account0 = a.id AND g.winner = 0) OR (g.account1 = a.id AND g.winner = 1)
                        THEN 1 ELSE 0 END),
               SUM(CASE WHEN (g.account0 = a.id AND g.winner = 0) OR (g.account1 = a.id AND g.winner = 1)
                        THEN g.value ELSE 0 END)
        FROM accounts a JOIN games g ON g.account0 = a.id OR g.account1 = a.id
        GROUP BY a.id
        """).fetchall()
    players = [TopPlayer(r[0], r[1], r[2], r[3]) for r in rows]
    players.sort(key=lambda p: (-p.credited, -p.win_rate, p.name.casefold()))
    return players[:limit]


class StatisticsQueries:
    """The statistics of ``database``, computed on its worker thread."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def player(self, name: str) -> Statistics | None:
        """See :func:`player_statistics`."""
        return await self.database.query(lambda db: player_statistics(db, name))

    async def top(self, limit: int = 10) -> list[TopPlayer]:
        """See :func:`top_players`."""
        return await self.database.query(lambda db: top_players(db, limit))
