"""Games by correspondence, as the game service runs them: a game begun
from an accepted offer, a kept game opened by one of its players (seated
at its running table when the other is playing it now, else at a new
table with the other away), and the sweeper's two calls (the games whose
deadline has passed or that nobody moved for long, and ending them, a
batch at a time, each from where it stands: a loss on time recorded as a
forfeit, a game never begun or long idle dropped).

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
from door.net.gate import network_of
from door.play.away_seat import AwaySeat
from door.play.journal import forfeited
from door.play.seat import Seat
from door.play.table import Table
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.endings import BATCH, Ending, end_all
from door.records.correspondence.offers import Offer, games_words, room_for
from door.records.correspondence.sweeper import Candidate, EndAll, Judged, Verdict, run_sweeper
from door.records.game_kinds import GameKind
from door.records.games import GameRecord, Opponent
from door.records.identity import Identity
from door.records.ranked.match import MatchEntry, MatchTerms
from door.records.ranked.ratings import MatchRecord
from door.records.saved_games import SavedGame, StoodAt
from engine.game import replay
from engine.tally import GameTally

__all__ = ["accept_offer", "begin_from_offer", "candidates", "end_game", "end_games", "open_game", "sit_down",
           "sweep_for_ever", "under_way"]

log = logging.getLogger(__name__)


def open_game(house: GameHouse, saved: SavedGame, account_id: int, seat: Seat) -> Table:
    """``account_id``'s player sits down to the kept correspondence game
    ``saved`` at ``seat``: at the table that plays it here now (the other
    player is at it: both play live), else at a new table with the other
    player away; a game of a match goes on with it (the games each has
    won kept in its log).  Raises ``ValueError`` for an account not in it."""
    table = rejoined(house, saved, account_id, seat)
    if table is not None:
        return table
    names = (saved.players[0], saved.players[1]) if len(saved.players) == 2 else ("your opponent",) * 2
    return correspondence_game(house, saved.rules, sitting(saved, account_id, seat, names),
                               saved.days_per_move or house.correspondence.default_days, saved.account_id,
                               MatchTerms(saved.best_of, saved.rated), resume=saved)


async def sit_down(house: GameHouse, saved: SavedGame, account_id: int, seat: Seat) -> Table | None:
    """``account_id``'s player sits down at ``seat`` to their kept game
    ``saved`` played by turns: a game by correspondence
    (:func:`open_game`), or a tournament's (its pairing followed:
    :func:`~door.games.tournament.open_tournament_game`); ``None`` when
    it is neither, or a tournament game no longer linked to its pairing.
    Raises :class:`~door.games.live_lease.PlayedElsewhere` for a live
    tournament game played at another node now."""
    if saved.kind is GameKind.CORRESPONDENCE:
        return open_game(house, saved, account_id, seat)
    if saved.kind is GameKind.TOURNAMENT:
        link = await house.store.tournaments.links.of_game(saved.id)
        if link is not None and not link.decided:
            return await open_tournament_game(house, saved, link, account_id, seat)
    return None


def begin_from_offer(house: GameHouse, offer: Offer, maker: str, seat: Seat, unrated_why: str = "") -> Table:
    """The game of the accepted ``offer``: its maker (named ``maker``,
    away) in seat 0 and the taker at ``seat``; the maker owns it; one game
    or a match, as offered, rated as offered unless ``unrated_why`` says
    why it may not be (a sentence, kept with the match).  The first hand
    is dealt and kept at once, and the taker makes their decisions now.
    The hands are counted as the offer says (by the door, or by each
    player with muggins).  Raises ``engine.notation.NotationError`` for an
    offer whose rules do not read."""
    away = AwaySeat(maker, Identity.of_account(offer.maker))
    terms = MatchTerms(offer.terms.best_of, offer.terms.rated and not unrated_why)
    return correspondence_game(house, offer.terms.game_rules(), (away, seat), offer.terms.days,
                               offer.maker, terms, MatchEntry(unrated_why=unrated_why))


async def under_way(house: GameHouse, account_id: int) -> int:
    """How many games by correspondence ``account_id`` has under way (the
    count ``[correspondence] max_open`` caps)."""
    return sum(g.kind is GameKind.CORRESPONDENCE for g in await house.store.saved.unfinished(account_id))


async def accept_offer(house: GameHouse, offer_id: int, account_id: int, address: str,
                       shared: bool = False) -> Offer | str:
    """``account_id``, calling from ``address`` (``shared``: a line several
    callers share, a BBS's or a hub board's), accepts the offer
    ``offer_id``, made to them or to anyone: the offer, now theirs (for
    :func:`begin_from_offer`), or why not in a sentence.  Refused, the
    offer left open for later: when either player's games under way are at
    the cap (``[correspondence] max_open``; the sentence says whose); when
    an offer to anyone is taken by its maker, or from the network it was
    made from (a caller's second account would feed them games: the fair
    play rule of rated live matches, ``[ranked] same_network``, unless the
    line is shared).  Taken meanwhile by another caller, withdrawn or
    lapsed: "That offer is no longer open."  Of two callers accepting one
    offer at once, exactly one gets it."""
    offers, gone = house.store.correspondence.offers, "That offer is no longer open."
    offer = await offers.get(offer_id)
    if offer is None or offer.taker not in (None, account_id):
        return gone
    if offer.maker == account_id:
        return "That is your own offer: another caller takes it (you may withdraw it)."
    if (offer.taker is None and not shared and not house.ranked.same_network
            and network_of(address) == network_of(offer.address)):
        return ("That offer was made from your network: an offer to anyone is for another caller "
                "(as a rated match is).")
    limit = house.correspondence.max_open
    full = room_for(await under_way(house, account_id), limit)
    if full is not None:
        return full
    made = await under_way(house, offer.maker)
    if room_for(made, limit) is not None:
        maker = await house.store.accounts.get(offer.maker)
        return (f"{maker.name if maker is not None else 'The caller who made it'} has {games_words(made)} under "
                "way, the most this board allows: the offer stays open until they finish one.")
    taken = await offers.accept(offer_id, account_id)
    return taken if taken is not None else gone


async def candidates(house: GameHouse, now: float) -> Sequence[Candidate]:
    """The correspondence games the sweeper looks at, at ``now``: those
    whose deadline has passed or that nobody moved for the abandon days
    (``[correspondence] abandon_days``)."""
    idle_since = now - house.correspondence.abandon_days * DAY
    return [Candidate(g.id, g.to_move, g.deadline, g.updated, g.accounts, g.days or 1, g.started, g.moves)
            for g in await house.store.saved.correspondence_due(now, idle_since)]


def _names_accounts(saved: SavedGame) -> tuple[tuple[str, str], tuple[int | None, int | None]]:
    """Both seats' names and accounts in the kept game ``saved``."""
    accounts = (saved.account_id, saved.other_account) if saved.seat == 0 else (saved.other_account,
                                                                                   saved.account_id)
    names = (saved.players[0], saved.players[1]) if len(saved.players) == 2 else ("", "")
    return names, accounts


def _forfeited_match(saved: SavedGame, loser: int, hands: int) -> MatchRecord:
    """The match the kept game ``saved`` belongs to, forfeited by seat
    ``loser`` out of time in its hand ``hands`` (the whole match, when it
    is one of best of 3 or 5, as when a live player leaves one; rated as it
    was offered, in the ratings of play by turns)."""
    names, accounts = _names_accounts(saved)
    rated = saved.rated and None not in accounts
    entry = MatchEntry()
    return MatchRecord(names, accounts, saved.best_of, rated, saved.match_points, 1 - loser, True, False, loser,
                       hands, entry.networks, entry.unrated_why, entry.via, by_turns=True)


def _replayed(saved: SavedGame, judged: Judged) -> Ending | None:
    """How the sweeper's ``judged`` loss on time of ``saved`` ends, its log
    replayed (pure; run off the event loop): kept as a forfeit won by the
    other player at the scores it stood at, with its hands, the mover's
    loss counted.  ``None`` when the player out of time has moved meanwhile."""
    loser = judged.verdict.loser
    try:
        game, events = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
    except ValueError as exc:  # (IllegalAction: a log that does not replay is left for the sysop, not ended)
        log.warning("correspondence game %d does not replay: %s", saved.id, exc)
        return None
    if loser is None or game.over or loser not in game.to_act() or judged.moves not in (None, len(saved.actions)):
        return None  # (moved meanwhile, at another node)
    names, accounts = _names_accounts(saved)
    tally = GameTally()
    tally.feed(events)
    record = GameRecord(game.number, game.rules, names, accounts, Opponent.CALLER, forfeited(1 - loser, game.scores()),
                        tally.hands, saved.started, True, game.shuffle, game.dealt, game.first_dealer, by_turns=True)
    return Ending(saved.id, len(saved.actions), record, judged.mover,
                  match=_forfeited_match(saved, loser, game.hand_number))


def _replays(games: dict[int, SavedGame], judged: Sequence[Judged]) -> list[Ending]:
    """:func:`_replayed` of each of ``judged`` that is among ``games``."""
    endings = (_replayed(games[j.saved_id], j) for j in judged if j.saved_id in games)
    return [e for e in endings if e is not None]


def _at_once(stood: StoodAt, judged: Judged) -> Ending:
    """How the sweeper's ``judged`` game ends from where it stood
    (``stood``, its scores known), without a replay: dropped with no
    record, or a loss on time kept as a forfeit won by the other player at
    those scores, the mover's loss counted, its hands recorded after the
    pass (:mod:`door.records.correspondence.forfeit_hands`)."""
    loser, saved = judged.verdict.loser, stood.saved
    if judged.verdict.how != "time" or loser is None or stood.scores is None:
        return Ending(saved.id, stood.moves)
    names, accounts = _names_accounts(saved)
    record = GameRecord(saved.number, saved.rules, names, accounts, Opponent.CALLER,
                        forfeited(1 - loser, stood.scores), (), saved.started, True, saved.shuffle, None,
                        saved.first_dealer, by_turns=True)
    return Ending(saved.id, stood.moves, record, judged.mover, hands_later=True,
                  match=_forfeited_match(saved, loser, stood.hand))


async def _batch(house: GameHouse, judged: Sequence[Judged]) -> list[Ending]:
    """The endings of ``judged`` (one batch): each game read where it
    stands in one query; a loss on time whose scores were not kept (a game
    not moved since the store's contract step) read whole and replayed in
    a thread.  A game gone, or whose log has grown since it was judged, is
    left out."""
    stood = await house.store.saved.stood_at([j.saved_id for j in judged])
    fresh = [j for j in judged if j.saved_id in stood and j.moves in (None, stood[j.saved_id].moves)
             and (j.verdict.how != "time" or j.verdict.loser == stood[j.saved_id].saved.to_move)]
    later = [j for j in fresh if j.verdict.how == "time" and stood[j.saved_id].scores is None]
    replaying = {j.saved_id for j in later}
    endings = [_at_once(stood[j.saved_id], j) for j in fresh if j.saved_id not in replaying]
    if later:
        games = await house.store.saved.load_games([j.saved_id for j in later])
        endings += await asyncio.to_thread(_replays, games, later)
    return [e for e in endings if running(house, e.saved_id) is None]


async def end_games(house: GameHouse, judged: Sequence[Judged]) -> list[int]:
    """End the kept correspondence games the sweeper ``judged``
    (:class:`~door.records.correspondence.sweeper.Judged`, its verdict's
    ``how``: ``"time"``, ``"dropped"`` or ``"abandoned"``): a loss on time
    is kept as a forfeit won by the other player, at the scores it stood
    at, and counted in the mover's record (its hands recorded after the
    pass: :func:`~door.records.correspondence.forfeit_hands.record_hands`);
    a game never begun or long idle is dropped, the records untouched.
    :data:`~door.records.correspondence.endings.BATCH` games at a time,
    each batch read in one query and written in one transaction; no log is
    replayed on the event loop.  Returns the ids of the games ended: not
    one gone, being played here now, or moved on since it was judged.
    Raises :class:`~door.records.database.StoreError` when the store
    cannot answer."""
    ended: list[int] = []
    for start in range(0, len(judged), BATCH):
        chunk = judged[start:start + BATCH]
        ended.extend(await end_all(house.store, await _batch(house, chunk)))
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
