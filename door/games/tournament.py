"""A tournament's games, as the game service plays them: each pairing the
director makes is seated as a kept game of its two players, linked to
the pairing; the game follows the pairing (the seat it waits on, its
round's deadline), and its result, once the match is over, is the
pairing's (a player who forfeits a live game loses the pairing by
forfeit; in a rated tournament, a game by correspondence moves both
players' ratings of play by turns).  A pairing the director decides
without its game (its deadline passed, a player did not come) has its
game dropped, and its live table here, if any, ended.

By correspondence, both players are away: the first hand is dealt and
kept, and each finds the game in their list.  Live, the game is seated
at once at a live table (:func:`~door.games.kinds.tournament_game`,
``live``) that waits for both players until the round's time to come
(``Seating.show_by``); each player, called to it, sits down by opening
it (:func:`open_tournament_game`: they are checked in), and one who has
not come by then loses it.  A live game taken up on another node (its
node died) waits the ranked grace for the other player."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from door.games.house import GameHouse
from door.games.kinds import tournament_game
from door.games.live_lease import PlayedElsewhere, keep, take
from door.games.running import rejoined, running, sitting
from door.play.away_seat import AwaySeat
from door.play.departures import expect
from door.play.journal import Kept
from door.play.seat import Seat
from door.play.table import Table
from door.records.database import StoreError
from door.records.game_kinds import GameKind
from door.records.identity import Identity
from door.records.ranked.fair_play import Contender
from door.records.ranked.match import MatchResult, MatchTerms
from door.records.ranked.pools import why_unrated
from door.records.saved_games import SavedGame
from door.records.tournaments.links import GameLink
from door.records.tournaments.settings import TournamentError
from door.records.tournaments.values import Seating

__all__ = ["drop_decided", "open_tournament_game", "seat_and_drop", "seat_pairings"]

LINKED_WITHIN = 30.0
"""Seconds a new live table is given to deal and keep its first game (and
link it to its pairing) before the players are called to it."""

log = logging.getLogger(__name__)


def _kept(house: GameHouse, tournament: str, pairing: int, players: tuple[str, str],
          deadline: float | None, linked: asyncio.Event | None = None, live: bool = False) -> Kept:
    """How a tournament game is kept: its kind, the round's deadline, and
    the pairing told of the seat it waits on, of each new game of the
    match and of its result (``linked`` is set once the first is linked);
    ``live``: played live (its records and ratings live play's)."""
    tournaments = house.store.tournaments

    async def due(to_move: int | None, now: float) -> float | None:
        await tournaments.waiting_on(pairing, to_move)
        return deadline

    async def started(saved_id: int) -> None:
        await tournaments.links.link(pairing, saved_id)
        if linked is not None:
            linked.set()

    async def concluded(result: MatchResult, scores: tuple[int, int] | None) -> None:
        if result.void or result.aborted:
            return
        winner, loser = players[result.winner], players[1 - result.winner]
        score: tuple[int, int] | None
        if result.forfeit:  # the loser left a live game, or stayed away past the grace
            score = None
        elif result.terms.best_of == 1:  # a Swiss's game: its points, the winner's first
            if scores is None:
                return
            score = (scores[result.winner], scores[1 - result.winner])
        else:  # a knock-out's match: the games each won
            score = (result.wins[result.winner], result.wins[1 - result.winner])
        try:
            await tournaments.record(tournament, winner, loser, score)
        except TournamentError as exc:  # (the director decided it first: a player did not come in time)
            log.info("tournament %s: %s v %s already decided: %s", tournament, winner, loser, exc)
            return
        log.info("tournament %s: %s beat %s %s", tournament, winner, loser, score or "by forfeit")

    return Kept(GameKind.TOURNAMENT, None, due, started, concluded, live=live)


async def _may_be_rated(house: GameHouse, s: Seating) -> bool:
    """Whether the pairing ``s`` of a rated tournament may be rated: the
    fair-play rules of every rated match (:mod:`door.records.ranked.pools`;
    the players' addresses are not known while both are away, so those of
    their registration stand for them); a pairing that may not is played
    unrated, and the log says why."""
    a, b = s.accounts
    if a is None or b is None:
        return False
    store = house.store
    why = await why_unrated(store.bots, store.fair_play, Contender(a, s.players[0], ""),
                            Contender(b, s.players[1], ""), house.ranked.rules())
    if why is not None:
        log.info("tournament %s: %s v %s is played unrated: %s", s.tournament, s.players[0], s.players[1], why)
    return why is None


def _away(name: str, account: int | None) -> AwaySeat:
    return AwaySeat(name, Identity.of_account(account) if account is not None else None)


async def seat_pairings(house: GameHouse, seatings: Sequence[Seating]) -> list[Table]:
    """Seat each pairing the director made (not one whose player's account
    was removed): by correspondence, a kept game for its two players,
    both away, its first hand dealt (the table ended); live, a live table
    running now, its first game kept and linked, waiting for both players
    until ``show_by`` (:func:`seat_live`).  The tables."""
    tables = []
    for s in seatings:
        if None in s.accounts:
            continue
        if s.live:
            tables.append(await seat_live(house, s))
            continue
        seats = (_away(s.players[0], s.accounts[0]), _away(s.players[1], s.accounts[1]))
        rated = s.rated and await _may_be_rated(house, s)
        table = tournament_game(house, s.rules, seats, MatchTerms(s.best_of, rated),
                                _kept(house, s.tournament, s.pairing, s.players, s.deadline))
        await table.ended.wait()
        tables.append(table)
    return tables


async def seat_live(house: GameHouse, s: Seating) -> Table:
    """Seat the live pairing ``s`` at once: a live table among the
    house's, both seats waiting for their players until ``s.show_by``
    (then one who has not come loses by forfeit: :func:`~door.play.departures.expect`);
    returned once its first game is kept and linked to the pairing (or
    :data:`LINKED_WITHIN` seconds have passed: the store is failing), so
    that each player can be called to it."""
    linked = asyncio.Event()
    seats = (_away(s.players[0], s.accounts[0]), _away(s.players[1], s.accounts[1]))
    until = s.show_by if s.show_by is not None else s.deadline
    rated = s.rated and await _may_be_rated(house, s)
    table = tournament_game(house, s.rules, seats, MatchTerms(s.best_of, rated),
                            _kept(house, s.tournament, s.pairing, s.players, s.deadline, linked, live=True),
                            live=True, before_run=lambda t: expect(t, {0, 1}, until))
    waits = [asyncio.ensure_future(linked.wait()), asyncio.ensure_future(table.ended.wait())]
    await asyncio.wait(waits, timeout=LINKED_WITHIN, return_when=asyncio.FIRST_COMPLETED)
    for w in waits:
        w.cancel()
    journal = table.journal
    if journal is not None and journal.saved_id is not None:
        await _lease(house, journal.saved_id, table)
    log.info("tournament %s: %s %s v %s seated live, to come by %s UTC", s.tournament, s.slot, *s.players,
             time.strftime("%H:%M", time.gmtime(until)))
    return table


async def open_tournament_game(house: GameHouse, saved: SavedGame, link: GameLink, account_id: int,
                               seat: Seat) -> Table | None:
    """``account_id``'s player sits down to the tournament game ``saved``
    (its pairing ``link``) at ``seat``: at the table that plays it here
    now (a live game they were called to, or the other player is at it),
    else at a new table, the other player away (by correspondence) or
    awaited for the ranked grace (a live game whose node died).  A live
    game's player is checked in: at the round's time to come, they came;
    ``None`` when that time has passed without them (or the game's
    pairing was decided meanwhile).  Raises ``ValueError`` for an account
    not in it, and :class:`~door.games.live_lease.PlayedElsewhere` for a
    live game whose table runs at another node now (it holds the game's
    lease)."""
    if link.live:
        if running(house, saved.id) is None:
            await take(house, saved.id)  # (raises PlayedElsewhere: its table runs at another node)
        mine = saved.seat_of(account_id)
        try:
            await house.store.tournaments.check_in(link.tournament, link.players[mine])
        except TournamentError as exc:
            log.info("tournament %s: %s may not sit down: %s", link.tournament, link.players[mine], exc)
            return None
        except StoreError as exc:
            log.warning("tournament %s: could not check %s in: %s", link.tournament, link.players[mine], exc)
    table = rejoined(house, saved, account_id, seat)
    if table is not None:
        return table
    kept = _kept(house, link.tournament, link.pairing, link.players, link.deadline, live=link.live)
    seats = sitting(saved, account_id, seat, link.players)
    if not link.live:
        return tournament_game(house, saved.rules, seats, MatchTerms(link.best_of, saved.rated), kept, resume=saved)
    other = {1 - saved.seat_of(account_id)}
    until = house.store.clock() + house.paging.ranked_grace
    table = tournament_game(house, saved.rules, seats, MatchTerms(link.best_of, saved.rated), kept, resume=saved,
                            live=True,
                            before_run=lambda t: expect(t, other, until))
    keep(house, saved.id, table)
    return table


async def _lease(house: GameHouse, saved_id: int, table: Table) -> None:
    """This node's lease on the live game ``saved_id`` that ``table``, just
    seated here, plays: taken and kept while it runs (a lease another node
    holds, which cannot be for a game seated just now, is logged)."""
    try:
        await take(house, saved_id)
    except PlayedElsewhere as exc:
        log.warning("live game %d, seated here, is leased to node %d", saved_id, exc.node)
        return
    keep(house, saved_id, table)


async def seat_and_drop(house: GameHouse, seatings: Sequence[Seating]) -> list[Table]:
    """The director's step as the game service follows it: the pairings
    it made seated (their tables, each ended), the games of pairings it
    decided without them dropped."""
    tables = await seat_pairings(house, seatings)
    await drop_decided(house)
    return tables


async def drop_decided(house: GameHouse) -> int:
    """Drop the kept games whose pairing the director decided without them
    (its deadline passed, a player did not come to a live game), a live
    table playing one here ended; how many."""
    dropped = 0
    for saved_id in await house.store.tournaments.links.decided():
        table = running(house, saved_id)
        if table is not None and not table.settings.by_turns:  # a live table: nobody plays it on
            table.abandon(min(table.absent, default=0))
        try:
            await house.store.saved.drop(saved_id)
            await house.store.tournaments.links.forget(saved_id)
        except (StoreError, TournamentError) as exc:
            log.warning("could not drop tournament game %d: %s", saved_id, exc)
            continue
        dropped += 1
    return dropped
