"""A tournament's games, as the game service plays them: each pairing the
director makes for a tournament played by correspondence is seated as a
kept game of its two players (both away: the first hand is dealt and
kept, and each finds the game in their list), linked to the pairing; the
game follows the pairing (the seat it waits on, its round's deadline),
and its result, once the match is over, is the pairing's (and, in a
rated tournament, moves both players' ratings of play by turns).  A pairing the
director decides without its game (its deadline passed) has its game
dropped."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from door.games.house import GameHouse
from door.games.kinds import tournament_game
from door.games.running import rejoined, sitting
from door.play.away_seat import AwaySeat
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

log = logging.getLogger(__name__)


def _kept(house: GameHouse, tournament: str, pairing: int, players: tuple[str, str],
          deadline: float | None) -> Kept:
    """How a tournament game is kept: its kind, the round's deadline, and
    the pairing told of the seat it waits on, of each new game of the
    match and of its result."""
    tournaments = house.store.tournaments

    async def due(to_move: int | None, now: float) -> float | None:
        await tournaments.waiting_on(pairing, to_move)
        return deadline

    async def started(saved_id: int) -> None:
        await tournaments.links.link(pairing, saved_id)

    async def concluded(result: MatchResult, scores: tuple[int, int] | None) -> None:
        if result.void or result.aborted:
            return
        winner, loser = players[result.winner], players[1 - result.winner]
        if result.terms.best_of == 1:  # a Swiss's game: its points, the winner's first
            if scores is None:
                return
            score = (scores[result.winner], scores[1 - result.winner])
        else:  # a knock-out's match: the games each won
            score = (result.wins[result.winner], result.wins[1 - result.winner])
        await tournaments.record(tournament, winner, loser, score)
        log.info("tournament %s: %s beat %s %s", tournament, winner, loser, score)

    return Kept(GameKind.TOURNAMENT, None, due, started, concluded)


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
    """Seat each pairing the director made for a tournament played by
    correspondence (live rounds are not seated here): a kept game for its
    two players, both away, its first hand dealt; the tables, each ended."""
    tables = []
    for s in seatings:
        if s.move_days is None or None in s.accounts:
            continue
        seats = (_away(s.players[0], s.accounts[0]), _away(s.players[1], s.accounts[1]))
        rated = s.rated and await _may_be_rated(house, s)
        table = tournament_game(house, s.rules, seats, MatchTerms(s.best_of, rated),
                                _kept(house, s.tournament, s.pairing, s.players, s.deadline))
        await table.ended.wait()
        tables.append(table)
    return tables


async def open_tournament_game(house: GameHouse, saved: SavedGame, link: GameLink, account_id: int,
                               seat: Seat) -> Table:
    """``account_id``'s player sits down to the tournament game ``saved``
    (its pairing ``link``) at ``seat``, the other player away (or at the
    table that plays it now: both play live)."""
    table = rejoined(house, saved, account_id, seat)
    if table is not None:
        return table
    return tournament_game(house, saved.rules, sitting(saved, account_id, seat, link.players),
                           MatchTerms(link.best_of, saved.rated),
                           _kept(house, link.tournament, link.pairing, link.players, link.deadline), resume=saved)


async def seat_and_drop(house: GameHouse, seatings: Sequence[Seating]) -> list[Table]:
    """The director's step as the game service follows it: the pairings
    it made seated (their tables, each ended), the games of pairings it
    decided without them dropped."""
    tables = await seat_pairings(house, seatings)
    await drop_decided(house)
    return tables


async def drop_decided(house: GameHouse) -> int:
    """Drop the kept games whose pairing the director decided without them
    (its deadline passed); how many."""
    dropped = 0
    for saved_id in await house.store.tournaments.links.decided():
        try:
            await house.store.saved.drop(saved_id)
            await house.store.tournaments.links.forget(saved_id)
        except (StoreError, TournamentError) as exc:
            log.warning("could not drop tournament game %d: %s", saved_id, exc)
            continue
        dropped += 1
    return dropped
