"""One function for each kind of game: the only place a
:class:`~door.play.table.Table` is built.

Each takes the seats (seat 0 first) and the rules, and does the rest in
one place: the journal that keeps the game in the store (for a registered
caller; a guest's and an exhibition's are not kept), the table's settings
from the house's (:class:`~door.games.house.GameHouse`), and for a game
between people its registration among the running tables, where it
outlives a dropped line.  A game against the computer is run by the
presentation that holds its one person (its end is theirs).

- :func:`computer_game`: a caller or a program against the computer
  (today's deal is one, with its sealed shuffle);
- :func:`sysop_game`: a caller who paged the sysop, against them;
- :func:`caller_match`: two people, one of whom challenged the other
  (a game, or a match of best of N, rated or not);
- :func:`club_game`: a club night's round (one game, scored by the
  American Cribbage Congress's game points);
- :func:`correspondence_game`: two registered callers by correspondence,
  each decision waiting days for its player;
- :func:`tournament_game`: a tournament's game or match, live or by
  correspondence (its results go to the tournament's pairing);
- :func:`exhibition`: the computer against itself, watched.

A kept game is taken up again by passing its
:class:`~door.records.saved_games.SavedGame` to the kind it was begun
as (``resume``), on this node or any other sharing the store.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence

from door.games.deadlines import due_by
from door.games.house import GameHouse
from door.play.deals import new_chain
from door.play.journal import Journal, Kept
from door.play.seat import Seat
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.game_kinds import GameKind
from door.records.games import Opponent
from door.records.ranked.match import MatchEntry, MatchTerms
from door.records.saved_games import SavedGame
from engine.objectives import ACC_POINTS
from engine.rules import Counting, Rules
from engine.shuffle import SeedChain, SeededShuffle

__all__ = ["caller_match", "club_game", "computer_game", "correspondence_game", "exhibition", "sysop_game",
           "tournament_game"]


def _account(seat: Seat) -> int | None:
    """The account a seat plays for (``None``: a guest, the sysop, the computer)."""
    return seat.identity.account if seat.identity is not None else None


def _chain(seeds: SeedChain | None) -> SeedChain:
    """The door's seeds for a table: the caller's chain, else a new one."""
    return seeds if seeds is not None else new_chain()


def _to_everyone(seats: Sequence[Seat]) -> Callable[[str], None]:
    """A warning said to every seat (the store failing in a game between people)."""
    def warn(text: str) -> None:
        for seat in seats:
            seat.notice(text)
    return warn


def computer_game(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], account: int | None, *,
                  first: int | SeededShuffle | None = None, sealed_until: str | None = None,
                  auto_deal: bool = False, seeds: SeedChain | None = None) -> Table:
    """A game of ``seats[0]`` (a person, playing for ``account``; ``None``:
    a guest, whose game is not kept) against ``seats[1]`` (the computer)
    under ``rules``.  ``first``: the first game's number or shuffle (a
    numbered game; today's deal, whose seeds stay secret until the day
    ``sealed_until`` is over); later games are dealt from ``seeds`` (the
    caller's chain; by default a new one).  ``auto_deal``: no chat mode
    before a hand (a program has no chat mode).  The table is returned
    unstarted: the person's presentation runs it (``table.run(resume)``)."""
    journal = None
    if account is not None:
        journal = Journal(house.store, account, (seats[0].name, seats[1].name), (account, None), Opponent.COMPUTER,
                          warn=seats[0].notice)
    numbers = iter([first] if first is not None else [])
    return Table(rules, list(seats), TableSettings(
        lambda: next(numbers, None), journal, auto_deal=auto_deal, chat_limit=house.paging.chat_limit,
        clock=house.store.clock, seeds=_chain(seeds), sealed_until=sealed_until))


def sysop_game(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], account: int | None,
               seeds: SeedChain | None = None, resume: SavedGame | None = None) -> Table:
    """A caller (``seats[0]``, playing for ``account``; ``None``: a
    guest) against the sysop who accepted their page (``seats[1]``), under
    ``rules``; kept for the caller, and running among the house's tables
    (from ``resume``, a kept game against the sysop, when given)."""
    journal = None
    if account is not None:
        journal = Journal(house.store, account, (seats[0].name, seats[1].name), (account, None), Opponent.SYSOP,
                          warn=seats[0].notice)
    table = Table(rules, list(seats), TableSettings(
        journal=journal, rejoin_timeout=house.paging.rejoin_timeout, chat_limit=house.paging.chat_limit,
        hints=house.caller.hints_between_people, clock=house.store.clock, seeds=_chain(seeds)))
    house.tables.run_table(table, resume)
    return table


async def caller_match(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], terms: MatchTerms | None,
                       entry: MatchEntry, owner: int | None, seeds: SeedChain | None = None,
                       resume: SavedGame | None = None) -> Table:
    """Two people at one table, under ``rules`` and ``terms`` (best of N,
    rated or not; ``None``: games until one declines another), kept by
    ``owner``'s account (the other's too finds it) with ``entry`` (how
    each side plays, and why a match offered rated is not); running among
    the house's tables (from ``resume`` when given).  A rated match has
    the ranked grace for a dropped line, no hints, a clock on every
    decision, and the rating each side stands to lose fixed before the
    first card (the store's Glicko-2 stakes)."""
    rated = terms is not None and terms.rated
    accounts = (_account(seats[0]), _account(seats[1]))
    journal = Journal(house.store, owner, (seats[0].name, seats[1].name), accounts, Opponent.CALLER,
                      warn=_to_everyone(seats), matches=entry)
    table = Table(rules, list(seats), TableSettings(
        journal=journal, rejoin_timeout=house.paging.ranked_grace if rated else house.paging.rejoin_timeout,
        chat_limit=house.paging.chat_limit, hints=house.caller.hints_between_people and not rated,
        clock=house.store.clock, terms=terms, seeds=_chain(seeds), decision_clock=house.ranked.clock(rated)))
    if rated and accounts[0] is not None and accounts[1] is not None:
        stakes = await house.store.ratings.stakes(accounts[0], accounts[1])
        table.series.stakes = {seat: stakes.on_loss(seat) for seat in (0, 1)}
    house.tables.run_table(table, resume)
    return table


def club_game(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], grace: float,
              computer: bool = False) -> tuple[Table, asyncio.Task[None]]:
    """One table of a club night's round: a single game under ``rules``
    scored by the American Cribbage Congress's game points (the computer,
    when ``computer`` is true, plays ``seats[1]`` for them), no rematch,
    ``grace`` seconds for a dropped line; kept for the first registered
    caller at it.  Returns the table and the task that runs it among the
    house's tables."""
    accounts = (_account(seats[0]), _account(seats[1]))
    owner = next((a for a in accounts if a is not None), None)
    journal = None
    if owner is not None:
        journal = Journal(house.store, owner, (seats[0].name, seats[1].name), accounts,
                          Opponent.COMPUTER if computer else Opponent.CALLER)
    table = Table(rules, list(seats), TableSettings(journal=journal, rejoin_timeout=grace, clock=house.store.clock,
                                                   terms=MatchTerms(1), rematch=False, objective=ACC_POINTS))
    return table, house.tables.run_table(table)


ONE_GAME = MatchTerms(1)
"""The terms of a single game by correspondence (not rated)."""


def correspondence_game(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], days: int, owner: int,
                        terms: MatchTerms = ONE_GAME, entry: MatchEntry | None = None,
                        resume: SavedGame | None = None) -> Table:
    """A game by correspondence between two registered callers (``seats``;
    one is usually an :class:`~door.play.away_seat.AwaySeat`, its player
    not on line), kept by ``owner``'s account (the other's finds it too),
    running among the house's tables (from ``resume``, the kept game,
    when given).  Each decision is due ``days`` days after the move before
    it (UTC days: weekends count or not as ``[correspondence] weekends``
    says, and the player's days away stop the count); the door makes
    every forced move at once, so only real decisions wait, and counts
    the hands unless ``rules`` say they are counted by hand (then each
    player's claim is a decision of theirs, muggins the door's at once);
    the table stops, kept, as soon as it waits only on a player who is
    away.  One game or a match (``terms``: best of 1, 3 or 5, each
    game's log keeping the match and the games won, so that the next
    sitting goes on with it; a rated one in the pool of play by turns,
    ``entry`` saying why one offered rated is not), no rematch, no hints."""
    accounts = (_account(seats[0]), _account(seats[1]))
    journal = Journal(house.store, owner, (seats[0].name, seats[1].name), accounts, Opponent.CALLER,
                      warn=_to_everyone(seats), matches=entry or MatchEntry(),
                      kept=Kept(GameKind.CORRESPONDENCE, days, due_by(house, accounts, days), terms=terms))
    table = Table(rules, list(seats), TableSettings(
        journal=journal, auto_deal=True, chat_limit=house.paging.chat_limit, clock=house.store.clock,
        terms=terms, rematch=False, seeds=_chain(None), forced_moves=True, by_turns=True))
    house.tables.run_table(table, resume)
    return table


def tournament_game(house: GameHouse, rules: Rules, seats: tuple[Seat, Seat], terms: MatchTerms, kept: Kept,
                    resume: SavedGame | None = None, live: bool = False,
                    before_run: Callable[[Table], None] | None = None) -> Table:
    """A tournament's game (``terms`` best of 1, a Swiss) or match (a
    knock-out), rated (in the pool of play by turns) or not, between two
    registered callers or bots, its journal following the
    pairing (``kept``: the kind, the round's deadline, the pairing's links
    and result: :mod:`door.games.tournament`); kept by seat 0's account;
    running among the house's tables (from ``resume`` when given;
    ``before_run`` is given the table first, to set who it waits for).
    By correspondence, as :func:`correspondence_game` plays one.
    ``live``: played at once under the house rules as a rated match is
    (its decision clocks, the ranked grace for a dropped line, no hints,
    the cards dealt without chat mode), not rated, and a player who stays
    away past the grace loses it by forfeit."""
    accounts = (_account(seats[0]), _account(seats[1]))
    owner = accounts[0] if accounts[0] is not None else accounts[1]
    journal = Journal(house.store, owner, (seats[0].name, seats[1].name), accounts, Opponent.CALLER,
                      warn=_to_everyone(seats), matches=MatchEntry(), kept=dataclasses.replace(kept, terms=terms))
    settings = TableSettings(journal=journal, auto_deal=True, chat_limit=house.paging.chat_limit,
                             clock=house.store.clock, terms=terms, rematch=False)
    if live:
        settings = dataclasses.replace(settings, rejoin_timeout=house.paging.ranked_grace,
                                       decision_clock=house.ranked.clock(True), forfeit_after_grace=True)
    else:
        rules = dataclasses.replace(rules, counting=Counting.AUTOMATIC)
        settings = dataclasses.replace(settings, forced_moves=True, by_turns=True)
    table = Table(rules, list(seats), settings)
    if before_run is not None:
        before_run(table)
    house.tables.run_table(table, resume)
    return table


def exhibition(rules: Rules, seats: tuple[Seat, Seat]) -> Table:
    """The computer against itself (``seats``: two computer seats), dealt
    without pause and kept nowhere: the demonstration a caller watches.
    Returned unstarted."""
    return Table(rules, list(seats), TableSettings(auto_deal=True))
