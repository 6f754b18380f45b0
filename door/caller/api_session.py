"""A program's session by the game protocol (``/api/v1/play``): the
server says hello, the program logs in (a bot with its name and token, a
registered caller with their password, or a guest under a name), then
plays the computer, or challenges a player at the menu, as many games as
it likes, and leaves.  A bot waits at the door's menu between games,
where callers see it and may challenge it; it accepts by itself.  A bot's
or a registered caller's game against the computer is kept as at a
screen, and goes on when they log in again (by either way in).
Every message a program sends is checked against its schema
(:mod:`door.play.api_messages`); a bad one is answered with an ``error``
naming the field, and the session goes on."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

from door.caller.challenges import rules_words
from door.caller.daily_screens import keep_result, pending_day, ranking_lines
from door.caller.login import reserved
from door.caller.match_table import set_table, why_unrated
from door.caller.review import reviewed
from door.caller.side import Log, shared_line
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import PROTOCOL, MessageError, error_message, read_message
from door.play.api_seat import ApiSeat
from door.play.daily_deal import daily_opponent
from door.play.deals import new_chain, new_seed
from door.play.journal import Journal
from door.play.options import CallerOptions, Skill
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.play.tables import computer_opponent
from door.records.accounts import Account
from door.records.games import Opponent
from door.records.names import clean_name, name_key
from door.records.ranked.match import MatchTerms, ranked_rules
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.sysop.presence import Challenge, Presence, account_identity, account_of
from door.ui.prompts import NAME_LIMIT
from engine.rules import Rules
from engine.scoring import RunMode
from engine.shuffle import SeededShuffle

__all__ = ["play_by_protocol", "DOOR_NAME", "IDLE_LOOK"]

DOOR_NAME = "cribbage-door"
"""What the ``hello`` names the server."""

IDLE_LOOK = 0.5
"""Seconds between a waiting bot's looks for a challenge."""

_log = logging.getLogger(__name__)


async def _next(link: ApiLink, timeout: float | None = None) -> dict[str, Any] | None:
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


async def _log_in(link: ApiLink, ctx: DoorContext) -> tuple[str, Account | None, bool]:
    """Who the program is: a bot's name and account (its token checked),
    a registered caller's (their password checked, within the same limits
    on wrong passwords as at the name prompt:
    :class:`~door.records.throttle.LoginThrottle`), or a guest's name and
    ``None``; and whether it is a bot."""
    while True:
        message = await _next(link)
        assert message is not None
        if message["type"] != "login":
            link.send(error_message("type", "log in first: {\"type\": \"login\", \"name\": ...}"))
            continue
        name = clean_name(message["name"])[:NAME_LIMIT]
        if "password" in message and "token" not in message:
            account = await ctx.store.accounts.find(name)
            if account is None or await ctx.store.bots.is_bot(account.id):
                link.send(error_message("name", "no caller by that name is registered"))
                continue
            stored = await ctx.store.accounts.password_hash(account.id)
            verdict = await ctx.throttle.check(account.name, link.address, "protocol", message["password"], stored)
            if verdict.ok:
                return account.name, account, False
            if verdict.refused is None:
                await asyncio.sleep(verdict.delay)
            link.send(error_message("password", verdict.refused or "wrong password"))
            continue
        if "token" in message:
            bot = await ctx.store.bots.log_in(name, message["token"])
            if bot is None:
                await asyncio.sleep(1.0)  # (a guess costs a second)
                link.send(error_message("token", "no bot by that name has that token"))
                continue
            return bot.name, bot, True
        if not name or reserved(name, ctx.sysops):
            link.send(error_message("name", "that name is reserved: choose another"))
        elif await ctx.store.accounts.find(name) is not None:
            link.send(error_message("name", "that name is registered: a guest chooses another"))
        else:
            return name, None, False


async def play_by_protocol(link: ApiLink, ctx: DoorContext, presence: Presence, log: Log) -> None:
    """The session of one program on ``link``: hello, login, games, until
    it leaves or the connection ends."""
    try:
        await _session(link, ctx, presence, log)
    except HungUp:
        pass  # the connection ended (or idled out): a bot's game is kept, a guest's is not
    finally:
        ctx.lobby.at_menu(presence, False)


async def _session(link: ApiLink, ctx: DoorContext, presence: Presence, log: Log) -> None:
    link.send({"type": "hello", "protocol": PROTOCOL, "door": DOOR_NAME})
    name, bot, is_bot = await _log_in(link, ctx)
    if bot is not None and not await ctx.lobby.take_over(presence, account_identity(bot.id)):
        link.send({"type": "bye", "text": f"{name} is on line on another connection that does not answer."})
        return
    link.logged_in()
    presence.name, presence.bot = name, is_bot
    ctx.lobby.update(presence, Doing.LOGGED_IN)
    log.info("program %r logged in by the game protocol (%s)", name,
             "a bot" if is_bot else "a registered caller" if bot else "a guest")
    link.send({"type": "welcome", "name": name, "guest": bot is None, "bot": is_bot})
    if bot is not None and (waiting := ctx.lobby.waiting_table(account_identity(bot.id))) is not None:
        table, index = waiting  # its line dropped in a game against a person, who waits for it: back to it
        seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id))
        link.send({"type": "notice", "text": f"Your game against {table.seats[1 - index].name} goes on."})
        ctx.lobby.update(presence, Doing.VS_CALLER, table, table.seats[1 - index].name)
        table.rejoin(index, seat)
        if await _play_seat(link, seat):
            return await _goodbye(link)
    if bot is not None:
        saved = await ctx.store.saved.load(bot.id)
        if saved is not None and saved.opponent == Opponent.COMPUTER:
            link.send({"type": "notice", "text": f"Your game #{saved.number} against the computer goes on."})
            if await _play_computer(link, ctx, presence, (name, bot), {"type": "play_computer"}, saved):
                return await _goodbye(link)
    available = is_bot  # (a bot may be challenged, and accepts by itself; another program when it says so)
    while True:
        ctx.lobby.update(presence, Doing.MAIN_MENU)
        ctx.lobby.at_menu(presence, available)
        message = await _next(link, IDLE_LOOK if available else None)
        if message is None:
            challenge = ctx.lobby.challenge_for(presence)
            if challenge is not None:
                ctx.lobby.at_menu(presence, False)
                if await (_accept if is_bot else _answer)(link, ctx, (name, bot), challenge):
                    return await _goodbye(link)
            continue
        if message["type"] == "leave":
            return await _goodbye(link)
        if message["type"] == "available":
            available = is_bot or message["on"]
            link.send({"type": "notice", "text": "You are at the menu: the door's callers may challenge you."
                       if available else "You are no longer listed to be challenged."})
            continue
        if message["type"] == "lobby":
            link.send(await _lobby(ctx, presence))
            continue
        if message["type"] == "review":
            link.send(await _review(ctx, bot, log))
            continue
        if message["type"] == "daily":
            if await _daily(link, ctx, presence, (name, bot, is_bot), log):
                return await _goodbye(link)
            continue
        if message["type"] == "challenge":
            ctx.lobby.at_menu(presence, False)
            if await _challenge(link, ctx, presence, (name, bot), message, log):
                return await _goodbye(link)
            continue
        if message["type"] != "play_computer":
            link.send(error_message("type", "no game is under way: play_computer, lobby, challenge, review or leave"))
            continue
        ctx.lobby.at_menu(presence, False)
        if await _play_computer(link, ctx, presence, (name, bot), message):
            return await _goodbye(link)


async def _goodbye(link: ApiLink) -> None:
    link.send({"type": "bye", "text": "Thanks for playing cribbage. Goodbye!"})
    await link.drain()


async def _seated(link: ApiLink, seat: ApiSeat) -> bool:
    """Hand the program's messages to ``seat`` until the table is done with
    it; True when the program left (``leave``: the game is quit, as Q
    quits it, and the session ends)."""
    while not seat.over.is_set():
        over = asyncio.create_task(seat.over.wait())
        arrived = asyncio.create_task(_next(link))
        await asyncio.wait({over, arrived}, return_when=asyncio.FIRST_COMPLETED)
        over.cancel()
        if not arrived.done():
            arrived.cancel()
            # (a connection that ends as it is cancelled: its HungUp is this session's end, not news for the log)
            arrived.add_done_callback(lambda task: task.cancelled() or task.exception())
            break
        message = arrived.result()  # (raises HungUp when the connection ended)
        if message is not None and message["type"] == "leave":
            if seat.table is not None and not seat.over.is_set():
                seat.table.quit(seat.index)
                await asyncio.wait({asyncio.create_task(seat.over.wait())}, timeout=5)
            return True
        if message is not None:
            seat.take(message)
    return False


async def _lobby(ctx: DoorContext, presence: Presence) -> dict[str, Any]:
    """The ``lobby`` message: who ``presence`` may challenge now (at the
    main menu here), each a bot or not, a guest or not."""
    players = [{"name": p.name, "guest": account_of(p.identity) is None, "bot": p.bot}
               for p in ctx.lobby.opponents(presence)]
    return {"type": "lobby", "players": players}


async def _daily(link: ApiLink, ctx: DoorContext, presence: Presence, who: tuple[str, Account | None, bool],
                 log: Log) -> bool:
    """Today's deal for a registered caller, once (as at the screens:
    once an account, and by default once an address), then the day's
    ranking (a ``daily`` message); a caller who played it today gets the
    ranking at once.  A guest has no account to rank, and a bot does not
    play it (it is ranked among people).  True when the program left."""
    name, account, is_bot = who
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
        refused = await daily.claim(account.id, day, address)
        if refused is not None:
            link.send(error_message("type", refused))
            return False
        log.info("%r plays the daily deal of %s (game %d) by the game protocol", name, day, deal.game)
        return await _play_computer(link, ctx, presence, (name, account), {"type": "play_computer"}, None,
                                    (day, deal))
    link.send({"type": "daily", "day": day, "game": deal.game, "lines": await ranking_lines(ctx, account.id, day)})
    return False


async def _review(ctx: DoorContext, account: Account | None, log: Log) -> dict[str, Any]:
    """The ``review`` of the program's last recorded game (the door's
    review, :func:`~door.caller.review.reviewed`, line by line), or an
    ``error`` saying why there is none."""
    if account is None:
        return error_message("type", "a guest's games are not kept: there is nothing to review")
    games = await ctx.store.games.recent(account.name, 1)
    if not games:
        return error_message("type", "you have no finished game to review")
    lines = await reviewed(ctx, games[0], account.id, log)
    if isinstance(lines, str):
        return error_message("type", lines)
    return {"type": "review", "game": games[0].number, "lines": lines}


async def _challenge(link: ApiLink, ctx: DoorContext, presence: Presence, who: tuple[str, Account | None],
                     message: dict[str, Any], log: Log) -> bool:
    """The program challenges the player named in ``message`` (one at the
    main menu here: a caller, or a bot, which accepts by itself) to a game
    or a match, rated when asked and fair play allows; on a yes this
    session sets the table, and the program plays its seat to the end of
    the match.  True when the program left meanwhile."""
    name, bot = who
    target = next((p for p in ctx.lobby.opponents(presence) if name_key(p.name) == name_key(message["name"])), None)
    if target is None:
        link.send(error_message("name", f"{message['name']} is not at the main menu to be challenged "
                                        "(the lobby message lists who is)"))
        return False
    rated = bool(message.get("rated", False))
    best_of = message.get("best_of", 3 if rated else 1)
    if rated and best_of != 3:
        link.send(error_message("best_of", "a rated match is a best of three"))
        return False
    rules = dataclasses.replace(ctx.rules, run_mode=RunMode.ORDERED if message.get("runs") == "order"
                                else RunMode.UNORDERED)
    if rated:
        why = await why_unrated(ctx, presence, target)
        if why is not None:
            link.send(error_message("rated", f"no rated match: {why}"))
            return False
        rules = ranked_rules(rules)
    terms = MatchTerms(best_of, rated)
    if not ctx.lobby.challenges_left(presence):
        link.send(error_message("name", "too many challenges were sent from your address: wait a minute"))
        return False
    link.send({"type": "notice", "text": f"You challenged {target.name} to {rules_words(rules, terms)}: "
                                         f"waiting up to {ctx.paging.page_timeout:.0f} seconds for an answer."})
    ctx.lobby.update(presence, Doing.CHALLENGING, whom=target.name)
    challenge, left = await _answered(link, ctx, presence, target, (rules, terms))
    theirs = challenge.answer.result()
    if left or theirs is None:
        if theirs is not None:
            theirs.finish()  # (accepted as the program left: the other player goes back to the menu)
        link.send({"type": "notice", "text": f"{target.name} declined." if challenge.declined else
                   "The challenge is withdrawn." if challenge.withdrawn else f"{target.name} did not answer."})
        return left
    seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id) if bot is not None else None)
    table = await set_table(ctx, challenge, (seat, theirs), 0, new_chain(), log)
    ctx.lobby.update(presence, Doing.VS_CALLER, table, target.name)
    ctx.lobby.update(target, Doing.VS_CALLER, table, name)
    return await _play_seat(link, seat)


async def _answered(link: ApiLink, ctx: DoorContext, presence: Presence, target: Presence,
                    offer: tuple[Rules, MatchTerms]) -> tuple[Challenge, bool]:
    """Send the challenge and wait for its answer (``page_timeout``
    seconds at most); the program's messages meanwhile are answered with
    an error, but ``leave`` withdraws it.  Returns the challenge and
    whether the program left.  Raises :class:`~door.net.terminal.HungUp`
    when the connection ends (the challenge withdrawn)."""
    waiting = asyncio.create_task(ctx.lobby.challenge(presence, target, offer[0], None, offer[1]))
    left = False
    try:
        while not waiting.done():
            reading = asyncio.create_task(_next(link))
            await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                reading.add_done_callback(lambda task: task.cancelled() or task.exception())
                break
            message = reading.result()
            if message is not None and message["type"] == "leave":
                ctx.lobby.withdraw(presence)
                left = True
            elif message is not None:
                link.send(error_message("type", f"waiting for {target.name} to answer the challenge: "
                                                "only leave withdraws it"))
    except HungUp:
        ctx.lobby.withdraw(presence)
        challenge = await waiting
        if (seat := challenge.answer.result()) is not None:
            seat.finish()  # accepted as the line dropped: the other player goes back to the menu
        raise
    return await waiting, left


async def _answer(link: ApiLink, ctx: DoorContext, who: tuple[str, Account | None], challenge: Challenge) -> bool:
    """The program answers ``challenge`` itself (``challenged``, then
    ``accept`` or ``decline``, within the challenge's seconds); on accept
    it plays, as a bot does.  True when the program left meanwhile.
    Raises :class:`~door.net.terminal.HungUp` when the connection ends
    (the challenge declined)."""
    offer = (f"to go on with game #{challenge.resume.number}" if challenge.resume is not None
             else rules_words(challenge.rules, challenge.terms))
    link.send({"type": "challenged", "name": challenge.challenger.name, "offer": offer,
               "seconds": challenge.seconds_left})
    try:
        while not challenge.answer.done():
            message = await _next(link, IDLE_LOOK)
            if message is None:
                continue
            if message["type"] == "accept":
                return await _accept(link, ctx, who, challenge)
            if message["type"] in ("decline", "leave"):
                ctx.lobby.answer_challenge(challenge, None)
                return bool(message["type"] == "leave")
            link.send(error_message("type", f"{challenge.challenger.name} challenges you: accept or decline"))
    except HungUp:
        ctx.lobby.answer_challenge(challenge, None)
        raise
    link.send({"type": "notice", "text": f"{challenge.challenger.name} is no longer waiting for an answer."})
    return False


async def _accept(link: ApiLink, ctx: DoorContext, who: tuple[str, Account | None], challenge: Challenge) -> bool:
    """A bot accepts ``challenge``: the challenger's session sets the table
    and runs it; the bot plays its seat there until the match is over.
    True when the program left meanwhile."""
    name, bot = who
    seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id) if bot is not None else None)
    if not ctx.lobby.answer_challenge(challenge, seat):
        link.send({"type": "notice", "text": f"{challenge.challenger.name} is no longer waiting for an answer."})
        return False
    link.send({"type": "notice", "text": f"{challenge.challenger.name} challenges you: accepted."})
    return await _play_seat(link, seat)


async def _play_seat(link: ApiLink, seat: ApiSeat) -> bool:
    """:func:`_seated` at a table between people: a connection that ends
    leaves the seat (the table waits for the bot to log in again, as for
    any registered caller).  True when the program left."""
    try:
        return await _seated(link, seat)
    except HungUp:
        if seat.table is not None:
            seat.table.leave(seat.index)
        raise


async def _play_computer(link: ApiLink, ctx: DoorContext, presence: Presence, who: tuple[str, Account | None],
                         message: dict[str, Any], resume: SavedGame | None = None,
                         daily: tuple[str, SeededShuffle] | None = None) -> bool:
    """One game against the computer at the level and target asked for
    (the house's rules otherwise, and only what the sysop lets callers
    change), or the program's kept game (``resume``), or the day's deal
    (``daily``: the day and its shuffles; under the house rules against
    the day's computer, its result kept for the day's ranking, which is
    sent when it ends; a kept play of today's deal is one too).  An
    account's game is kept move by move, as at a screen.  True when the
    program left."""
    name, bot = who
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
    seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id) if bot is not None else None)
    computer = (daily_opponent(daily[1], ctx.computer_delay, 0.0, 0.0, ctx.thinking) if daily is not None
                else computer_opponent(options, ctx.computer_delay, 0.0, 0.0, ctx.thinking))
    journal = (Journal(ctx.store, bot.id, (name, computer.name), (bot.id, None), Opponent.COMPUTER, warn=seat.notice)
               if bot is not None else None)
    numbers = iter([daily[1]] if daily is not None else [])
    table = Table(rules, [seat, computer], TableSettings(
        lambda: next(numbers, None), journal=journal, auto_deal=True, chat_limit=ctx.paging.chat_limit,
        clock=ctx.store.clock, sealed_until=daily[0] if daily is not None else None))
    ctx.lobby.update(presence, Doing.VS_COMPUTER, table)
    running = asyncio.create_task(table.run(resume))
    try:
        left = await _seated(link, seat)
        await running
    finally:
        if not running.done():
            table.leave(seat.index)
            await asyncio.wait({running}, timeout=5)
        computer.stop()
        seat.table = computer.table = None
        if daily is not None and bot is not None:
            await keep_result(ctx, (bot.id, name), table, daily, _log)
    if daily is not None and bot is not None and not left:
        lines = await ranking_lines(ctx, bot.id, daily[0])
        link.send({"type": "daily", "day": daily[0], "game": daily[1].game, "lines": lines})
    return left
