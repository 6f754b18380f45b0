"""A program's session by the game protocol (``/api/v1/play``): the
server says hello, the program logs in as a guest under a name, then plays
the computer as many games as it likes, and leaves.  Every message it
sends is checked against its schema (:mod:`door.play.api_messages`); a
bad one is answered with an ``error`` naming the field, and the session
goes on."""

from __future__ import annotations

import asyncio
from typing import Any

from door.caller.login import reserved
from door.caller.side import Log
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import PROTOCOL, MessageError, error_message, read_message
from door.play.api_seat import ApiSeat
from door.play.deals import new_seed
from door.play.options import CallerOptions, Skill
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.play.tables import computer_opponent
from door.records.names import clean_name
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.prompts import NAME_LIMIT

__all__ = ["play_by_protocol", "DOOR_NAME"]

DOOR_NAME = "cribbage-door"
"""What the ``hello`` names the server."""


async def _next(link: ApiLink) -> dict[str, Any]:
    """The program's next message that is one; each that is not gets an
    ``error`` (the field, and what was expected).  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends."""
    while True:
        text = await link.receive()
        if text is None:
            continue
        try:
            return read_message(text)
        except MessageError as exc:
            link.send(error_message(exc.field, str(exc)))


async def _log_in(link: ApiLink, ctx: DoorContext) -> str:
    """A guest's name, once the program sent one that may be used."""
    while True:
        message = await _next(link)
        if message["type"] != "login":
            link.send(error_message("type", "log in first: {\"type\": \"login\", \"name\": ...}"))
            continue
        name = clean_name(message["name"])[:NAME_LIMIT]
        if not name or reserved(name, ctx.sysops):
            link.send(error_message("name", "that name is reserved: choose another"))
        elif await ctx.store.accounts.find(name) is not None:
            link.send(error_message("name", "that name is registered: a guest chooses another"))
        else:
            return name


async def play_by_protocol(link: ApiLink, ctx: DoorContext, presence: Presence, log: Log) -> None:
    """The session of one program on ``link``: hello, login, games against
    the computer, until it leaves or the connection ends."""
    try:
        await _session(link, ctx, presence, log)
    except HungUp:
        pass  # the connection ended (or idled out): a guest's game is not kept


async def _session(link: ApiLink, ctx: DoorContext, presence: Presence, log: Log) -> None:
    link.send({"type": "hello", "protocol": PROTOCOL, "door": DOOR_NAME})
    name = await _log_in(link, ctx)
    link.logged_in()
    presence.name = name
    ctx.lobby.update(presence, Doing.LOGGED_IN)
    log.info("program %r logged in by the game protocol (guest)", name)
    link.send({"type": "welcome", "name": name, "guest": True})
    while True:
        message = await _next(link)
        if message["type"] == "leave":
            link.send({"type": "bye", "text": "Thanks for playing cribbage. Goodbye!"})
            await link.drain()
            return
        if message["type"] != "play_computer":
            link.send(error_message("type", "no game is under way: play_computer or leave"))
            continue
        ctx.lobby.update(presence, Doing.MAIN_MENU)
        await _play_computer(link, ctx, presence, name, message)


async def _play_computer(link: ApiLink, ctx: DoorContext, presence: Presence, name: str,
                         message: dict[str, Any]) -> None:
    """One game against the computer at the level and target asked for
    (the house's rules otherwise, and only what the sysop lets callers
    change)."""
    options = CallerOptions()
    if "skill" in message and message["skill"] in ctx.caller.skills:
        options.skill = Skill(message["skill"])
    if "game_to" in message:
        options.rules["game_to"] = message["game_to"]
    rules = options.game_rules(ctx.rules, ctx.caller.may_change)
    seat = ApiSeat(name, link.send, new_seed())
    computer = computer_opponent(options, ctx.computer_delay, 0.0, 0.0, ctx.thinking)
    table = Table(rules, [seat, computer], TableSettings(auto_deal=True, chat_limit=ctx.paging.chat_limit,
                                                         clock=ctx.store.clock))
    ctx.lobby.update(presence, Doing.VS_COMPUTER, table)
    running = asyncio.create_task(table.run())
    try:
        while not seat.over.is_set():
            over = asyncio.create_task(seat.over.wait())
            arrived = asyncio.create_task(_next(link))
            await asyncio.wait({over, arrived}, return_when=asyncio.FIRST_COMPLETED)
            over.cancel()
            if not arrived.done():
                arrived.cancel()
                break
            seat.take(arrived.result())  # (raises HungUp when the connection ended)
        await running
    finally:
        if not running.done():
            table.leave(seat.index)
            await asyncio.wait({running}, timeout=5)
        computer.stop()
        seat.table = computer.table = None
