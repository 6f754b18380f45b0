"""The records as the game protocol gives them: a program's statistics
and recent games (``stats``), the rating lists (``ratings``), the day's
ranking of today's deal (``daily``) and the review of a recorded game
(``review``), each a message (:mod:`door.play.api_messages`)."""

from __future__ import annotations

import time
from typing import Any

from door.play.api_messages import error_message
from door.play.review_data import review_costs, review_decisions
from door.play.review_words import review_lines
from door.records.accounts import Account
from door.records.bots import BOTS
from door.records.daily import Daily
from door.records.ranked.ratings import RatedPlayer
from door.records.store import Store
from engine.game_review import GameReview

__all__ = ["RATINGS_SHOWN", "RECENT_SHOWN", "daily_message", "ratings_message", "review_message", "stats_message"]

RATINGS_SHOWN = 50
"""Rated players a ``ratings`` message lists, of each pool."""

async def daily_message(daily: Daily, account_id: int, day: str, lines: list[str]) -> dict[str, Any]:
    """The ``daily`` message of ``day`` (``"YYYY-MM-DD"``) for
    ``account_id``: the ranking's ``lines`` (as the screens show them),
    and as data its first ten (place, name, scores, margin, against the
    par, unfinished), the par (the expert's score and the computer's)
    and the caller's streak in days."""
    deal = await daily.deal(day)
    par = await daily.par(day)
    ranking = [{"place": i, "name": r.name, "score": r.score, "computer": r.computer, "margin": r.margin,
                "against_par": r.against_par, "unfinished": r.unfinished}
               for i, r in enumerate((await daily.ranking(day))[:10], 1)]
    message: dict[str, Any] = {"type": "daily", "day": day, "game": deal.game, "lines": lines, "ranking": ranking,
                               "streak": await daily.streak(account_id, day)}
    if par is not None:
        message["par"] = list(par)
    return message


def review_message(found: tuple[GameReview, int, str] | str, game: int) -> dict[str, Any]:
    """The ``review`` of recorded game number ``game``: ``found`` is its
    review with the game's number and the opponent's name (the door's
    review, line by line, each decision and what it cost), or a sentence
    saying why there is none (an ``error`` then)."""
    if isinstance(found, str):
        return error_message("type", found)
    review, number, opponent = found
    return {"type": "review", "game": game, "lines": review_lines(review, number, opponent),
            "decisions": review_decisions(review), "costs": review_costs(review)}


RECENT_SHOWN = 10
"""Recent games a ``stats`` message lists."""


async def stats_message(store: Store, account: Account | None) -> dict[str, Any]:
    """The ``stats`` of the program's account: the statistics screen's
    figures (label and value, as the screen words them) and its last ten
    games (``ended`` as UTC ``"YYYY-MM-DDTHH:MM:SSZ"``), or an ``error``
    for a guest (whose games are not kept)."""
    if account is None:
        return error_message("type", "a guest's games are not kept: there are no statistics")
    figures = await store.statistics.player(account.name)
    rows = [{"label": label, "value": value} for label, value in figures.rows()] if figures is not None else []
    recent = [{"game": g.number, "players": list(g.players), "scores": list(g.scores), "winner": g.winner,
               "skunk": g.skunk.name.lower(), "forfeit": g.forfeit,
               "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(g.ended))}
              for g in await store.games.recent(account.name, RECENT_SHOWN)]
    return {"type": "stats", "name": account.name, "rows": rows, "recent": recent}


async def ratings_message(store: Store) -> dict[str, Any]:
    """The ``ratings`` message: the rated players of people's pool and of
    the bots' (:mod:`door.records.ranked.pools`), each established players
    first by rating, then the provisional ones; 50 of each at most
    (rating and RD in whole points)."""
    def rows(players: list[RatedPlayer]) -> list[dict[str, Any]]:
        return [{"name": p.name, "rating": round(p.rating.rating), "rd": round(p.rating.rd), "matches": p.matches,
                 "provisional": p.provisional} for p in players]
    return {"type": "ratings", "people": rows(await store.ratings.top(RATINGS_SHOWN)),
            "bots": rows(await store.ratings.top(RATINGS_SHOWN, pool=BOTS))}
