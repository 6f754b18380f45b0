"""One caller's side of the door: what every screen of a caller's session
works with, held in one object rather than passed from hand to hand
(issue 33.1; asyncssh's connection and session objects are the model).

A :class:`CallerSide` is made once per connection, by the session
(:class:`door.caller.session.CallerSession`, which adds the flow from the
welcome screen to goodbye); every screen of ``door/caller`` takes it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from door.caller.identity import Caller
from door.context import DoorContext
from door.net.terminal import Terminal
from door.play.options import CallerOptions
from door.sysop.doing import Doing
from door.sysop.lobby import Presence
from door.ui.display import Display

if TYPE_CHECKING:
    from door.play.table import Table

__all__ = ["CallerSide", "Log", "NOBODY"]

Log = logging.Logger | logging.LoggerAdapter[logging.Logger]
"""The session's log (its lines name the connection)."""

NOBODY = Caller("", None)
"""Who is calling before the login says."""


@dataclass(eq=False)
class CallerSide:
    """A caller's session as its screens see it: the ``display`` (and its
    terminal), what the server shares (``ctx``: the store, the lobby, the
    house rules), the caller's ``presence`` in the lobby, the session's
    ``log``, who is calling (``caller``, once logged in) and their game
    ``options``."""

    display: Display
    ctx: DoorContext
    presence: Presence
    log: Log
    caller: Caller = NOBODY
    options: CallerOptions = field(default_factory=CallerOptions)

    @property
    def terminal(self) -> Terminal:
        """The caller's terminal."""
        return self.display.terminal

    def doing(self, what: Doing, table: "Table | None" = None, whom: str = "") -> None:
        """Tell the lobby what the caller is doing now (naming ``whom``, at which ``table``)."""
        self.ctx.lobby.update(self.presence, what, table, whom)
