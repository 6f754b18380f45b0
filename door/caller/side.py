"""One caller's side of the door: what every screen of a caller's session
works with, held in one object rather than passed from hand to hand
(asyncssh's connection and session objects are the model).

A :class:`CallerSide` is made once per connection, by the session
(:class:`door.caller.session.CallerSession`, which adds the flow from the
welcome screen to goodbye); every screen of ``door/caller`` takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from door.caller.identity import Caller
from door.context import DoorContext
from door.net.gate import in_networks
from door.net.keys import KeyName
from door.net.terminal import HungUp, Terminal, TerminalKind
from door.play.deals import going_on, new_chain, new_seed
from door.play.human_seat import HumanSeat
from door.play.journal import HELD_MESSAGE
from door.play.line_seat import LineSeat
from door.play.options import CallerOptions
from door.play.seat import Watcher
from door.play.spectator import Spectator
from door.records.accounts import Account
from door.records.store import StoreError
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.canvas import Canvas
from door.ui.display import Display, Presentation
from door.ui.line_display import LineDisplay
from door.ui.prompts import NOTE, ask_choice, frame, show_page
from engine.shuffle import SeedChain

if TYPE_CHECKING:
    from door.play.table import Seat, Table

__all__ = ["Asked", "CallerSide", "Log", "NEWS_WAIT", "NOBODY", "Offered", "Reply", "Side", "shared_line"]

NEWS_WAIT = 10.0
"""Seconds a player who left a rated match waits for its result to be
recorded before the menu (the store is slow, or the match goes on)."""

Log = logging.Logger | logging.LoggerAdapter[logging.Logger]
"""The session's log (its lines name the connection)."""

NOBODY = Caller("", None)
"""Who is calling before the login says."""


@dataclass(frozen=True)
class Asked:
    """A question put to someone else (a challenge, a page) as a side
    shows it while it waits: at a screen ``title`` and the ``shown``
    lines (given the seconds left; ``note`` under them), in
    screen-reader mode the ``said`` lines; a program is ``told`` once,
    and any message of its meanwhile is answered ``busy``.  ``seconds()``:
    the seconds left."""

    title: str
    shown: Callable[[int], list[str]]
    said: Callable[[int], list[str]]
    told: Callable[[int], str]
    busy: str
    seconds: Callable[[], int]
    note: str = ""


@dataclass(frozen=True)
class Offered:
    """A question put to this side by ``name`` (a challenge), as a side
    asks it: at a screen, under ``title``, the ``lines()`` (worked out
    once) with the seconds left; a program is sent ``challenged`` with
    ``offer`` (``"a 121-point game, runs in any order"``).  ``seconds()``:
    the seconds left; ``answered``: done once it is no longer asked
    (withdrawn, lapsed, the asker gone)."""

    title: str
    name: str
    lines: Callable[[], list[str]]
    offer: str
    seconds: Callable[[], int]
    answered: asyncio.Future[Any]


class Reply(enum.Enum):
    """A side's answer to an :class:`Offered` question."""

    YES = "yes"
    NO = "no"
    LEFT = "left"
    """No, and the program left (``leave``)."""
    GONE = "gone"
    """No longer asked before an answer (the side told so)."""


class Side(Protocol):
    """What a flow shared by the screens and the game protocol needs of a
    session: the door's shared ``ctx``, the connection's ``presence`` in
    the lobby and its ``log``, its ``terminal`` (the address it calls
    from, its kind), who plays (``name``, ``account``) with the call's
    door ``seeds``; and its presentation: a seat, a page of news, a wait
    on an answer and a game played, each as a screen or as messages; a
    game against the computer's seat and pauses, what is said after it,
    and today's ranking.  :class:`CallerSide` and :class:`~door.caller.program_side.ProgramSide`
    are both one."""

    @property
    def ctx(self) -> DoorContext: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def log(self) -> Log: ...

    @property
    def terminal(self) -> Terminal: ...

    @property
    def name(self) -> str: ...

    @property
    def account(self) -> Account | None: ...

    @property
    def seeds(self) -> SeedChain: ...

    def doing(self, what: Doing, table: Table | None = None, whom: str = "", seat: Seat | None = None) -> None:
        """Tell the lobby what the side is doing now."""

    def new_seat(self, name: str | None = None) -> Seat:
        """A new seat for this side at a table (under ``name``, default its own)."""

    async def tell(self, title: str, lines: Sequence[str], field_name: str = "") -> None:
        """Say ``lines`` (a page titled ``title``; a program's ``notice``, or
        its ``error`` on ``field_name`` when given: a refusal)."""

    async def wait_on(self, task: asyncio.Task[Any], stop: Callable[[], None], asked: Asked) -> bool:
        """Wait for ``task`` (the answer to ``asked``); ``stop()`` withdraws
        the question.  True when a program left meanwhile.  Raises
        :class:`~door.net.terminal.HungUp` (after ``stop()``)."""

    async def play(self, seat: Seat, table: Table | None, doing: Doing, whom: str = "") -> bool:
        """Play at ``seat`` until the table is done with it (``doing``,
        ``whom`` and ``table``, when known, told to the lobby); True when
        a program left meanwhile."""

    async def confirm(self, title: str, lines: Sequence[str], told: str) -> bool:
        """Whether to go on with what waits for the side: asked (a page
        titled ``title``, ``lines`` ending in a Y/N question) at a screen;
        a program, which has no question to answer, goes on at once and is
        ``told`` so (a ``notice``)."""

    async def consider(self, offered: Offered) -> Reply:
        """Ask the side ``offered`` (yes or no within its seconds) and
        return the answer.  Raises :class:`~door.net.terminal.HungUp`
        when the line drops."""

    async def watch(self, table: Table, enter: Callable[[Watcher], contextlib.AbstractContextManager[None]],
                    over: Callable[[], str]) -> bool:
        """Show ``table``'s game to the side, its view on the table while
        ``enter(view)`` holds, until the side stops or ``over()`` says why
        watching ends (a sentence; ``""`` while it goes on).  True when a
        program left.  Raises :class:`~door.net.terminal.HungUp`."""

    def computer_seat(self) -> Seat:
        """A new seat for this side at a table against the computer."""

    @property
    def pauses(self) -> tuple[float, float] | None:
        """The computer's pauses for a person watching the game, in
        seconds: after a pegging score and after a hand that scored (with
        the "pause" pace), a chat before each hand; ``None``: a program,
        played at once with no chat."""

    async def daily_ranking(self, day: str, lines: list[str]) -> None:
        """Show the ranking of ``day``'s deal, worded as ``lines``."""

    async def computer_game_over(self, seat: Seat, table: Table) -> None:
        """Say what the game against the computer at ``table`` left to say
        once it is over (a failed seat, a game the store could not keep)."""


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
    chain: SeedChain = field(default_factory=new_chain)
    """The door's seeds for this call's games, drawn when the call began
    (:attr:`seeds`)."""

    @property
    def seeds(self) -> SeedChain:
        """The door's seeds for this call's next games: the next one's
        commitment is on the options screen before the caller sets a seed
        of their own (:class:`~engine.shuffle.SeedChain`); a new chain once
        a call has used one up (:func:`~door.play.deals.going_on`)."""
        self.chain = going_on(self.chain)
        return self.chain

    @seeds.setter
    def seeds(self, chain: SeedChain) -> None:
        self.chain = chain

    @property
    def terminal(self) -> Terminal:
        """The caller's terminal."""
        return self.display.terminal

    @property
    def name(self) -> str:
        """The caller's name."""
        return self.caller.name

    @property
    def account(self) -> Account | None:
        """The caller's account (``None`` for a guest)."""
        return self.caller.account

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

    async def tell(self, title: str, lines: Sequence[str], field_name: str = "") -> None:
        """Show ``lines`` on a page titled ``title`` until a key."""
        await show_page(self.display, title, list(lines))

    def computer_seat(self) -> HumanSeat:
        """A seat against the computer: one nobody takes back from the lobby (:meth:`new_seat`)."""
        return self.new_seat(anonymous=True)

    @property
    def pauses(self) -> tuple[float, float]:
        """The house's ``pegging_pause`` and ``hand_pause``, seconds."""
        return self.ctx.caller.pegging_pause, self.ctx.caller.hand_pause

    async def daily_ranking(self, day: str, lines: list[str]) -> None:
        """The ranking of ``day``'s deal (``lines``) on a page."""
        self.doing(Doing.DAILY_DEAL)
        await show_page(self.display, "Today's deal", lines)

    async def computer_game_over(self, seat: Seat, table: Table) -> None:
        """A page saying why the seat failed (:attr:`HumanSeat.failure`),
        then one saying the game is kept though the store failed (the
        table's ``ending.held``), when so."""
        failure = seat.failure if isinstance(seat, HumanSeat) else None
        if failure is not None:
            await show_page(self.display, "Sorry", [failure])
        if table.ending.held is not None:
            await show_page(self.display, "Your game is kept", [HELD_MESSAGE])

    async def wait_on(self, task: asyncio.Task[Any], stop: Callable[[], None], asked: Asked) -> bool:
        """Show ``asked`` with its seconds left until ``task`` is done; ESC
        or Q calls ``stop()``.  False (a caller does not leave here)."""
        display = self.display

        def paint(canvas: Canvas) -> None:
            row = frame(canvas, asked.title, asked.shown(asked.seconds()))
            canvas.put(row, 4, asked.note, NOTE)

        display.show(paint, text=lambda: asked.said(asked.seconds()))
        shown = asked.seconds()
        try:
            async for key in display.keys(tick=0.25):  # a quarter second: the answer shows at once
                if task.done():
                    break
                if key is not None and (key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "qQ")):
                    stop()
                elif key is None and asked.seconds() == shown:
                    continue  # nothing new to show
                shown = asked.seconds()
                display.refresh_soon()
        except HungUp:
            stop()
            raise
        return False

    async def consider(self, offered: Offered) -> Reply:
        """The Y/N page of ``offered`` with its seconds left: Y is yes; N,
        Q or ESC no; other keys are told to press Y or N.  The question
        gone meanwhile, the menu says so (:attr:`Presence.messages`)."""
        display, lines, note = self.display, offered.lines(), ""

        def paint(canvas: Canvas) -> None:
            row = frame(canvas, offered.title, [*lines, "", f"Y accepts, N declines.  {offered.seconds()} s left."])
            canvas.put(row, 4, note, NOTE)
            canvas.cursor = None

        display.show(paint, text=lambda: [*lines, f"{offered.seconds()} seconds to answer. Press Y to accept "
                                                   "or N to decline."])
        shown = offered.seconds()
        async for key in display.keys(tick=0.25):
            if offered.answered.done():  # withdrawn, lapsed, or the asker left: back to the menu, which says so
                self.presence.messages.append(f"{offered.name} is no longer waiting for an answer to the challenge.")
                return Reply.GONE
            if key is None:
                if offered.seconds() != shown:
                    shown = offered.seconds()
                    display.refresh_soon()
                continue
            if key.name is KeyName.CHAR and key.char in "yY":
                return Reply.YES
            if (key.name is KeyName.CHAR and key.char in "nNqQ") or key.name is KeyName.ESCAPE:
                return Reply.NO
            note = "Please press Y or N."
            display.answer(note)
            display.refresh_soon()
        return Reply.NO  # (the key loop ends only by raising HungUp)

    async def watch(self, table: Table, enter: Callable[[Watcher], contextlib.AbstractContextManager[None]],
                    over: Callable[[], str]) -> bool:
        """The game on a :class:`~door.play.spectator.Spectator` until ESC
        or Q (other keys told how to stop) or ``over()``, which is then
        shown on a page.  False (a caller does not leave here)."""
        display, why = self.display, ""
        view = Spectator(display, table, prompt="Watching {a} against {b}; the chat is theirs. ESC or Q stops watching.")
        display.show(view.paint, hold=lambda: table.writing,
                     text=lambda: [view.prompt.format(a=table.seats[0].name, b=table.seats[1].name)])
        with enter(view):
            async for key in display.keys(tick=1.0):
                if why := over():
                    break
                if key is None:
                    continue
                if key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "qQ"):
                    break
                told = "You are watching: the chat is the players'. ESC or Q stops watching."
                view.vs.prompt = told  # (on the full screen, the bottom line until the next move)
                display.answer(told)
                display.refresh_soon()
        self.doing(Doing.WATCHED)  # (the console no longer says they watch a game that ended)
        if why:
            await show_page(display, "Watch a game", [why])
        return False

    async def play(self, seat: Seat, table: Table | None, doing: Doing, whom: str = "") -> bool:
        """Play at ``seat`` (a :class:`HumanSeat`) until the table is done
        with it (a dropped line raises :class:`~door.net.terminal.HungUp`
        from the game's key loop); ``doing`` and ``whom`` (and ``table``,
        when known here) go to the lobby.  A rated match's news is shown
        on a page; when the other player left the match, the menu says so
        (the table's ``parting``).  False (a caller does not leave here)."""
        assert isinstance(seat, HumanSeat)
        presence = self.presence
        if table is not None:
            self.doing(doing, table, whom, seat)
        presence.deliver = seat.notice
        try:
            await seat.play()
        finally:
            presence.deliver = None
        played = seat.table or table
        if seat.failure is not None:
            await show_page(self.display, "Sorry", [seat.failure])
        if played is not None and played.rated:
            # the match's end is recorded as the table finishes (a forfeit's just after the leaver's Y): wait for
            # it, then show what it did to the ratings on a page of its own, which waits for a key
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(played.ended.wait(), NEWS_WAIT)
            if played.series.news[seat.index]:
                await show_page(self.display, "Rated match", played.series.news[seat.index])
        elif played is not None and (parting := played.ending.parting.get(seat.index)):
            presence.messages.append(parting)  # the menu says why the game ended (the other player left)
        return False

    async def confirm(self, title: str, lines: Sequence[str], told: str) -> bool:
        """Ask ``lines`` (ending in a Y/N question) on a page titled ``title``: True for Y."""
        return await ask_choice(self.display, title, list(lines), "YN") == "Y"

    async def remember_options(self) -> None:
        """Keep a registered caller's options (and mode) in their account;
        a store that cannot write keeps them for this call only."""
        if self.caller.account is None:
            return
        try:
            await self.ctx.store.accounts.save_options(self.caller.account.id, self.options.to_dict())
        except StoreError as exc:
            self.log.warning("could not remember the options of %r: %s", self.caller.name, exc)
