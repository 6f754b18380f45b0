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
from collections.abc import Awaitable, Callable
from typing import Any

from door.caller.admission import admit, release, take_session
from door.caller.api_account import as_error, register, review
from door.caller.api_challenges import answer, challenge, lobby_message, page
from door.caller.api_correspondence import answer_offer, away, make_offer, open_by_protocol, send_games
from door.caller.api_play import at_table, play_computer, play_daily
from door.caller.api_tournaments import entry, send_tournaments, standings
from door.caller.api_watching import watch_game
from door.caller.kept import back_to_waiting_table, to_go_on
from door.caller.login import name_refused, password_login
from door.caller.program import Program
from door.caller.program_side import ProgramSide
from door.caller.registering import change_password
from door.caller.side import Log
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import PROTOCOL
from door.play.api_moves import IDLE_LOOK, next_message
from door.play.api_records import ratings_message, stats_message
from door.play.parked import new_token
from door.records.game_kinds import GameKind
from door.records.names import clean_name
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.prompts import NAME_LIMIT

__all__ = ["ProgramSession", "DOOR_NAME"]

DOOR_NAME = "cribbage-door"
"""What the ``hello`` names the server."""


async def _log_in(side: ProgramSide) -> Program:
    """Who the program is: a bot (its token checked), a registered caller
    (their password checked, within the same limits on wrong passwords
    as at the name prompt: :func:`~door.caller.login.checked_password`),
    or a guest under a name (with the resume token its login gave, if
    any).  Each login that is not one is answered with an ``error`` and
    the program may try again."""
    while True:
        message = await next_message(side.link)
        assert message is not None
        if message["type"] != "login":
            side.error("type", "log in first: {\"type\": \"login\", \"name\": ...}")
            continue
        name = clean_name(message["name"])[:NAME_LIMIT]
        if "token" in message:
            who = await _token_login(side, name, message["token"])
        elif "password" in message:
            who = await _password_login(side, name, message)
        else:
            who = await _guest_login(side, name, message)
        if who is not None:
            return who


async def _password_login(side: ProgramSide, name: str, message: dict[str, Any]) -> Program | None:
    """A registered caller's login, as at the login screen
    (:func:`~door.caller.login.password_login`), with a new password
    when asked; ``None`` after an ``error`` saying why not."""
    account = await password_login(side, name, message["password"])
    if isinstance(account, str):
        side.error("password", as_error(account))
        return None
    if "new_password" in message:  # changed as the caller logs in
        if (refused_why := await change_password(side, account, message["new_password"])) is not None:
            side.error("new_password", as_error(refused_why))
            return None
        side.notice("Your password is changed.")
    return Program(account.name, account)


async def _token_login(side: ProgramSide, name: str, token: str) -> Program | None:
    """A bot's login by its token, or ``None`` (a guess costs a second)."""
    bot = await side.ctx.store.bots.log_in(name, token)
    if bot is None:
        await asyncio.sleep(1.0)
        side.error("token", "no bot by that name has that token")
        return None
    return Program(bot.name, bot, bot=True)


async def _guest_login(side: ProgramSide, name: str, message: dict[str, Any]) -> Program | None:
    """A guest under ``name``, or ``None`` for a name nobody may take
    (:func:`~door.caller.login.name_refused`) or a registered one (asking
    for a registered one is counted as a wrong password is: one address
    cannot list the names)."""
    ctx = side.ctx
    if (refused_why := name_refused(name, ctx.sysops)) is not None:
        side.error("name", as_error(refused_why))
        return None
    if await ctx.store.accounts.find(name) is not None:
        verdict = ctx.throttle.miss(name, side.link.address, "api", "a guest asked for a registered name")
        if verdict.refused is None:
            await asyncio.sleep(verdict.delay)
        side.error("name", verdict.refused or "that name is registered: a guest chooses another")
        return None
    return Program(name, resume=message.get("resume"))


Handler = Callable[["ProgramSession", dict[str, Any]], Awaitable[bool]]
"""What a program's message at the menu does: True when the program left."""


def _sends(make: Callable[[ProgramSession], Awaitable[dict[str, Any]]]) -> Handler:
    """A handler that answers with the message ``make`` makes."""
    async def handler(side: ProgramSession, message: dict[str, Any]) -> bool:
        side.send(await make(side))
        return False
    return handler


async def _available(side: ProgramSession, message: dict[str, Any]) -> bool:
    side.available = side.who.bot or message["on"]
    side.notice("You are at the menu: the door's callers may challenge you." if side.available
                else "You are no longer listed to be challenged.")
    return False


async def _seed(side: ProgramSession, message: dict[str, Any]) -> bool:
    side.send({"type": "seed", "seed": side.who.set_seed(message["seed"]), "commitment": side.seeds.next_commitment})
    return False


async def _left(side: ProgramSession, message: dict[str, Any]) -> bool:
    return True


def _busy(handler: Handler) -> Handler:
    """``handler`` of a message that takes the program from the menu (to
    a game, a question, a game watched): the program is no longer listed
    to be challenged meanwhile, as a caller who leaves the menu is not
    (the menu lists it again when it is back)."""
    async def away(side: ProgramSession, message: dict[str, Any]) -> bool:
        side.ctx.lobby.at_menu(side.presence, False)
        return await handler(side, message)
    return away


MENU: dict[str, Handler] = {
    "leave": _left, "available": _available, "seed": _seed, "lobby": _sends(lobby_message),
    "stats": _sends(lambda side: stats_message(side.ctx.store, side.who.account)),
    "ratings": _sends(lambda side: ratings_message(side.ctx.store)),
    "register": register, "review": review, "daily": _busy(lambda side, m: play_daily(side)),
    "watch": _busy(watch_game), "page": _busy(page), "challenge": _busy(challenge),
    "play_computer": _busy(play_computer),
    "games": send_games, "open": _busy(open_by_protocol), "offer": make_offer, "answer": _busy(answer_offer),
    "away": away,
    "tournaments": send_tournaments, "enter": entry, "withdraw": entry, "standings": standings,
}
"""The protocol's menu, as the screens' (:mod:`door.caller.menu`): a
program's message type at the menu to its handler.  Each message was
checked against its schema already (:mod:`door.play.api_messages`)."""


class ProgramSession(ProgramSide):
    """One program's session by the game protocol, as the caller's side
    has one (:class:`~door.caller.session.CallerSession`): a
    :class:`~door.caller.program_side.ProgramSide` (the ``link``, the
    door's shared context, the connection's ``presence`` and ``log``,
    and who the program is once it logged in, :attr:`who`) with its flow:
    at the menu each message goes to its handler (:data:`MENU`)."""

    def __init__(self, link: ApiLink, ctx: DoorContext, presence: Presence, log: Log) -> None:
        super().__init__(link, ctx, presence, log)
        self.available = False
        """True while the program may be challenged at the menu (a bot always)."""

    async def run(self) -> None:
        """Hello, login, what waits for the program, then the menu until
        it leaves or the connection ends (a bot's game is kept, a guest's
        parked for the rejoin time)."""
        try:
            if await self._session():
                await _goodbye(self.link)
        except HungUp:
            pass  # the connection ended (or idled out)
        finally:
            self.ctx.lobby.at_menu(self.presence, False)
            self.presence.your_move = self.presence.deliver = None
            await release(self)  # (as at the screens: after the games it left going on here end)

    async def _session(self) -> bool:
        """True when the program left (``bye`` is said then)."""
        self.link.send({"type": "hello", "protocol": PROTOCOL, "door": DOOR_NAME})
        self.who = await _log_in(self)
        if not await self._admitted():
            return False
        if await self._back_to_its_games():
            return True
        self.available = self.who.bot  # (a bot may be challenged, and accepts by itself; another program says so)
        while not await self._at_the_menu():
            pass
        return True

    async def _admitted(self) -> bool:
        """The program is let in as a caller is
        (:func:`~door.caller.admission.admit`: the account's one session
        across the nodes, an older one here or at another node closed:
        :func:`~door.caller.admission.take_session`), and from then on
        told when a game by correspondence comes to wait on its move
        (``your_move``); False when it is turned away (``bye`` said)."""
        self.presence.bot = self.who.bot
        turned = await admit(self, lambda account: take_session(self, account))
        if turned is not None:
            self.link.send({"type": "bye", "text": turned.text})
            return False
        self.presence.your_move = lambda game, other: self.send({"type": "your_move", "game": game, "name": other})
        self.presence.deliver = self.notice  # (what the door tells it at any moment, the sysop's messages among it)
        self.log.info("program %r logged in by the game protocol (%s)", self.who.name,
                      "a bot" if self.who.bot else "a registered caller" if self.who.account else "a guest")
        return True

    async def _back_to_its_games(self) -> bool:
        """Welcome the program, and take it back to a game that waits for
        it, as the screens do after the login (:mod:`door.caller.kept`): a
        guest's parked game, a game against a person that waits for its
        dropped line, or its kept game against the computer.  True when
        the program left."""
        ctx, who = self.ctx, self.who
        parked = ctx.parked.claim(who.resume, who.name) if who.resume is not None else None
        welcome = {"type": "welcome", "name": who.name, "guest": who.account is None, "bot": who.bot,
                   "seed": who.seed, "commitment": self.seeds.next_commitment}
        if who.account is None:  # a guest's token: their game against the computer is kept while the line is down
            who.resume = welcome["resume"] = who.resume if parked is not None else new_token()
        self.send(welcome)
        if parked is not None:
            assert parked.table.game is not None
            self.notice(f"Your game #{parked.table.game.number} against the computer goes on.")
            self.doing(Doing.VS_COMPUTER, parked.table, seat=parked.seat)
            parked.seat.redirect(self.send)
            parked.seat.notify(parked.table.game, [])
            if await at_table(self, parked, who.resume):
                return True
        if await back_to_waiting_table(self):
            return True
        going_on = await to_go_on(self, (GameKind.COMPUTER, GameKind.DAILY))
        return going_on is not None and await play_computer(self, {"type": "play_computer"}, going_on[1])

    async def _at_the_menu(self) -> bool:
        """One message at the menu (or, for a program that may be
        challenged, a challenge answered); True when the program left."""
        ctx, presence = self.ctx, self.presence
        self.doing(Doing.MAIN_MENU)
        ctx.lobby.at_menu(presence, self.available)
        message = await next_message(self.link, IDLE_LOOK if self.available else None)
        if message is None:
            asked = ctx.lobby.challenge_for(presence)
            if asked is None:
                return False
            ctx.lobby.at_menu(presence, False)
            return await answer(self, asked)
        handler = MENU.get(message["type"])
        if handler is None:
            self.error("type", "no game is under way: " + ", ".join(sorted(MENU)))
            return False
        return await handler(self, message)


async def _goodbye(link: ApiLink) -> None:
    link.send({"type": "bye", "text": "Thanks for playing cribbage. Goodbye!"})
    await link.drain()
