"""One caller's side of the door: what every screen of a caller's session
works with, held in one object rather than passed from hand to hand
(asyncssh's connection and session objects are the model).

A :class:`CallerSide` is made once per connection, by the session
(:class:`door.caller.session.CallerSession`, which adds the flow from the
welcome screen to goodbye); every screen of ``door/caller`` takes it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from door.caller.identity import Caller
from door.context import DoorContext
from door.net.gate import in_networks
from door.net.terminal import Terminal, TerminalKind
from door.play.deals import new_chain, new_seed
from door.play.human_seat import HumanSeat
from door.play.line_seat import LineSeat
from door.play.options import CallerOptions
from door.records.store import StoreError
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.display import Display, Presentation
from door.ui.line_display import LineDisplay
from engine.shuffle import SeedChain

if TYPE_CHECKING:
    from door.play.table import Seat, Table

__all__ = ["CallerSide", "Log", "NOBODY", "Side", "shared_line"]

Log = logging.Logger | logging.LoggerAdapter[logging.Logger]
"""The session's log (its lines name the connection)."""

NOBODY = Caller("", None)
"""Who is calling before the login says."""


class Side(Protocol):
    """What a flow shared by the screens and the game protocol needs of a
    session: the door's shared ``ctx``, the connection's ``presence`` in
    the lobby and its ``log``, and its ``terminal`` (the address it calls
    from, its kind).  :class:`CallerSide` and
    :class:`~door.caller.program_side.ProgramSide` are both one."""

    @property
    def ctx(self) -> DoorContext: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def log(self) -> Log: ...

    @property
    def terminal(self) -> Terminal: ...


def shared_line(terminal: Terminal, shared: list[str]) -> bool:
    """True when ``terminal`` calls from an address several callers share:
    a BBS's node or door mode, a board of the cribbage hub, or one of
    ``shared`` (addresses and networks the sysop lists)."""
    return (terminal.kind in (TerminalKind.NODE, TerminalKind.RLOGIN, TerminalKind.DOOR)
            or in_networks(terminal.address, shared))


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
    session_seed: str = field(default_factory=new_seed)
    """The caller's player seed for this session's verifiable shuffles
    (64 hex digits from :mod:`secrets`) while they have typed none."""
    seeds: SeedChain = field(default_factory=new_chain)
    """The door's seeds for this call's games, drawn when the call began:
    the next one's commitment is on the options screen before the caller
    sets a seed of their own (:class:`~engine.shuffle.SeedChain`)."""

    @property
    def terminal(self) -> Terminal:
        """The caller's terminal."""
        return self.display.terminal

    @property
    def shared_line(self) -> bool:
        """True when the caller's address is one several callers share: a
        BBS's node or door mode, a board of the cribbage hub, or an address
        the sysop lists (``[server] shared_addresses``, the web page's
        proxies).  The daily deal counts such callers by account only;
        ranked play judges them by other signs than the address."""
        return shared_line(self.terminal, self.ctx.shared)

    def doing(self, what: Doing, table: Table | None = None, whom: str = "", seat: Seat | None = None) -> None:
        """Tell the lobby what the caller is doing now (naming ``whom``, at
        which ``table``, in which ``seat``)."""
        self.ctx.lobby.update(self.presence, what, table, whom, seat)

    def present(self, presentation: Presentation) -> None:
        """Show the door to this caller in ``presentation`` from the next
        screen on: a new display on the same terminal; the
        sysop's console shows the caller's mode."""
        self.options.reader = self.terminal.plain = presentation is Presentation.LINES
        self.presence.presentation = presentation
        if presentation is self.display.presentation:
            return
        painted = self.display.renderer.frames > 0
        self.display.close()
        self.display = LineDisplay(self.terminal) if presentation is Presentation.LINES else Display(self.terminal)
        if presentation is Presentation.LINES:
            if painted:  # after a full screen: plain colours, the cursor shown, a line of its own
                self.terminal.write(b"\x1b[0m\x1b[?25h\r\n")
            self.display.say("Screen-reader mode is on: plain lines only. Ctrl-L says the screen again.")

    def new_seat(self, name: str | None = None, anonymous: bool = False) -> HumanSeat:
        """A seat for this caller at a table, in their presentation (a
        :class:`~door.play.line_seat.LineSeat` in screen-reader mode),
        under ``name`` (default: the caller's), as the presence's identity
        (none when ``anonymous``: a game against the computer, which
        nobody takes back from the lobby)."""
        kind = LineSeat if self.display.lines else HumanSeat
        return kind(self.display, self.caller.name if name is None else name, self.options,
                    self.ctx.paging.chat_limit, identity=None if anonymous else self.presence.identity,
                    hand_pause=self.ctx.caller.hand_pause, session_seed=self.session_seed,
                    thinking=self.ctx.thinking)

    async def remember_options(self) -> None:
        """Keep a registered caller's options (and mode) in their account;
        a store that cannot write keeps them for this call only."""
        if self.caller.account is None:
            return
        try:
            await self.ctx.store.accounts.save_options(self.caller.account.id, self.options.to_dict())
        except StoreError as exc:
            self.log.warning("could not remember the options of %r: %s", self.caller.name, exc)
