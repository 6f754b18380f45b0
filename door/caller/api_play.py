"""A program's games by the game protocol: its messages read and checked
(each that is not one is answered with an ``error`` naming the field), its
seat at a table until the table is done with it, a game against the
computer (kept move by move for a bot or a registered caller, as at a
screen), today's deal, and the review of its last game."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from door.caller.daily_screens import keep_result, pending_day, ranking_lines
from door.caller.program import Program
from door.caller.review import review_of
from door.caller.side import Log, shared_line
from door.context import DoorContext
from door.games.kinds import computer_game
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import MessageError, ask_message, card_list, error_message, read_message
from door.play.api_seat import ApiSeat
from door.play.daily_deal import daily_opponent
from door.play.hints import discard_analysis, hand_play, hint, pegging_note
from door.play.options import CallerOptions, Skill
from door.play.parked import Parked, stop
from door.play.review_data import review_costs, review_decisions
from door.play.review_words import review_lines
from door.play.tables import computer_opponent
from door.records.accounts import Account
from door.records.bots import BOTS
from door.records.ranked.ratings import RatedPlayer
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from engine.actions import Discard
from engine.game import Phase
from engine.shuffle import SeededShuffle

__all__ = ["next_message", "hand_moves", "hint_message", "advice_message", "play_seat", "play_computer", "at_table", "play_daily", "review_message",
           "ratings_message", "stats_message", "IDLE_LOOK"]

RATINGS_SHOWN = 50
"""Rated players a ``ratings`` message lists, of each pool."""

IDLE_LOOK = 0.5
"""Seconds between looks for a challenge of a program waiting at the menu."""

_log = logging.getLogger(__name__)


async def next_message(link: ApiLink, timeout: float | None = None) -> dict[str, Any] | None:
    """The program's next message that is one (``None`` when ``timeout``
    seconds pass first); each that is not gets an ``error`` (the field, and
    what was expected).  Raises :class:`~door.net.terminal.HungUp` when the
    connection ends."""
    while True:
        text = await link.receive(timeout)
        if text is None:
            return None
        try:
            return read_message(text)
        except MessageError as exc:
            link.send(error_message(exc.field, str(exc)))


async def hand_moves(link: ApiLink, seat: ApiSeat) -> bool:
    """Hand the program's messages to ``seat`` until the table is done with
    it; True when the program left (``leave``: the game is quit, as Q
    quits it, and the session ends)."""
    while not seat.over.is_set():
        over = asyncio.create_task(seat.over.wait())
        arrived = asyncio.create_task(next_message(link))
        await asyncio.wait({over, arrived}, return_when=asyncio.FIRST_COMPLETED)
        over.cancel()
        if not arrived.done():
            arrived.cancel()
            # (a connection that ends as it is cancelled: its HungUp is this session's end, not news for the log)
            arrived.add_done_callback(lambda task: task.cancelled() or task.exception())
            break
        message = arrived.result()  # (raises HungUp when the connection ended)
        if message is not None and message["type"] in ("hint", "advice"):
            link.send(hint_message(seat) if message["type"] == "hint" else advice_message(seat))
            continue
        if message is not None and message["type"] == "leave":
            if seat.table is not None and not seat.over.is_set():
                seat.table.quit(seat.index)
                await asyncio.wait({asyncio.create_task(seat.over.wait())}, timeout=5)
            return True
        if message is not None:
            seat.take(message)
    return False


def hint_message(seat: ApiSeat) -> dict[str, Any]:
    """The ``hint`` for ``seat`` now, as the screens' ``?`` gives it
    (:func:`door.play.hints.hint`: the cards, and what they are worth), or
    an ``error``: no hints between people unless the table gives them, and
    a hint is for a discard or a card to play, when it is asked."""
    table = seat.table
    game = table.game if table is not None else None
    if table is None or game is None:
        return error_message("type", "no game is under way")
    if not table.against_computer(seat.index) and not table.hints:
        return error_message("type", "no hints in a game between people (a house rule)")
    ask = ask_message(game, seat.index)
    if ask is None or ask["ask"] == "count":
        return error_message("type", "a hint is for a discard or a card to play, when it is your turn")
    cards, text = hint(game, seat.index)
    return {"type": "hint", "cards": card_list(cards), "text": text}


def advice_message(seat: ApiSeat) -> dict[str, Any]:
    """The ``advice`` for ``seat`` now, as the screen-reader mode's A says
    it: the analysis of its last discard (:func:`door.play.hints.discard_analysis`)
    and the pegging of the last hand played out, both hands known
    (:func:`door.play.hints.pegging_note`; about 2 ms together), or an
    ``error`` where no hints are given."""
    table = seat.table
    game = table.game if table is not None else None
    if table is None or game is None:
        return error_message("type", "no game is under way")
    if not table.against_computer(seat.index) and not table.hints:
        return error_message("type", "no advice in a game between people (a house rule)")
    me, notes = seat.index, []
    thrown = [a for a in game.actions if isinstance(a, Discard) and a.seat == me]
    if thrown and game.kept[me]:  # this hand's discard
        notes.append(discard_analysis((*game.kept[me], *thrown[-1].cards), thrown[-1].cards, game.dealer == me))
    elif thrown and game.last_play is not None:  # the hand before's (dealt by the other)
        notes.append(discard_analysis((*game.last_play[1][me], *thrown[-1].cards), thrown[-1].cards,
                                      game.dealer != me))
    hand = game.hand_number if game.phase in (Phase.SHOW, Phase.OVER) else game.hand_number - 1
    play = hand_play(game, hand) if hand >= 1 else None
    if play is not None:
        note = pegging_note(game.rules, hand, *play, me, table.seats[1 - me].name)
        if note:
            notes.append(note)
    return {"type": "advice", "notes": notes or ["No advice yet: it comes after your first discard."]}


async def play_seat(link: ApiLink, seat: ApiSeat) -> bool:
    """:func:`hand_moves` at a table between people: a session that ends
    there however it ends (the connection gone, an exception) leaves the
    seat as a dropped line does (the table waits for the program to log in
    again, as for any registered caller); while it only waits on the other
    player it is never idle-timed out.  True when the program left."""
    link.awaited = lambda: seat.table is None or seat.table.awaits(seat.index)
    try:
        return await hand_moves(link, seat)
    except BaseException:
        if seat.table is not None:
            seat.table.leave(seat.index, seat)
        raise
    finally:
        link.awaited = None


async def play_computer(link: ApiLink, ctx: DoorContext, presence: Presence, who: Program,
                         message: dict[str, Any], resume: SavedGame | None = None,
                         daily: tuple[str, SeededShuffle] | None = None) -> bool:
    """One game against the computer at the level and target asked for
    (the house's rules otherwise, and only what the sysop lets callers
    change), or the program's kept game (``resume``), or the day's deal
    (``daily``: the day and its shuffles; under the house rules against
    the day's computer, its result kept for the day's ranking, which is
    sent when it ends; a kept play of today's deal is one too).  An
    account's game is kept move by move, as at a screen; a guest's is
    parked under their resume token when the line drops
    (:mod:`door.play.parked`).  True when the program left; raises
    :class:`~door.net.terminal.HungUp` when the connection ended."""
    name, bot = who.name, who.account
    options = CallerOptions()
    if "skill" in message and message["skill"] in ctx.caller.skills:
        options.skill = Skill(message["skill"])
    if "game_to" in message:
        options.rules["game_to"] = message["game_to"]
    if resume is not None and bot is not None and resume.shuffle is not None and \
            (day := await pending_day(ctx, bot.id, resume)) is not None:
        daily = (day, resume.shuffle)
    rules = (resume.rules if resume is not None else ctx.rules if daily is not None
             else options.game_rules(ctx.rules, ctx.caller.may_change))
    seat = who.seat(link.send)
    computer = (daily_opponent(daily[1], ctx.computer_delay, 0.0, 0.0, ctx.thinking) if daily is not None
                else computer_opponent(options, ctx.computer_delay, 0.0, 0.0, ctx.thinking))
    table = computer_game(ctx.games, rules, (seat, computer), bot.id if bot is not None else None,
                          first=daily[1] if daily is not None else None,
                          sealed_until=daily[0] if daily is not None else None, auto_deal=True, seeds=who.seeds)
    ctx.lobby.update(presence, Doing.VS_COMPUTER, table, seat=seat)
    game = Parked(name, seat, table, computer, asyncio.create_task(table.run(resume)))
    try:
        left = await at_table(link, ctx, presence, game, who.resume if bot is None and daily is None else None)
    finally:
        if daily is not None and bot is not None:
            await keep_result(ctx, (bot.id, name), table, daily, _log)
    if daily is not None and bot is not None and not left:
        link.send(await daily_message(ctx, bot.id, daily[0]))
    return left


async def at_table(link: ApiLink, ctx: DoorContext, presence: Presence, game: Parked,
                   token: str | None = None) -> bool:
    """The program at ``game``'s table against the computer until it is
    done; then the computer stops.  A connection that ends with a
    ``token`` (a guest's) parks the game for the rejoin time instead:
    ``presence`` no longer holds its seat then, so the connection's end
    does not leave it.
    True when the program left; raises :class:`~door.net.terminal.HungUp`
    when the connection ended."""
    seat, table, running = game.seat, game.table, game.running
    parked = False
    try:
        left = await hand_moves(link, seat)
        await running
    except HungUp:
        if token is not None and not running.done() and ctx.paging.rejoin_timeout > 0:
            seat.redirect(lambda message: None)  # (nobody to tell until the guest is back)
            ctx.lobby.release_seat(presence)
            ctx.parked.park(token, game, ctx.paging.rejoin_timeout)
            parked = True
        raise
    finally:
        if not parked:
            if not running.done():
                table.leave(seat.index)
                await asyncio.wait({running}, timeout=5)
            stop(game)
    return left


async def play_daily(link: ApiLink, ctx: DoorContext, presence: Presence, who: Program,
                 log: Log) -> bool:
    """Today's deal for a registered caller, once (as at the screens:
    once an account, and by default once an address; an account that may
    not play rated matches yet is refused, an ``error`` saying when it
    may), then the day's ranking (a ``daily`` message); a caller who
    played it today gets the ranking at once.  A guest has no account to rank, and a bot does not
    play it (it is ranked among people).  True when the program left."""
    name, account, is_bot = who.name, who.account, who.bot
    if account is None or is_bot:
        link.send(error_message("type", "today's deal is ranked among people: it is for registered callers"
                                if account is None or not is_bot else "today's deal is ranked among people: "
                                "a bot does not play it"))
        return False
    daily = ctx.store.daily
    day = daily.today()
    deal = await daily.deal(day)
    if not await daily.played(account.id, day):
        address = "" if shared_line(link, ctx.shared) or not ctx.daily.per_address else link.address
        refused = await daily.claim(account.id, day, address, ctx.ranked.rules())  # (a fresh account: refused)
        if refused is not None:
            link.send(error_message("type", refused))
            return False
        log.info("%r plays the daily deal of %s (game %d) by the game protocol", name, day, deal.game)
        return await play_computer(link, ctx, presence, who, {"type": "play_computer"}, None,
                                    (day, deal))
    link.send(await daily_message(ctx, account.id, day))
    return False


async def daily_message(ctx: DoorContext, account_id: int, day: str) -> dict[str, Any]:
    """The ``daily`` message of ``day`` (``"YYYY-MM-DD"``) for
    ``account_id``: the ranking's lines, and as data its first ten
    (place, name, scores, margin, against the par, unfinished), the par
    (the expert's score and the computer's) and the caller's streak in
    days."""
    deal = await ctx.store.daily.deal(day)
    lines = await ranking_lines(ctx, account_id, day)  # (works out the par when nobody has yet)
    par = await ctx.store.daily.par(day)
    ranking = [{"place": i, "name": r.name, "score": r.score, "computer": r.computer, "margin": r.margin,
                "against_par": r.against_par, "unfinished": r.unfinished}
               for i, r in enumerate((await ctx.store.daily.ranking(day))[:10], 1)]
    message: dict[str, Any] = {"type": "daily", "day": day, "game": deal.game, "lines": lines, "ranking": ranking,
                               "streak": await ctx.store.daily.streak(account_id, day)}
    if par is not None:
        message["par"] = list(par)
    return message


async def review_message(ctx: DoorContext, account: Account | None, log: Log) -> dict[str, Any]:
    """The ``review`` of the program's last recorded game (the door's
    review, :func:`~door.caller.review.reviewed`, line by line), or an
    ``error`` saying why there is none."""
    if account is None:
        return error_message("type", "a guest's games are not kept: there is nothing to review")
    games = await ctx.store.games.recent(account.name, 1)
    if not games:
        return error_message("type", "you have no finished game to review")
    found = await review_of(ctx, games[0], account.id, log)
    if isinstance(found, str):
        return error_message("type", found)
    review, number, opponent = found
    return {"type": "review", "game": games[0].number, "lines": review_lines(review, number, opponent),
            "decisions": review_decisions(review), "costs": review_costs(review)}


RECENT_SHOWN = 10
"""Recent games a ``stats`` message lists."""


async def stats_message(ctx: DoorContext, account: Account | None) -> dict[str, Any]:
    """The ``stats`` of the program's account: the statistics screen's
    figures (label and value, as the screen words them) and its last ten
    games (``ended`` as UTC ``"YYYY-MM-DDTHH:MM:SSZ"``), or an ``error``
    for a guest (whose games are not kept)."""
    if account is None:
        return error_message("type", "a guest's games are not kept: there are no statistics")
    figures = await ctx.store.statistics.player(account.name)
    rows = [{"label": label, "value": value} for label, value in figures.rows()] if figures is not None else []
    recent = [{"game": g.number, "players": list(g.players), "scores": list(g.scores), "winner": g.winner,
               "skunk": g.skunk.name.lower(), "forfeit": g.forfeit,
               "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(g.ended))}
              for g in await ctx.store.games.recent(account.name, RECENT_SHOWN)]
    return {"type": "stats", "name": account.name, "rows": rows, "recent": recent}


async def ratings_message(ctx: DoorContext) -> dict[str, Any]:
    """The ``ratings`` message: the rated players of people's pool and of
    the bots' (:mod:`door.records.ranked.pools`), each established players
    first by rating, then the provisional ones; 50 of each at most
    (rating and RD in whole points)."""
    def rows(players: list[RatedPlayer]) -> list[dict[str, Any]]:
        return [{"name": p.name, "rating": round(p.rating.rating), "rd": round(p.rating.rd), "matches": p.matches,
                 "provisional": p.provisional} for p in players]
    return {"type": "ratings", "people": rows(await ctx.store.ratings.top(RATINGS_SHOWN)),
            "bots": rows(await ctx.store.ratings.top(RATINGS_SHOWN, pool=BOTS))}
