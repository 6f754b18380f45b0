"""Cribbage by correspondence by the game protocol: a program lists its
games and the offers it may answer (``games``: those made to it, and
those made to anyone by others), sits down to one (``open``: it plays
its decisions at the table until the game waits on the other player,
then ``waiting``), offers a game to a caller by name or to anyone
(``offer``) and answers an offer (``answer``); a game that comes to wait
on it while it is on line is told by ``your_move``.  So a bot plays many
games by correspondence on one connection, one sitting at a time.  The
flows are the screens' (:mod:`door.caller.correspondence`)."""

from __future__ import annotations

from typing import Any

from door.caller.correspondence import BY_TURNS, go_away, since_my_move
from door.caller.offering import Choice, offer_to, offers_for, take_offer, unrated_now
from door.caller.program_side import ProgramSide
from door.caller.turns import tell_turn
from door.games.correspondence import begin_from_offer, sit_down
from door.games.live_lease import PlayedElsewhere
from door.play.api_moves import play_seat
from door.play.table import Table
from door.records.correspondence.offers import Offer
from door.sysop.doing import Doing
from engine.scoring import RunMode

__all__ = ["answer_offer", "away", "make_offer", "open_by_protocol", "send_games"]


async def send_games(side: ProgramSide, message: dict[str, Any]) -> bool:
    """The ``games`` message: the program's games by correspondence (the
    first due first: whose move, the deadline and the seconds left, where
    it stands), the offers made to it (``offers``) and those it made and
    may withdraw (``made``)."""
    account = side.who.account
    if account is None:
        side.error("type", "games by correspondence are for registered callers and bots")
        return False
    store, now = side.ctx.store, side.ctx.store.clock()
    games = [{"game": g.id, "kind": g.kind.value, "other": g.other, "number": g.number, "to_move": g.to_move.value,
              "deadline": g.deadline, "seconds_left": None if g.deadline is None else max(0.0, g.deadline - now),
              "hand": g.hand, "scores": list(g.scores) if g.scores is not None else None}
             for g in await store.saved.unfinished(account.id) if g.kind in BY_TURNS]
    offers, made = await offers_for(side, account.id), await store.correspondence.offers.sent(account.id)
    names = await store.accounts.names([o.maker for o in offers] + [o.taker for o in made if o.taker is not None])
    side.send({"type": "games", "games": games, "offers": [_listed(o, names.get(o.maker, "")) for o in offers],
               "made": [_listed(o, names.get(o.taker, "") if o.taker is not None else "") for o in made]})
    return False


def _listed(offer: Offer, name: str) -> dict[str, Any]:
    """``offer`` as the ``games`` message lists it, the other player
    ``name``d (its maker, or whom it is made to; empty for anyone)."""
    return {"offer": offer.id, "name": name, "days": offer.terms.days,
            "runs": "order" if offer.terms.rules.get("run_mode") == RunMode.ORDERED.value else "any",
            "open": offer.taker is None, "counting": "manual" if offer.terms.manual else "automatic",
            "best_of": offer.terms.best_of, "rated": offer.terms.rated}


async def open_by_protocol(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``open``: the program sits down to its game by correspondence
    ``game`` (what happened since its last move said first, in a
    ``notice``) and plays its decisions (as at any table) until the game
    waits on the other player (``waiting``) or is over; an ``error`` on
    ``game`` for a game not its own, or whose saved moves do not replay
    (the session goes on).  True when the program left."""
    account = side.who.account
    seat = side.who.seat(side.send)
    table = saved = None
    try:
        saved = await side.ctx.store.saved.load_game(message["game"]) if account is not None else None
        if account is not None and saved is not None and account.id in (saved.account_id, saved.other_account):
            since = since_my_move(saved, saved.seat_of(account.id))
            if since:  # (what happened since its last move, said first, as at the screens)
                side.notice("Since your last move: " + " ".join(since))
            table = await sit_down(side.ctx.games, saved, account.id, seat)
    except PlayedElsewhere as exc:
        side.error("game", f"that game is played at another of this door's servers now (node {exc.node}): "
                           "connect to it there")
        return False
    except (ValueError, KeyError, TypeError) as exc:  # NotationError, IllegalAction: a log that does not read
        side.log.error("the kept game %d does not replay: %s", message["game"], exc)
        side.error("game", "that game's saved moves do not replay: the sysop can look at it")
        return False
    if table is None or saved is None:
        side.error("game", "no game by correspondence of yours has that id (the games message lists them)")
        return False
    return await _sit(side, table, seat)


async def make_offer(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``offer``: a game by correspondence offered to the caller ``name``
    (``alias@BOARD`` on the cribbage hub), or to anyone without a
    ``name`` (``days`` a move, the sysop's default otherwise; ``runs``;
    one game, or a match of ``best_of`` 3 or 5; ``rated`` or not;
    ``counting``: ``"manual"``, each player counts their own hands with
    muggins, in an unrated game)."""
    account = side.who.account
    if account is None:
        side.error("type", "games by correspondence are for registered callers and bots")
        return False
    days = message.get("days", side.ctx.correspondence.default_days)
    name = message.get("name")
    refused = await offer_to(side, account.id, name, Choice(
        days, message.get("runs") == "order", message.get("best_of", 1), message.get("rated", False),
        message.get("counting") == "manual"))
    if refused is not None:
        side.error(refused.field, refused.why)
    elif name is None:
        side.notice("Your offer to anyone is made: the first caller to take it plays you.")
    else:
        side.notice(f"Your offer is made: {name} finds it at their next call.")
    return False


async def answer_offer(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``answer``: the program declines the offer made to it (or
    withdraws its own; a ``notice`` says which), or accepts it (one made to it, or to anyone by
    another) and sits down to the game it begins at once (its first
    decisions).  True when the program left."""
    account = side.who.account
    offers = side.ctx.store.correspondence.offers
    if account is None:
        side.error("type", "games by correspondence are for registered callers and bots")
        return False
    if not message["accept"]:
        offer = await offers.get(message["offer"])
        names = await side.ctx.store.accounts.names([offer.maker, offer.taker or 0] if offer is not None else [])
        if offer is not None and await offers.decline(offer.id, account.id):
            side.notice(f"You declined {names[offer.maker]}'s offer." if offer.maker in names else "You declined the offer.")
        elif offer is not None and await offers.withdraw(offer.id, account.id):
            side.notice(f"You withdrew your offer to {names.get(offer.taker or 0, 'anyone')}.")
        else:
            side.error("offer", "no open offer to you, nor of yours, has that id")
        return False
    taken = await take_offer(side, account.id, message["offer"])
    if isinstance(taken, str):
        side.error("offer", taken)
        return False
    maker = await side.ctx.store.accounts.get(taken.maker)
    name = maker.name if maker is not None else ""
    unrated = await unrated_now(side, taken, name)
    if unrated:
        side.notice(f"This is not rated after all: {unrated}")
    seat = side.who.seat(side.send)
    table = begin_from_offer(side.ctx.games, taken, name, seat, unrated)
    return await _sit(side, table, seat)


async def away(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``away``: the program's player is away ``days`` days from now (their
    clocks stop in every game by correspondence); a ``notice``, or an
    ``error`` saying why not."""
    if side.who.account is None:
        side.error("type", "games by correspondence are for registered callers and bots")
        return False
    said = await go_away(side, side.who.account.id, message["days"])
    if said.startswith("You are away"):
        side.notice(said)
    else:
        side.error("days", said)
    return False


async def _sit(side: ProgramSide, table: Table, seat: Any) -> bool:
    """The program at ``table``'s ``seat`` until the table is done with it
    (its seat then says ``waiting`` when the game waits on the other
    player, else ``menu``); the other player told when it is their move.
    True when the program left."""
    side.doing(Doing.VS_CALLER, table, table.seats[1 - seat.index].name, seat)
    left = await play_seat(side.link, seat)
    await table.ended.wait()
    tell_turn(side, table)
    return left
