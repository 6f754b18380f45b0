"""The sysop console: who is on line, pages, games in progress, and playing
the callers (the original door: the caller is player 1, the sysop player 2).

The same console runs over SSH (a sysop's login) and on the local Unix
socket (``cribbage-door console``).  What it shows is painted by
:mod:`door.sysop.console_screen`; what its keys mean is
:mod:`door.sysop.console_keys`; this carries them out.  Keys:

    Up/Down  select a caller        Y  accept the page (selected, or oldest)
    N        decline the page       W  watch the selected caller's game
    M        message the caller     K  disconnect the caller (asks first)
    A        available / away       R  resume a game that waits for you
    B        ban the caller         C  open a club night
    T        the tournaments' rounds (who is late; extend, adjudicate, replace)
    Q        leave the console      Ctrl-L  redraw
"""

from __future__ import annotations

import asyncio
import logging
import time

from door.net.ansi import CLEAR
from door.net.keys import Key
from door.net.terminal import HungUp, Terminal
from door.play.human_seat import HumanSeat
from door.play.spectator import Spectator
from door.records.nodes import Present
from door.records.tournaments.repository import Tournaments
from door.sysop.club_night import ClubNight, Night
from door.sysop.console_keys import (
    AnswerPage,
    Ban,
    ConsoleKeys,
    Disconnect,
    Intent,
    LeaveConsole,
    OpenClub,
    Resume,
    SendMessage,
    ShowRounds,
    StopWatching,
    ToggleAvailable,
    Watch,
    handle_key,
)
from door.sysop.console_rounds import RoundsView
from door.sysop.console_screen import ConsoleShown, paint_console, paint_waiting
from door.sysop.doing import Doing
from door.sysop.lobby import Lobby
from door.sysop.presence import Invitation, Page, Presence, sysop_identity
from door.ui.canvas import Canvas
from door.ui.display import Display
from door.ui.words import strip_controls

__all__ = ["SysopConsole", "sysop_session", "KICKED"]

log = logging.getLogger(__name__)

KICKED = "The sysop has ended your call. Goodbye."
"""What a caller whose call the sysop ends is told (at this node or another)."""


class SysopConsole:
    """One sysop's console on ``display``; ``name`` is the sysop's;
    ``tournaments``: the store's, for the rounds' view (``None``: T says
    there are none)."""

    def __init__(self, display: Display, lobby: Lobby, name: str, presence: Presence,
                 tournaments: Tournaments | None = None) -> None:
        self.display = display
        self.lobby = lobby
        self.name = name
        self.presence = presence
        self.available = True
        self.busy = False
        self.keys = ConsoleKeys()
        """What the keys have set (the selected caller, a message being typed, a question)."""
        self.events: list[str] = []
        self.spectator: Spectator | None = None
        self.tournaments = tournaments
        self.rounds: RoundsView | None = None
        """The tournaments' rounds while they are on screen (T)."""

    # -- the lobby's side --------------------------------------------------------

    def lobby_changed(self) -> None:
        if not self.busy:
            self.display.refresh_soon()

    def ring(self, page: Page) -> None:
        self.say(f"PAGE from {page.presence.name}: {page.reason or '(no reason given)'}")
        self.display.terminal.write(b"\x07")
        if not self.busy:
            self.display.refresh_soon()

    def say(self, line: str) -> None:
        """An event line, timed."""
        self.events.append(time.strftime("%H:%M ") + line)
        del self.events[:-50]

    # -- the screen -----------------------------------------------------------------

    def callers(self) -> list[Presence]:
        return self.lobby.callers()

    def paint(self, canvas: Canvas) -> None:
        """The console on ``canvas`` (:func:`~door.sysop.console_screen.paint_console`);
        the selected row is kept among those listed."""
        callers, elsewhere = self.callers(), self.lobby.elsewhere
        self.keys.selected = min(self.keys.selected, max(0, len(callers) + len(self._elsewhere()) - 1))
        waiting = self.lobby.waiting_table(sysop_identity(self.name))
        paint_console(canvas, ConsoleShown(self.name, self.available, callers, elsewhere, self.lobby.pages,
                                           waiting[0].seats[1 - waiting[1]].name if waiting is not None else None,
                                           self.events, self.keys))

    # -- the keys -----------------------------------------------------------------

    async def run(self) -> None:
        """The console's loop, until the sysop leaves or hangs up."""
        self.display.show(self.paint)
        async for key in self.display.keys(tick=1.0):
            if key is None:
                if self.spectator is not None and self.spectator.table.ended.is_set():
                    self._stop_watching("the game you watched has ended")
                elif self.spectator is None or self.lobby.pages:
                    if self.rounds is not None:
                        await self.rounds.freshen()  # (the rounds read again now and then)
                    self.display.refresh_soon()  # idle times, page countdowns
            elif not await self.handle(key):
                return

    async def handle(self, key: Key) -> bool:
        """React to one key (:func:`~door.sysop.console_keys.handle_key`
        says what to do; this carries it out); False when the sysop leaves
        the console."""
        if self.rounds is not None:
            return await self._rounds_key(key)
        target = self._target()
        intents = handle_key(self.keys, key, len(self.callers()) + len(self._elsewhere()),
                             target.name if target is not None else None,
                             watching=self.spectator is not None, chat_limit=self.lobby.paging.chat_limit)
        for intent in intents:
            if isinstance(intent, LeaveConsole):
                return False
            await self._carry_out(intent, target)
        if self.spectator is None:
            self.display.refresh_soon()
        return True

    async def _carry_out(self, intent: Intent, target: Presence | Present | None) -> None:
        """Do what ``intent`` asks, to the selected caller ``target`` (this
        node's, another node's, or nobody)."""
        if isinstance(intent, Ban) and target is not None:
            return await self._ban(intent.reason, target)
        if isinstance(target, Present):  # somebody at another node: K reaches them, by the node link
            return await self._carry_out_elsewhere(intent, target)
        if isinstance(intent, StopWatching) and self.spectator is not None:
            self._stop_watching()
        elif isinstance(intent, Disconnect) and target is not None:
            # no waiting for a caller who does not read: close() gives the
            # farewell a moment to go out, then aborts
            self.lobby.end_call(target, KICKED)
            self.say(f"disconnected {target.name or target.terminal.peer}")
        elif isinstance(intent, SendMessage):
            text = strip_controls(intent.text, self.lobby.paging.chat_limit)
            if target is not None and text:
                self.lobby.message(target, text)
                self.say(f"to {target.name}: {text}")
        elif isinstance(intent, ToggleAvailable):
            self.available = not self.available
            self.say("you are " + ("available" if self.available else "away"))
            self.lobby.changed()
        elif isinstance(intent, AnswerPage):
            await self._answer(intent.accept)
        elif isinstance(intent, Watch):
            self._watch()
        elif isinstance(intent, Resume):
            await self._resume()
        elif isinstance(intent, OpenClub):
            self.say(self._open_club(intent.text))
        elif isinstance(intent, ShowRounds):
            await self._show_rounds()

    async def _show_rounds(self) -> None:
        """T: the running tournaments' rounds on screen."""
        if self.tournaments is None:
            return self.say("no tournaments are kept here")
        self.rounds = RoundsView(self.tournaments, banner=self._page_banner)
        await self.rounds.load()
        self.display.show(self.rounds.paint)

    async def _rounds_key(self, key: Key) -> bool:
        """A key while the rounds are on screen: theirs; ESC back to the console."""
        assert self.rounds is not None
        stays, said = await self.rounds.key(key)
        if said:
            self.say(said)
        if not stays:
            self.rounds = None
            self.display.show(self.paint)
        self.display.refresh_soon()
        return True

    async def _carry_out_elsewhere(self, intent: Intent, person: Present) -> None:
        """``intent`` with a caller at another node selected: K ends their
        call (by the node link), a message or a watch cannot reach them,
        the rest is done as with nobody selected."""
        if isinstance(intent, Disconnect):
            return await self._kick_elsewhere(person)
        if isinstance(intent, (SendMessage, Watch)):
            return self.say(f"{person.name} is on node {person.node_id}: only K reaches them from here")
        await self._carry_out(intent, None)

    async def _answer(self, accept: bool) -> None:
        """Accept or decline the page (the selected caller's, or the oldest)."""
        page = self._page()
        if page is None:
            self.say("no page is waiting")
        elif not accept:
            self.lobby.answer(page, None)
            self.say(f"declined the page of {page.presence.name}")
        else:
            await self._accept(page)

    def _stop_watching(self, why: str = "") -> None:
        """Back from watching a game to the console (``why``: said there)."""
        if self.spectator is None:
            return
        if self.spectator in self.spectator.table.watchers:
            self.spectator.table.watchers.remove(self.spectator)
        self.spectator = None
        if why:
            self.say(why)
        self.display.show(self.paint)
        self.lobby.changed()

    def _open_club(self, text: str) -> str:
        """Open a club night from what the sysop typed ("9 15": 9 games,
        starting in 15 minutes), or start the open one now (nothing typed,
        or "now"); returns what the console says."""
        lobby = self.lobby
        if isinstance(lobby.club, ClubNight) and lobby.club.state is Night.OPEN and text.strip().lower() in ("", "now"):
            lobby.club.start_now()
            return f"club night starting now: {len(lobby.club.entrants)} players"
        if isinstance(lobby.club, ClubNight) and lobby.club.state is not Night.OVER:
            return f"a club night is on already ({lobby.club.words()}; C and RETURN alone starts it now)"
        parts = text.split()
        try:
            games, minutes = int(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0
        except (IndexError, ValueError):
            return "club night: type the games and the minutes to the start, e.g. 9 15"
        if not 1 <= games <= 20 or not 0 <= minutes <= 24 * 60 or lobby.club_maker is None:
            return "club night: 1 to 20 games, starting within a day"
        night = lobby.club_maker(games, minutes)
        assert isinstance(night, ClubNight)
        lobby.club = night
        night.on_end.append(lobby.changed)
        night.start()
        lobby.changed()
        return f"club night opened: {night.words()}"

    def _elsewhere(self) -> list[Present]:
        """The callers on line at the other nodes (selectable after this node's own)."""
        return [person for person in self.lobby.elsewhere if not person.sysop]

    def _target(self) -> Presence | Present | None:
        targets: list[Presence | Present] = [*self.callers(), *self._elsewhere()]
        return targets[self.keys.selected] if 0 <= self.keys.selected < len(targets) else None

    async def _ban(self, reason: str, target: Presence | Present) -> None:
        """Ban ``target`` on every node: their account, or a guest's address."""
        ban = self.lobby.ban
        if ban is None:
            return self.say("bans are not kept here")
        guest = isinstance(target, Presence) and (target.identity is None or target.identity.account is None)
        what = target.terminal.address if isinstance(target, Presence) and guest else target.name
        self.say(await ban(what, reason, self.name))

    async def _kick_elsewhere(self, person: Present) -> None:
        """End the call of ``person`` at another node, by the node link."""
        kick = self.lobby.kick_elsewhere
        done = await kick(person, self.name) if kick is not None else None
        self.say(f"disconnected {person.name} on node {person.node_id}" if done else
                 f"{person.name} was no longer on node {person.node_id}" if done is False else
                 f"node {person.node_id} did not answer: {person.name} is still on line there")

    def _page(self) -> Page | None:
        pages = self.lobby.pages
        target = self._target()
        for page in pages:
            if page.presence is target:
                return page
        return pages[0] if pages else None

    def _page_banner(self) -> str:
        """A page that rings while the sysop watches a game or the
        tournaments' rounds: shown across that screen (the bell alone let
        pages time out)."""
        if not self.lobby.pages:
            return ""
        page = self.lobby.pages[0]
        return (f"PAGE from {page.presence.name} ({page.seconds_left} s): {page.reason or '(no reason)'}"
                " - ESC, then Y accepts")

    def _watch(self) -> None:
        target = self._target()
        if not isinstance(target, Presence) or target.table is None or target.table.game is None:
            self.say("the selected caller is not in a game")
            return
        table = target.table
        self.spectator = Spectator(self.display, table, banner=self._page_banner)
        table.watchers.append(self.spectator)
        self.display.show(self.spectator.paint, hold=lambda: table.writing)

    async def _accept(self, page: Page) -> None:
        """Accept ``page`` and play the caller (the caller's session sets
        up the table and hands this console its seat)."""
        loop = asyncio.get_running_loop()
        handoff: asyncio.Future[HumanSeat | None] = loop.create_future()
        if not self.lobby.answer(page, Invitation(self, handoff)):
            self.say("that page is no longer ringing")
            return
        self.busy = True
        caller = page.presence.name
        self.say(f"accepted the page of {caller}")

        self.display.show(lambda canvas: paint_waiting(canvas, caller))
        try:
            seat = await asyncio.wait_for(handoff, 300)
        except TimeoutError:
            seat = None
        if seat is not None:
            self.lobby.update(self.presence, Doing.VS_CALLER, seat.table, caller, seat)
            await seat.play()
            self._after_game(seat)
            self.lobby.update(self.presence, Doing.CONSOLE)
        else:
            self.say(f"{caller} did not start the game")
        self.busy = False
        self.display.show(self.paint)

    def _after_game(self, seat: HumanSeat) -> None:
        """Say in the events how a game ended when the caller left it."""
        table = seat.table
        if table is not None and table.ending.left is not None and table.ending.left != seat.index:
            other = table.seats[table.ending.left].name
            self.say(f"{other} left the game" + (": your win by forfeit" if table.ending.forfeit == table.ending.left else ""))

    async def _resume(self) -> None:
        waiting = self.lobby.waiting_table(sysop_identity(self.name))
        if waiting is None:
            self.say("no game is waiting for you")
            return
        table, index = waiting
        seat = HumanSeat(self.display, self.name, chat_limit=self.lobby.paging.chat_limit,
                         identity=sysop_identity(self.name))
        self.busy = True
        table.rejoin(index, seat)
        self.lobby.update(self.presence, Doing.PLAYING, table)
        await seat.play()
        self._after_game(seat)
        self.lobby.update(self.presence, Doing.CONSOLE)
        self.busy = False
        self.display.show(self.paint)


async def sysop_session(terminal: Terminal, lobby: Lobby, name: str, presence: Presence,
                        log: logging.Logger | logging.LoggerAdapter[logging.Logger],
                        tournaments: Tournaments | None = None) -> None:
    """Run the console for the sysop ``name`` on ``terminal`` (``tournaments``: the store's, for T)."""
    presence.name, presence.is_sysop = name, True
    console = SysopConsole(Display(terminal), lobby, name, presence, tournaments)
    lobby.update(presence, Doing.CONSOLE)
    lobby.add_console(console)
    log.info("sysop %r at the console", name)
    try:
        await console.run()
    except HungUp:  # (the one place the console learns of it)
        log.info("sysop %r hung up", name)
        return
    finally:
        lobby.remove_console(console)
    if not terminal.closed:
        terminal.write(CLEAR)
        terminal.write_text(f"Goodbye, {name}.\r\n")
        await terminal.drain()
