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

from door.caller.api_account import change_password, register
from door.caller.api_challenges import accept, answer, lobby_message, page_sysop, send_challenge
from door.caller.api_play import (
    IDLE_LOOK,
    at_table,
    next_message,
    play_computer,
    play_daily,
    play_seat,
    ratings_message,
    review_message,
    stats_message,
)
from door.caller.api_watching import watch_game
from door.caller.login import reserved
from door.caller.program import Program
from door.caller.side import Log
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.logs import ACCOUNT
from door.net.metrics import refused
from door.net.terminal import HungUp
from door.play.api_messages import PROTOCOL, error_message
from door.play.parked import new_token
from door.records.games import Opponent
from door.records.names import clean_name
from door.records.passwords import decoy_hash
from door.sysop.doing import Doing
from door.sysop.presence import Presence, account_identity
from door.ui.prompts import NAME_LIMIT

__all__ = ["play_by_protocol", "DOOR_NAME", "LOGIN_MISS"]

DOOR_NAME = "cribbage-door"
"""What the ``hello`` names the server."""

LOGIN_MISS = "no caller by that name has that password"
"""The one answer to a ``login`` with a password that does not log in: a
wrong password and a name nobody registered are not told apart."""


async def _log_in(link: ApiLink, ctx: DoorContext) -> Program:
    """Who the program is: a bot's name and account (its token checked),
    a registered caller's (their password checked, within the same limits
    on wrong passwords as at the name prompt:
    :class:`~door.records.throttle.LoginThrottle`), or a guest's name and
    ``None``; whether it is a bot; and a guest's resume token, if the
    login gave one."""
    while True:
        message = await next_message(link)
        assert message is not None
        if message["type"] != "login":
            link.send(error_message("type", "log in first: {\"type\": \"login\", \"name\": ...}"))
            continue
        name = clean_name(message["name"])[:NAME_LIMIT]
        if "password" in message and "token" not in message:
            account = await ctx.store.accounts.find(name)
            if account is not None and await ctx.store.bots.is_bot(account.id):
                account = None  # (a bot logs in with its token only)
            # an unknown name is checked against a decoy and answered as a wrong password: one answer, one
            # wait (and the name as typed in every answer, never the account's own spelling)
            stored = (await ctx.store.accounts.password_hash(account.id) if account else "") or await decoy_hash()
            verdict = await ctx.throttle.check(name, link.address, "protocol", message["password"], stored)
            if verdict.ok and account is not None and "new_password" in message:  # changed as the caller logs in
                refused_why = await change_password(ctx, account, message["new_password"])
                if refused_why is not None:
                    link.send(error_message("new_password", refused_why))
                    continue
                link.send({"type": "notice", "text": "Your password is changed."})
            if verdict.ok and account is not None:
                return Program(account.name, account)
            if verdict.refused is None:
                await asyncio.sleep(verdict.delay)
            link.send(error_message("password", verdict.refused or LOGIN_MISS))
            continue
        if "token" in message:
            bot = await ctx.store.bots.log_in(name, message["token"])
            if bot is None:
                await asyncio.sleep(1.0)  # (a guess costs a second)
                link.send(error_message("token", "no bot by that name has that token"))
                continue
            return Program(bot.name, bot, bot=True)
        if not name or reserved(name, ctx.sysops):
            link.send(error_message("name", "that name is reserved: choose another"))
        elif await ctx.store.accounts.find(name) is not None:  # (counted: one address cannot list the names)
            verdict = ctx.throttle.miss(name, link.address, "protocol", "a guest asked for a registered name")
            if verdict.refused is None:
                await asyncio.sleep(verdict.delay)
            link.send(error_message("name", verdict.refused or "that name is registered: a guest chooses another"))
        else:
            return Program(name, resume=message.get("resume"))


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
    who = await _log_in(link, ctx)
    name, bot, is_bot = who.name, who.account, who.bot
    banned = ctx.bans.account(name) if ctx.bans is not None and bot is not None else None
    if banned is not None:
        log.warning("program refused: account %r is banned", name)
        refused("banned")
        link.send({"type": "bye", "text": f"Sorry, {banned}"})
        return
    if bot is not None and not await ctx.lobby.take_over(presence, account_identity(bot.id)):
        link.send({"type": "bye", "text": f"{name} is on line on another connection that does not answer."})
        return
    link.logged_in()
    presence.name, presence.bot = name, is_bot
    ACCOUNT.set(name)
    ctx.lobby.update(presence, Doing.LOGGED_IN)
    log.info("program %r logged in by the game protocol (%s)", name,
             "a bot" if is_bot else "a registered caller" if bot else "a guest")
    parked = ctx.parked.claim(who.resume, name) if who.resume is not None else None
    welcome = {"type": "welcome", "name": name, "guest": bot is None, "bot": is_bot, "seed": who.seed,
               "commitment": who.seeds.next_commitment}
    if bot is None:  # a guest's token: their game against the computer is kept while the line is down
        who.resume = who.resume if parked is not None else new_token()
        welcome["resume"] = who.resume
    link.send(welcome)
    if parked is not None:
        assert parked.table.game is not None
        link.send({"type": "notice", "text": f"Your game #{parked.table.game.number} against the computer goes on."})
        ctx.lobby.update(presence, Doing.VS_COMPUTER, parked.table, seat=parked.seat)
        parked.seat.redirect(link.send)
        parked.seat.notify(parked.table.game, [])
        if await at_table(link, ctx, presence, parked, who.resume):
            return await _goodbye(link)
    if bot is not None and (waiting := ctx.lobby.waiting_table(account_identity(bot.id))) is not None:
        table, index = waiting  # its line dropped in a game against a person, who waits for it: back to it
        seat = who.seat(link.send)
        link.send({"type": "notice", "text": f"Your game against {table.seats[1 - index].name} goes on."})
        ctx.lobby.update(presence, Doing.VS_CALLER, table, table.seats[1 - index].name, seat)
        table.rejoin(index, seat)
        if await play_seat(link, seat):
            return await _goodbye(link)
    if bot is not None:
        saved = await ctx.store.saved.load(bot.id)
        if saved is not None and saved.opponent == Opponent.COMPUTER:
            link.send({"type": "notice", "text": f"Your game #{saved.number} against the computer goes on."})
            if await play_computer(link, ctx, presence, who, {"type": "play_computer"}, saved):
                return await _goodbye(link)
    available = is_bot  # (a bot may be challenged, and accepts by itself; another program when it says so)
    while True:
        ctx.lobby.update(presence, Doing.MAIN_MENU)
        ctx.lobby.at_menu(presence, available)
        message = await next_message(link, IDLE_LOOK if available else None)
        if message is None:
            challenge = ctx.lobby.challenge_for(presence)
            if challenge is not None:
                ctx.lobby.at_menu(presence, False)
                if await (accept if is_bot else answer)(link, ctx, who, challenge):
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
            link.send(lobby_message(ctx, presence))
            continue
        if message["type"] == "seed":
            who.set_seed(message["seed"])
            link.send({"type": "seed", "seed": who.seed, "commitment": who.seeds.next_commitment})
            continue
        if message["type"] == "stats":
            link.send(await stats_message(ctx, bot))
            continue
        if message["type"] == "ratings":
            link.send(await ratings_message(ctx))
            continue
        if message["type"] == "register":  # a guest registers the name it plays under
            if bot is not None:
                link.send(error_message("type", "you are registered already"))
            elif (account := await register(link, ctx, name, message)) is not None:
                who.account = bot = account  # (its games are kept from now on, as a registered caller's)
            continue
        if message["type"] == "review":
            link.send(await review_message(ctx, bot, log))
            continue
        if message["type"] == "daily":
            if await play_daily(link, ctx, presence, who, log):
                return await _goodbye(link)
            continue
        if message["type"] == "watch":
            if await watch_game(link, ctx, presence, message):
                return await _goodbye(link)
            continue
        if message["type"] == "page":
            if await page_sysop(link, ctx, presence, who, message, log):
                return await _goodbye(link)
            continue
        if message["type"] == "challenge":
            ctx.lobby.at_menu(presence, False)
            if await send_challenge(link, ctx, presence, who, message, log):
                return await _goodbye(link)
            continue
        if message["type"] != "play_computer":
            link.send(error_message("type", "no game is under way: play_computer, daily, lobby, challenge, page, "
                                            "watch, seed, ratings, review, stats, register or leave"))
            continue
        ctx.lobby.at_menu(presence, False)
        if await play_computer(link, ctx, presence, who, message):
            return await _goodbye(link)


async def _goodbye(link: ApiLink) -> None:
    link.send({"type": "bye", "text": "Thanks for playing cribbage. Goodbye!"})
    await link.drain()
