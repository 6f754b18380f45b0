"""A program's session as its flows see it, as
:class:`~door.caller.side.CallerSide` is a caller's: one object holding
the connection, the door's shared context, the presence in the lobby and
who the program is, passed to every flow of the game protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from door.caller.program import Program
from door.caller.side import Log, shared_line
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import Terminal
from door.play.api_messages import error_message
from door.play.seat import Seat
from door.play.table import Table
from door.sysop.doing import Doing
from door.sysop.presence import Presence

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
    def terminal(self) -> Terminal:
        """The program's connection, as a terminal (its address, its kind)."""
        return self.link

    @property
    def shared_line(self) -> bool:
        """True when the program calls from an address several callers
        share (:func:`~door.caller.side.shared_line`)."""
        return shared_line(self.link, self.ctx.shared)
