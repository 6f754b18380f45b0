"""A program's session as its flows see it, as
:class:`~door.caller.side.CallerSide` is a caller's: one object holding
the connection, the door's shared context, the presence in the lobby and
who the program is, passed to every flow of the game protocol."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from door.caller.program import Program
from door.caller.side import Asked, Log, Offered, Reply, shared_line
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import Terminal
from door.play.api_messages import error_message
from door.play.api_moves import IDLE_LOOK, next_message, play_seat, while_asked
from door.play.api_records import daily_message
from door.play.api_seat import ApiSeat
from door.play.api_watcher import ApiWatcher
from door.play.deals import going_on
from door.play.seat import Seat, Watcher
from door.play.table import Table
from door.records.accounts import Account
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from engine.shuffle import SeedChain

__all__ = ["ProgramSide"]


@dataclass(eq=False)
class ProgramSide:
    """The ``link`` (the connection, JSON messages each way), the door's
    shared context ``ctx``, the connection's ``presence`` in the lobby,
    its ``log``, and ``who`` the program is once logged in (a nameless
    guest until then)."""

    link: ApiLink
    ctx: DoorContext
    presence: Presence
    log: Log
    who: Program = field(default_factory=lambda: Program(""))

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (one of :mod:`door.play.api_messages`) to the program."""
        self.link.send(message)

    def error(self, field_name: str, text: str) -> None:
        """Answer with an ``error`` on ``field_name`` saying ``text``."""
        self.link.send(error_message(field_name, text))

    def notice(self, text: str) -> None:
        """Tell the program ``text`` (a ``notice``)."""
        self.link.send({"type": "notice", "text": text})

    def doing(self, what: Doing, table: Table | None = None, whom: str = "", seat: Seat | None = None) -> None:
        """Tell the lobby what the program is doing now (naming ``whom``, at
        which ``table``, in which ``seat``)."""
        self.ctx.lobby.update(self.presence, what, table, whom, seat)

    @property
    def name(self) -> str:
        """The program's name."""
        return self.who.name

    @property
    def account(self) -> Account | None:
        """The program's account (``None`` for a guest)."""
        return self.who.account

    @property
    def seeds(self) -> SeedChain:
        """The door's seeds for this connection's next games (a new chain
        once the connection has used one up: :func:`~door.play.deals.going_on`)."""
        self.who.seeds = going_on(self.who.seeds)
        return self.who.seeds

    def new_seat(self, name: str | None = None) -> ApiSeat:
        """A new seat for the program (under ``name``, default its own), sending by this connection."""
        return self.who.seat(self.send, name)

    async def tell(self, title: str, lines: Sequence[str], field_name: str = "") -> None:
        """``lines`` in one ``notice`` (or ``error`` on ``field_name``)."""
        text = " ".join(line for line in lines if line)
        if field_name:
            self.error(field_name, text)
        else:
            self.notice(text)

    async def wait_on(self, task: asyncio.Task[Any], stop: Callable[[], None], asked: Asked) -> bool:
        """Tell the program ``asked``, then wait for ``task`` (:func:`~door.play.api_moves.while_asked`)."""
        self.notice(asked.told(asked.seconds()))
        return await while_asked(self.link, task, stop, asked.busy)

    async def play(self, seat: Seat, table: Table | None, doing: Doing, whom: str = "") -> bool:
        """Play at ``seat`` (:func:`~door.play.api_moves.play_seat`)."""
        assert isinstance(seat, ApiSeat)
        if table is not None:
            self.doing(doing, table, whom, seat)
        return await play_seat(self.link, seat)

    async def confirm(self, title: str, lines: Sequence[str], told: str) -> bool:
        """True: a program goes on at once with what waits for it, ``told`` so (a ``notice``)."""
        self.notice(told)
        return True

    async def consider(self, offered: Offered) -> Reply:
        """A bot says yes at once; another program is sent ``challenged``
        and answers ``accept``, ``decline`` or ``leave`` within the
        seconds (anything else is an ``error``), told when the question is
        gone meanwhile.  A yes is told (a ``notice``)."""
        if not self.who.bot:
            self.send({"type": "challenged", "name": offered.name, "offer": offered.offer,
                       "seconds": offered.seconds()})
            while not offered.answered.done():
                message = await next_message(self.link, IDLE_LOOK)
                if message is not None and message["type"] == "accept":
                    break
                if message is not None and message["type"] in ("decline", "leave"):
                    return Reply.LEFT if message["type"] == "leave" else Reply.NO
                if message is not None:
                    self.error("type", f"{offered.name} challenges you: accept or decline")
            else:
                self.notice(f"{offered.name} is no longer waiting for an answer.")
                return Reply.GONE
        self.notice(f"{offered.name} challenges you: accepted.")
        return Reply.YES

    async def watch(self, table: Table, enter: Callable[[Watcher], AbstractContextManager[None]],
                    over: Callable[[], str]) -> bool:
        """``watching`` (the players, the game's number and scores), each
        move an ``event`` (:class:`~door.play.api_watcher.ApiWatcher`)
        until ``stop`` or ``leave`` (any other message an ``error``) or
        ``over()`` (then a ``notice`` saying why); then ``menu``."""
        assert table.game is not None
        names, left = (table.seats[0].name, table.seats[1].name), False
        self.send({"type": "watching", "players": list(names), "game_to": table.game.rules.game_to,
                   "game": table.game.number, "scores": list(table.game.scores())})
        with enter(ApiWatcher(self.send, names)):
            while not over():
                message = await next_message(self.link, 1.0)
                if message is not None and message["type"] in ("stop", "leave"):
                    left = message["type"] == "leave"
                    break
                if message is not None:
                    self.error("type", "you are watching (the chat is the players'): stop, or leave")
        if not left and (why := over()):
            self.notice(why)  # (the game is over, or the players no longer take watchers)
        self.send({"type": "menu"})
        return left

    def computer_seat(self) -> ApiSeat:
        """A seat against the computer (:meth:`new_seat`)."""
        return self.new_seat()

    @property
    def pauses(self) -> None:
        """None: a program is played at once, with no chat before a hand."""
        return None

    async def daily_ranking(self, day: str, lines: list[str]) -> None:
        """The ``daily`` message of ``day`` (``lines``, and the ranking as data)."""
        account = self.who.account
        assert account is not None
        self.send(await daily_message(self.ctx.store.daily, account.id, day, lines))

    async def computer_game_over(self, seat: Seat, table: Table) -> None:
        """Nothing: the table told the program as it happened."""

    @property
    def terminal(self) -> Terminal:
        """The program's connection, as a terminal (its address, its kind)."""
        return self.link

    @property
    def shared_line(self) -> bool:
        """True when the program calls from an address several callers
        share (:func:`~door.caller.side.shared_line`)."""
        return shared_line(self.link, self.ctx.shared)
