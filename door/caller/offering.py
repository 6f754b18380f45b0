"""Offers of games by correspondence, made and taken, one code for the
screens and the game protocol (a :class:`~door.caller.side.Side`): the
caller's choices checked (days a move, a match's length, rated or not,
counted by hand or not, whom to: a registered caller by name, a member
board's caller on the cribbage hub as ``alias@BOARD``, or anyone), fair
play asked for a rated one when it is made and again when it is taken,
and an offer taken through the game service, which checks both players'
caps (:func:`~door.games.correspondence.accept_offer`)."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from door.caller.hub import board_caller, hub_account
from door.caller.match_table import contender
from door.caller.side import Side, shared_line
from door.games.correspondence import accept_offer, under_way
from door.net.gate import in_networks
from door.records.correspondence.offers import BEST_OF, Offer, OfferRefused, OfferTerms, room_for
from door.records.ranked.fair_play import Contender
from door.records.ranked.pools import why_unrated as pool_why_unrated
from engine.notation import rules_to_dict
from engine.scoring import RunMode

__all__ = ["Choice", "Refused", "counted", "offer_to", "offer_words", "offers_for", "take_offer", "under_way_of",
           "unrated_now", "why_not_rated"]


def offer_words(terms: OfferTerms) -> str:
    """What ``terms`` offer, in words: ``"a game"``, ``"a rated game"`` or
    ``"a match (the best of 3 games)"``.

    >>> offer_words(OfferTerms({}, 3, 5, True))
    'a rated match (the best of 5 games)'
    """
    rated = "rated " if terms.rated else ""
    return f"a {rated}game" if terms.best_of == 1 else f"a {rated}match (the best of {terms.best_of} games)"


class Refused(NamedTuple):
    """Why an offer may not be made: the ``field`` it is about (``name``,
    ``days``, ``best_of``, ``rated``, ``counting`` or ``type``, as the protocol names it) and the sentence."""

    field: str
    why: str


async def why_not_rated(side: Side, maker: Contender, taker: Contender) -> str | None:
    """Why a game or match by correspondence between ``maker`` and
    ``taker`` may not be rated, in a sentence (the board rates none:
    ``[correspondence] rated``; another rating pool; a fair-play rule, the
    same as for live rated matches: :mod:`door.records.ranked.pools`, the
    pair's rated games by correspondence under way counted with its rated
    matches of the day), or ``None`` when it may."""
    ctx = side.ctx
    if not ctx.correspondence.rated:
        return "This board does not rate games by correspondence."
    under_way = await ctx.store.saved.rated_between(maker.account_id, taker.account_id)
    return await pool_why_unrated(ctx.store.bots, ctx.store.fair_play, maker, taker, ctx.ranked.rules(), under_way)


class Choice(NamedTuple):
    """What a caller chose for an offer: ``days`` a move; runs in exact
    order when ``ordered``; one game, or a match of ``best_of`` 3 or 5;
    ``rated`` in the pool of play by turns; each player counting their own
    hands, with muggins, when ``manual`` (unrated games only)."""

    days: int
    ordered: bool = False
    best_of: int = 1
    rated: bool = False
    manual: bool = False


async def offer_to(side: Side, account_id: int, name: str | None, choice: Choice,
                   check_only: bool = False) -> Refused | None:
    """``account_id`` offers the registered caller ``name`` (``None``: anyone
    who takes it, an open offer) a game or match by correspondence on the
    terms of ``choice`` (rated when the board rates them and fair play
    allows the pair now: :func:`why_not_rated`, asked again when an open
    offer is taken; the house's other rules), from the address ``side``
    calls from: ``None`` when made, else why not (:class:`Refused`: nobody
    of that name, the caller themselves, too many games under way, the
    offer rules: :class:`~door.records.correspondence.offers.OfferRefused`).
    A bot may be offered one, as a caller may.  On the cribbage hub, a
    member board's caller is named ``alias@BOARD`` (their account is made
    if they never called); elsewhere such a name is refused, saying why.
    ``check_only``: say only whether one may be made to ``name``."""
    ctx = side.ctx
    taker = None
    if name is not None:
        found = await _callee(side, name, True)
        if isinstance(found, Refused):
            return found
        if found == account_id:
            return Refused("name", f"No other registered caller is called {name}.")
        taker = found
    full = room_for(await under_way_of(side, account_id), ctx.correspondence.max_open)
    if full is not None:
        return Refused("type", full)
    if check_only:
        return None
    if name is not None and taker is None:  # (a member board's caller never met: their account is made only
        refused = await _may_meet(side, choice)  # for an offer that may be made)
        if refused is not None:
            return refused
        made = await _callee(side, name, False)
        if not isinstance(made, int):
            return made or Refused("name", f"No other registered caller is called {name}.")
        taker = made
    refused = await _unsound(side, choice, taker, name)
    if refused is not None:
        return refused
    rules = dataclasses.replace(ctx.rules, run_mode=RunMode.ORDERED if choice.ordered else RunMode.UNORDERED)
    try:
        await ctx.store.correspondence.offers.make(account_id, side.terminal.address, taker,
                                                   OfferTerms(rules_to_dict(rules), choice.days, choice.best_of,
                                                              choice.rated, choice.manual),
                                                   ctx.correspondence.offer_limits())
    except OfferRefused as exc:
        return Refused("type", str(exc))
    side.log.info("account %d offers %s a correspondence game (%d days a move, best of %d)", account_id,
                  "anyone" if name is None else repr(name), choice.days, choice.best_of)
    return None


async def _may_meet(side: Side, choice: Choice) -> Refused | None:
    """Why an offer on the terms of ``choice`` may not be made to a
    member board's caller who has no account yet, before it is made
    for them: the terms unsound, rated (a caller who never called has
    finished no game), or the address's offers of the hour made."""
    refused = await _unsound(side, choice._replace(rated=False), None, None)
    if refused is not None:
        return refused
    if choice.rated:
        return Refused("rated", "It cannot be rated: that caller has never called this hub, and a rated game "
                                "needs two callers who have played here.")
    hourly = await side.ctx.store.correspondence.offers.hourly(side.terminal.address,
                                                               side.ctx.correspondence.offer_limits())
    return None if hourly is None else Refused("type", hourly)


async def _unsound(side: Side, choice: Choice, taker: int | None, name: str | None) -> Refused | None:
    """Why the terms of ``choice``, offered to account ``taker`` (named
    ``name``; ``None``: anyone) are refused, if they are: days a move not
    among the board's, a match of another length, rated where the board
    rates none or fair play does not allow the pair now, counted by hand
    yet rated."""
    ctx = side.ctx
    if choice.days not in ctx.correspondence.days:
        return Refused("days", f"Days a move are one of {', '.join(map(str, ctx.correspondence.days))}.")
    if choice.best_of not in BEST_OF or type(choice.best_of) is not int:
        return Refused("best_of", "An offer is for one game (1) or a match of the best of 3 or 5 games.")
    if choice.rated and choice.manual:
        return Refused("counting", "Counting your own hands is for unrated games: the door counts a rated game's.")
    if not choice.rated:
        return None
    maker = contender(side, side.presence)
    if maker is None:
        why: str | None = "Rated games are between two registered callers."
    elif taker is None or name is None:  # (to anyone: the pair is asked when it is taken)
        why = None if ctx.correspondence.rated else "This board does not rate games by correspondence."
    else:
        why = await why_not_rated(side, maker, Contender(taker, name, ""))
    return None if why is None else Refused("rated", f"It cannot be rated: {why}")


async def _callee(side: Side, name: str, check_only: bool) -> int | Refused | None:
    """The account ``name`` names (``None``: a member board's caller not
    met yet, when ``check_only``), else why not: nobody of that name; a
    caller of another board (``alias@BOARD``) where this board is no hub,
    or of a board that is not a member of it.  On the hub a member
    board's caller's account is made (unless ``check_only``)."""
    ctx = side.ctx
    if "@" not in name:
        other = await ctx.store.accounts.find(name)
        return other.id if other is not None else Refused("name", f"No other registered caller is called {name}.")
    if not ctx.boards:
        return Refused("name", f"{name} is a caller of another board: this board is no cribbage hub. Games with "
                               "callers of other boards are played on the hub: call it from your board and offer "
                               "the game there.")
    caller = board_caller(name, ctx.boards)
    if isinstance(caller, str):
        return Refused("name", caller)
    account = await ctx.store.accounts.find(caller.name)
    if account is None and not check_only:
        account = await hub_account(ctx.store, caller)
    return None if account is None else account.id


def counted(manual: bool) -> str:
    """Who counts the hands of a game offered, in words.

    >>> counted(True)
    'each player counts their own hands, with muggins'
    """
    return "each player counts their own hands, with muggins" if manual else "the door counts the hands"


async def take_offer(side: Side, account_id: int, offer_id: int) -> Offer | str:
    """``account_id`` accepts the offer ``offer_id`` (made to them, or to
    anyone), from the line ``side`` calls on: the offer (the game it
    begins is for the caller to sit down to), or why not in a sentence
    (either player's games under way at the cap, their own offer, an offer
    to anyone from their own network; taken, withdrawn or lapsed
    meanwhile): :func:`~door.games.correspondence.accept_offer`."""
    return await accept_offer(side.ctx.games, offer_id, account_id, side.terminal.address,
                              shared_line(side.terminal, side.ctx.shared))


async def unrated_now(side: Side, offer: Offer, maker: str) -> str:
    """Why the accepted ``offer`` (made by ``maker``), offered rated, is
    played unrated after all (fair play is asked again with the taker's
    address: the answer may have changed since it was made), in a
    sentence; empty when it is rated, or was not offered rated."""
    taker = contender(side, side.presence)
    if not offer.terms.rated or taker is None:
        return ""
    shared = in_networks(offer.address, side.ctx.shared)
    why = await why_not_rated(side, Contender(offer.maker, maker, "" if shared else offer.address, shared), taker)
    return why or ""


async def under_way_of(side: Side, account_id: int) -> int:
    """How many games by correspondence ``account_id`` has under way."""
    return await under_way(side.ctx.games, account_id)


async def offers_for(side: Side, account_id: int) -> list[Offer]:
    """The offers ``account_id`` may answer: those made to them, then
    those made to anyone by others (oldest first, up to
    :data:`~door.records.correspondence.offers.LISTED` of each)."""
    offers = side.ctx.store.correspondence.offers
    return [*await offers.received(account_id), *await offers.open_to_anyone(besides=account_id)]
