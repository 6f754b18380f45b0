"""Games by correspondence, as the game service runs them: a game begun
from an accepted offer, a kept game opened by one of its players (seated
at its running table when the other is playing it now, else at a new
table with the other away), and the sweeper's two calls (the games whose
deadline has passed or that nobody moved for long, and ending one: a loss
on time recorded as a forfeit, a game never begun or long idle dropped).

The tables themselves are built by
:func:`~door.games.kinds.correspondence_game`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from door.games.house import GameHouse
from door.games.kinds import correspondence_game
from door.games.running import rejoined, running, sitting
from door.games.tournament import open_tournament_game
from door.play.away_seat import AwaySeat
from door.play.journal import forfeited
from door.play.seat import Seat
from door.play.table import Table
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.endings import BATCH, Ending, end_all
from door.records.correspondence.offers import Offer
from door.records.correspondence.sweeper import Candidate, EndAll, Judged, Verdict, run_sweeper
from door.records.game_kinds import GameKind
from door.records.games import GameRecord, Opponent
from door.records.identity import Identity
from door.records.saved_games import SavedGame
from engine.game import replay
from engine.notation import rules_from_dict
from engine.tally import GameTally

__all__ = ["begin_from_offer", "candidates", "end_game", "end_games", "open_game", "sit_down", "sweep_for_ever"]

log = logging.getLogger(__name__)


def open_game(house: GameHouse, saved: SavedGame, account_id: int, seat: Seat) -> Table:
    """``account_id``'s player sits down to the kept correspondence game
    ``saved`` at ``seat``: at the table that plays it here now (the other
    player is at it: both play live), else at a new table with the other
    player away.  Raises ``ValueError`` for an account not in it."""
    table = rejoined(house, saved, account_id, seat)
    if table is not None:
        return table
    names = (saved.players[0], saved.players[1]) if len(saved.players) == 2 else ("your opponent",) * 2
    return correspondence_game(house, saved.rules, sitting(saved, account_id, seat, names),
                               saved.days_per_move or house.correspondence.default_days, saved.account_id, resume=saved)


async def sit_down(house: GameHouse, saved: SavedGame, account_id: int, seat: Seat) -> Table | None:
    """``account_id``'s player sits down at ``seat`` to their kept game
    ``saved`` played by turns: a game by correspondence
    (:func:`open_game`), or a tournament's (its pairing followed:
    :func:`~door.games.tournament.open_tournament_game`); ``None`` when
    it is neither, or a tournament game no longer linked to its pairing."""
    if saved.kind is GameKind.CORRESPONDENCE:
        return open_game(house, saved, account_id, seat)
    if saved.kind is GameKind.TOURNAMENT:
        link = await house.store.tournaments.links.of_game(saved.id)
        if link is not None and not link.decided:
            return await open_tournament_game(house, saved, link, account_id, seat)
    return None


def begin_from_offer(house: GameHouse, offer: Offer, maker: str, seat: Seat) -> Table:
    """The game of the accepted ``offer``: its maker (named ``maker``,
    away) in seat 0 and the taker at ``seat``; the maker owns it.  The
    first hand is dealt and kept at once, and the taker makes their
    decisions now."""
    away = AwaySeat(maker, Identity.of_account(offer.maker))
    return correspondence_game(house, rules_from_dict(dict(offer.terms.rules)), (away, seat), offer.terms.days,
                               offer.maker)


async def candidates(house: GameHouse, now: float) -> Sequence[Candidate]:
    """The correspondence games the sweeper looks at, at ``now``: those
    whose deadline has passed or that nobody moved for the abandon days
    (``[correspondence] abandon_days``)."""
    idle_since = now - house.correspondence.abandon_days * DAY
    return [Candidate(g.id, g.to_move, g.deadline, g.updated, g.accounts, g.days or 1, g.started)
            for g in await house.store.saved.correspondence_due(now, idle_since)]


def _ending(saved: SavedGame, judged: Judged) -> Ending | None:
    """How the sweeper's ``judged`` game ``saved`` ends (pure; run off the
    event loop, as it replays the game's log): dropped with no record, or
    a loss on time kept as a forfeit won by the other player at the scores
    it stood at, with its hands, the mover's loss on time counted.
    ``None`` when the player out of time has moved meanwhile."""
    loser, how = judged.verdict.loser, judged.verdict.how
    if how != "time" or loser is None:
        return Ending(saved.id, len(saved.actions))
    game, events = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
    if game.over or loser not in game.to_act():
        return None  # (moved meanwhile, at another node)
    accounts = (saved.account_id, saved.other_account) if saved.seat == 0 else (saved.other_account,
                                                                                   saved.account_id)
    names = (saved.players[0], saved.players[1]) if len(saved.players) == 2 else ("", "")
    tally = GameTally()
    tally.feed(events)
    record = GameRecord(game.number, game.rules, names, accounts, Opponent.CALLER, forfeited(game, 1 - loser),
                        tally.hands, saved.started, True, game.shuffle, game.dealt, game.first_dealer)
    return Ending(saved.id, len(saved.actions), record, judged.mover)


def _endings(games: dict[int, SavedGame], judged: Sequence[Judged]) -> list[Ending]:
    """:func:`_ending` of each of ``judged`` that is among ``games``."""
    endings = (_ending(games[j.saved_id], j) for j in judged if j.saved_id in games)
    return [e for e in endings if e is not None]


async def end_games(house: GameHouse, judged: Sequence[Judged]) -> list[int]:
    """End the kept correspondence games the sweeper ``judged``
    (:class:`~door.records.correspondence.sweeper.Judged`, its verdict's
    ``how``: ``"time"``, ``"dropped"`` or ``"abandoned"``): a loss on time
    is kept as a forfeit won by the other player, at the scores it stood
    at, with its hands, and counted in the mover's record; a game never
    begun or long idle is dropped, the records untouched.  The games are
    read, replayed (in a thread: the event loop goes on) and written
    :data:`~door.records.correspondence.endings.BATCH` at a time, each
    batch in one transaction.  Returns the ids of the games ended: not
    one gone, being played here now, or moved on meanwhile.  Raises
    :class:`~door.records.database.StoreError` when the store cannot answer."""
    ended: list[int] = []
    for start in range(0, len(judged), BATCH):
        chunk = judged[start:start + BATCH]
        games = await house.store.saved.load_games([j.saved_id for j in chunk])
        endings = await asyncio.to_thread(_endings, games, chunk)
        done = await end_all(house.store, [e for e in endings if running(house, e.saved_id) is None])
        for saved_id in done:
            how = next(j.verdict.how for j in chunk if j.saved_id == saved_id)
            log.info("correspondence game %d %s", games[saved_id].number,
                     "ran out of time" if how == "time" else how)
        ended.extend(done)
    return ended


async def end_game(house: GameHouse, saved_id: int, loser: int | None, how: str) -> bool:
    """End the kept correspondence game ``saved_id`` as the sweeper judged
    (``how``: ``"time"``, ``"dropped"`` or ``"abandoned"``; ``loser``, the
    seat out of time), as :func:`end_games` does but leaving the count of
    games lost on time to the caller.  False when it is gone, is being
    played here now, or the player out of time has moved meanwhile."""
    return bool(await end_games(house, [Judged(saved_id, Verdict(loser, how), None)]))


async def sweep_for_ever(house: GameHouse, holder: str) -> None:
    """The correspondence sweeper's loop of one node, as ``holder``
    (:func:`~door.records.correspondence.sweeper.run_sweeper`: only the
    holder of the store's lease acts), with this service's query and end
    of a game; until cancelled."""
    await run_sweeper(house.store, holder, EndAll(lambda judged: end_games(house, judged)),
                      lambda now: candidates(house, now), house.correspondence.sweep_rules(), clock=house.store.clock)
