"""How often a player's decisions matched the expert's: the share of
their discards and plays, in their last few recorded games, that the
game review (:func:`engine.game_review.review_game`) finds as good as
the expert computer's own choice (costing nothing).  The sysop reads it
beside a rating (``cribbage-door records ratings``): for play by turns
(by correspondence, and tournaments' games), where a player has days to
consult anything, and for live play, so that the two can be compared.

Each game reviewed takes about a second of search, off the event loop;
only the last :data:`RECENT` games of each kind of play are reviewed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from door.records.database import Database
from door.records.games import Games
from engine.game_review import GameReview, review_game

__all__ = ["Agreement", "RECENT", "expert_agreement", "matched_in"]

RECENT = 5
"""Games reviewed of each kind of play, the most recent."""


@dataclass(frozen=True)
class Agreement:
    """Of a player's ``decisions`` (discards and plays) in ``games``
    games, how many ``matched`` the expert's."""

    matched: int = 0
    decisions: int = 0
    games: int = 0

    def words(self) -> str:
        """``"83% of 41 in 5 games"``, or ``"-"`` for no decision.

        >>> Agreement(34, 41, 5).words(), Agreement().words()
        ('83% of 41 in 5 games', '-')
        """
        if not self.decisions:
            return "-"
        return (f"{100 * self.matched / self.decisions:.0f}% of {self.decisions} in {self.games} "
                f"game{'s' if self.games != 1 else ''}")


def matched_in(review: GameReview) -> tuple[int, int]:
    """Of ``review``'s discards and plays, how many cost nothing against
    the expert, and how many there were."""
    decisions = [d.cost for d in review.discards] + [p.cost for p in review.plays]
    return sum(1 for cost in decisions if cost <= 0.0), len(decisions)


async def expert_agreement(database: Database, games: Games, account_id: int, by_turns: bool,
                           recent: int = RECENT) -> Agreement:
    """How often ``account_id``'s decisions matched the expert's in their
    last ``recent`` recorded games played by turns (``by_turns``) or live,
    whose moves are on record.  Raises what the store raises."""
    rows = await database.query(lambda db: db.execute(
        "SELECT id FROM games WHERE (account0 = ? OR account1 = ?) AND by_turns = ? ORDER BY ended DESC, id DESC "
        "LIMIT ?", (account_id, account_id, int(by_turns), recent)).fetchall())
    matched = decisions = reviewed = 0
    for (game_id,) in rows:
        moves = await games.moves(int(game_id))
        if moves is None or account_id not in moves.accounts:
            continue
        seat = moves.accounts.index(account_id)
        review = await asyncio.to_thread(review_game, moves.rules, moves.number, moves.actions, seat,
                                         moves.first_dealer, moves.shuffle)
        good, count = matched_in(review)
        matched, decisions, reviewed = matched + good, decisions + count, reviewed + 1
    return Agreement(matched, decisions, reviewed)
