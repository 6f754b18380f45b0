"""Who is on line, what each caller is doing, the sysop consoles, pages,
challenges between callers, and the games between people (running, or
waiting for a player whose line dropped).

A *page* (BBS style, with an optional one-line reason) rings on every
available sysop console until a sysop accepts or declines it, or until
``page_timeout`` seconds pass.  Accepting hands the caller an
:class:`Invitation`: the caller's session sets up the table and hands the
sysop's seat back through it.

A *challenge* asks a caller at the main menu to play the
caller who sends it, for ``page_timeout`` seconds.  Accepting answers it
with the challenged caller's seat; the challenger's session sets up the
table.  A caller who declines, or whom a challenger withdraws from, is not
challenged again by the same caller, nor from the same address, for
:data:`CHALLENGE_COOLDOWN` seconds; one address sends at most
:data:`CHALLENGE_RATE` challenges in :data:`CHALLENGE_RATE_WINDOW`
seconds; and a caller may turn challenges off (two guests
challenged and withdrew 102 times in 30 s, and their victim never reached
a game).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from door.config import PagingConfig
from door.net.peer_socket import PeerTurn
from door.net.terminal import Terminal
from door.records.clock import WALL, Clock
from door.records.identity import Identity
from door.records.names import name_key
from door.records.nodes import Node, Present
from door.records.ranked.match import MatchTerms
from door.sysop.doing import Activity, Doing
from door.sysop.presence import (
    Challenge,
    Console,
    Invitation,
    Page,
    Presence,
    challenger_keys,
)
from door.ui.prompts import REASON_LIMIT
from door.ui.safe_text import clean_text
from engine.rules import Rules

if TYPE_CHECKING:
    from door.play.table import Seat, Table
    from door.records.store import SavedGame

__all__ = ["Lobby", "LOGGED_IN_AGAIN", "CHALLENGE_COOLDOWN", "CHALLENGE_RATE", "CHALLENGE_RATE_WINDOW"]

log = logging.getLogger(__name__)

LOGGED_IN_AGAIN = "*** You logged in again from somewhere else: this line is closed. ***"
"""What an account's older session is told as it is closed (:meth:`Lobby.close_sessions`)."""

CHALLENGE_COOLDOWN = 120.0
"""Seconds after a caller declines a challenge (or its sender withdraws it)
during which its sender, and anybody at the sender's address, cannot
challenge them again (nobody is pestered off the menu)."""

CHALLENGE_RATE = 4
"""Challenges one address may send in any :data:`CHALLENGE_RATE_WINDOW`."""

CHALLENGE_RATE_WINDOW = 60.0
"""Seconds over which :data:`CHALLENGE_RATE` counts."""


class Lobby:
    """The server-wide registry; ``paging`` holds the timeouts."""

    def __init__(self, paging: PagingConfig, clock: Clock = WALL) -> None:
        self.paging = paging
        self.presences: dict[int, Presence] = {}
        self.consoles: list[Console] = []
        self.pages: list[Page] = []
        self.challenges: list[Challenge] = []
        self._at_menu: dict[int, Presence] = {}
        """The challengeable callers by connection (few, and looked at every second by every menu)."""
        self._declined: dict[tuple[str, int], float] = {}
        """(who challenged, :func:`_challenger_keys`; challenged conn) -> when the challenged caller said no
        or the challenger withdrew."""
        self._sent: dict[str, list[float]] = {}
        """A challenger's address -> when its challenges of the last :data:`CHALLENGE_RATE_WINDOW` were sent."""
        self.clock = clock
        """Seconds since the epoch: the records' clock (a test may set another)."""
        self.tables: set[Table] = set()
        self.nodes: dict[int, Node] = {}
        """The other live serve processes on a shared store, by node id (:mod:`door.sysop.node_link`)."""
        self.elsewhere: list[Present] = []
        """Who is on line on those nodes, sysops first."""
        self._sysop_node: Node | None = None
        """The first node among :attr:`nodes` whose sysop is available (see :meth:`set_elsewhere`)."""
        self._menu_elsewhere: list[Present] = []
        """The callers at another node's main menu (see :meth:`set_elsewhere`)."""
        self.on_change: Callable[[], None] | None = None
        self.kick_elsewhere: Callable[[Present, str], Awaitable[bool | None]] | None = None
        """Ends the call of somebody on line at another node, the sysop's
        name given: True when it did, False when they were gone, ``None``
        when that node did not answer (set by the node link)."""
        self.turn_elsewhere: Callable[[Present, PeerTurn], None] | None = None
        """Asks another node to tell somebody on line there that a game by
        turns waits on them (set by the node link: it returns at once)."""
        self.ban: Callable[[str, str, str], Awaitable[str]] | None = None
        """Bans an account's name, an address or a network on every node, for a reason, by a sysop;
        returns what the console says (set by the server: :meth:`door.sysop.ban_list.BanList.make`)."""
        """Called whenever :meth:`changed` is (the node link's early beat)."""
        self.club: object | None = None
        """Tonight's club night, once the sysop opened one: a
        :class:`door.sysop.club_night.ClubNight` (which knows the lobby: typed
        apart so that the two modules do not import each other)."""
        self.club_maker: Callable[[int, float], object] | None = None
        """Makes a club night of so many games starting in so many minutes (set by the server)."""

    # -- presence ------------------------------------------------------------

    def join(self, conn: int, terminal: Terminal) -> Presence:
        """A new connection."""
        p = Presence(conn, terminal)
        self.presences[conn] = p
        self.changed()
        return p

    def leave(self, presence: Presence) -> None:
        """A connection ended, however its session ended (a hang-up, the
        caller leaving, an exception): a seat it still held at a table
        leaves as a dropped line does (:meth:`~door.play.table.Table.leave_seat`:
        the other player is told at once; the grace runs for this side)."""
        if presence.table is not None and presence.seat is not None:
            presence.table.leave_seat(presence.seat)
        self.presences.pop(presence.conn, None)
        self._at_menu.pop(presence.conn, None)
        presence.ended.set()
        for page in list(self.pages):
            if page.presence is presence and not page.answer.done():
                page.answer.set_result(None)
        for challenge in list(self.challenges):
            if presence in (challenge.challenger, challenge.challenged) and not challenge.answer.done():
                challenge.answer.set_result(None)
        for pair in [pair for pair in self._declined if pair[1] == presence.conn]:
            del self._declined[pair]
        self.changed()

    def holder(self, identity: Identity, besides: Presence | None = None) -> Presence | None:
        """Another connection than ``besides`` logged in as ``identity``, if any."""
        return next((p for p in self.presences.values() if p.identity == identity and p is not besides), None)

    async def take_over(self, presence: Presence, identity: Identity, timeout: float = 15.0) -> bool:
        """Make ``presence`` the one session of ``identity``: an older one
        is closed (:meth:`close_sessions`), so two sessions never write
        one account's game.  False when the older session did not end
        within ``timeout`` seconds."""
        if not await self.close_sessions(identity, presence, timeout):
            return False
        presence.identity = identity
        return True

    async def close_sessions(self, identity: Identity, besides: Presence | None = None, timeout: float = 15.0) -> bool:
        """Close every session here of ``identity`` but ``besides`` (it
        logged in again, here or at another node): each is told, its line
        closed, and waited for (its game is saved first).  False when one
        did not end within ``timeout`` seconds."""
        while (old := self.holder(identity, besides)) is not None:
            log.info("%s logs in again: closing the older session (conn %d)", identity, old.conn)
            old.terminal.ring()
            old.terminal.say_farewell(LOGGED_IN_AGAIN)
            old.terminal.close()
            old.terminal.lost()
            try:
                await asyncio.wait_for(old.ended.wait(), timeout)
            except TimeoutError:
                return False
        return True

    def update(self, presence: Presence, doing: Doing, table: Table | None = None, whom: str = "",
               seat: Seat | None = None) -> None:
        """``presence`` now does ``doing`` (naming ``whom``: the opponent,
        the node), in ``table``'s game if any, at ``seat`` if it plays
        there: the one place it is set.  A session that goes on to
        anything else while the seat it held is still at a running table
        (a screen that failed, back at the menu) leaves that seat as a
        dropped line does."""
        held = (presence.table, presence.seat)
        presence.doing, presence.table, presence.seat = Activity(doing, whom), table, seat
        if held[0] is not None and held[1] is not None and held != (table, seat):
            held[0].leave_seat(held[1])
        self.changed()

    def release_seat(self, presence: Presence) -> None:
        """``presence`` no longer holds the seat it played at, which is kept
        for it elsewhere (a guest's game parked while the line is down):
        the connection's end does not leave it."""
        presence.seat = None

    def changed(self) -> None:
        """Something here changed: tell every console to redraw, and the
        node link, which tells the other nodes."""
        self._redraw_consoles()
        if self.on_change is not None:
            self.on_change()

    def _redraw_consoles(self) -> None:
        for console in list(self.consoles):
            console.lobby_changed()

    def callers(self) -> list[Presence]:
        """Everybody on line but the sysops, oldest connection first."""
        return [p for p in sorted(self.presences.values(), key=lambda p: p.conn) if not p.is_sysop]

    def end_call(self, presence: Presence, words: str) -> None:
        """End ``presence``'s call: ``words`` said first (given a moment to
        go out, then the line is closed, whether the caller reads or not)."""
        presence.terminal.say_farewell(words)
        presence.terminal.close()
        presence.terminal.lost()

    def end_call_of(self, name: str, words: str) -> bool:
        """End the call of the caller on line here called ``name``
        (ignoring case and width, :func:`~door.records.names.name_key`);
        False when nobody of that name is (one handed to another node is
        not here)."""
        key = name_key(name)
        presence = next((p for p in self.callers() if p.name and not p.away and name_key(p.name) == key), None)
        if presence is None:
            return False
        self.end_call(presence, words)
        return True

    def message(self, presence: Presence, text: str) -> None:
        """A one-line message from the sysop to ``presence``."""
        presence.terminal.ring()
        presence.tell(f"Message from the sysop: {text}")

    # -- sysops and pages ---------------------------------------------------------

    def add_console(self, console: Console) -> None:
        self.consoles.append(console)
        self.changed()

    def remove_console(self, console: Console) -> None:
        if console in self.consoles:
            self.consoles.remove(console)
        self.changed()

    def set_elsewhere(self, nodes: dict[int, Node], people: list[Present]) -> None:
        """The other nodes and who is on line there changed (the node link's
        beat): the consoles redraw; nothing here changed to tell the others."""
        self.nodes, self.elsewhere = nodes, people
        # what every menu asks each second, worked out once a change
        self._sysop_node = next((nodes[p.node_id] for p in people
                                 if p.sysop and Activity.decode(p.doing).doing is Doing.AVAILABLE
                                 and p.node_id in nodes), None)
        self._menu_elsewhere = [p for p in people if not p.sysop and Activity.decode(p.doing).doing is Doing.MAIN_MENU
                                and p.node_id in nodes]
        self._redraw_consoles()

    def local_people(self) -> list[tuple[str, str, bool]]:
        """Who is on line here, as the other nodes are told: ``(name,
        doing, sysop)``, ``doing`` an :meth:`Activity.encode`; a sysop's is
        :attr:`Doing.AVAILABLE`, :attr:`~Doing.BUSY` or :attr:`~Doing.AWAY`.
        Callers handed to another node are not counted here."""
        people = [(c.name, Activity(Doing.BUSY if c.busy else Doing.AVAILABLE if c.available else Doing.AWAY).encode(),
                   True) for c in self.consoles]
        people += [(p.name, p.doing.encode(), False) for p in self.callers() if p.name and not p.away]
        return people

    def sysop_elsewhere(self) -> Node | None:
        """Another node whose sysop is at the console, available and free,
        when no sysop here is; else ``None``."""
        return None if self.sysop_available() else self._sysop_node

    def sysop_available(self) -> bool:
        """True when some sysop console is attached, available and free."""
        return any(c.available and not c.busy for c in self.consoles)

    async def page(self, presence: Presence, reason: str) -> Invitation | None:
        """Ring the sysops for ``presence``, with ``reason`` (cleaned as any
        caller's text is, and cut to :data:`REASON_LIMIT` characters); the
        invitation when a sysop accepts, ``None`` when declined, unanswered
        or cancelled."""
        reason = clean_text(reason, REASON_LIMIT)
        loop = asyncio.get_running_loop()
        page = Page(presence, reason, self.clock() + self.paging.page_timeout, loop.create_future(), self.clock)
        self.pages.append(page)
        log.info("%s pages the sysop: %r", presence.name, reason)
        for console in list(self.consoles):
            if console.available:
                console.ring(page)
        self.changed()
        try:
            return await asyncio.wait_for(asyncio.shield(page.answer), self.paging.page_timeout)
        except TimeoutError:
            return None
        finally:
            if not page.answer.done():
                page.answer.set_result(None)
            if page in self.pages:
                self.pages.remove(page)
            self.changed()

    def cancel_page(self, presence: Presence) -> None:
        """The caller stopped paging."""
        for page in self.pages:
            if page.presence is presence and not page.answer.done():
                page.answer.set_result(None)

    def answer(self, page: Page, invitation: Invitation | None) -> bool:
        """A sysop accepts (``invitation``) or declines (``None``) ``page``;
        False when the page is no longer ringing."""
        if page.answer.done():
            return False
        page.answer.set_result(invitation)
        log.info("page of %s %s", page.presence.name, "accepted" if invitation else "declined")
        return True

    # -- challenges between callers -------------------------------------------------

    def at_menu(self, presence: Presence, here: bool) -> None:
        """``presence`` arrives at (``here``) or leaves the main menu, where
        other callers may challenge them."""
        if here and not presence.is_sysop and presence.conn in self.presences:
            self._at_menu[presence.conn] = presence
        else:
            self._at_menu.pop(presence.conn, None)

    def opponents(self, presence: Presence) -> list[Presence]:
        """The callers ``presence`` may challenge now: at the main menu,
        in no other challenge, and not having declined ``presence`` in the
        last :data:`CHALLENGE_COOLDOWN` seconds; oldest connection first.
        Costs the number of callers at the menu, not of all callers."""
        return [p for _, p in sorted(self._at_menu.items()) if self._may_challenge(presence, p)]

    def has_opponents(self, presence: Presence) -> bool:
        """True when :meth:`opponents` or :meth:`opponents_elsewhere` is
        not empty (stops at the first)."""
        return bool(self._menu_elsewhere) or any(self._may_challenge(presence, p) for p in self._at_menu.values())

    def opponents_elsewhere(self) -> list[Present]:
        """Callers at the main menu of another live node (as that node last
        said): challenging one means going there (the challenge itself, and
        its checks, are that node's)."""
        return list(self._menu_elsewhere)

    def _may_challenge(self, presence: Presence, other: Presence) -> bool:
        if other is presence or not other.name or not other.challengeable:
            return False
        if any(other in (c.challenger, c.challenged) or presence in (c.challenger, c.challenged)
               for c in self.challenges):
            return False
        now = self.clock()
        return all(now - self._declined.get((key, other.conn), -CHALLENGE_COOLDOWN) >= CHALLENGE_COOLDOWN
                   for key in challenger_keys(presence))

    def challenges_left(self, presence: Presence) -> int:
        """How many challenges ``presence``'s address may still send now
        (:data:`CHALLENGE_RATE` in any :data:`CHALLENGE_RATE_WINDOW`)."""
        now = self.clock()
        sent = [t for t in self._sent.get(presence.terminal.address, []) if now - t < CHALLENGE_RATE_WINDOW]
        return max(0, CHALLENGE_RATE - len(sent))

    def _remember_no(self, challenge: Challenge) -> None:
        """The challenged caller said no, or the challenger withdrew: the
        :data:`CHALLENGE_COOLDOWN` starts for the challenger's keys."""
        now = self.clock()
        for key in challenger_keys(challenge.challenger):
            self._declined[(key, challenge.challenged.conn)] = now

    def challenge_for(self, presence: Presence) -> Challenge | None:
        """The open challenge to ``presence``, if any."""
        return next((c for c in self.challenges if c.challenged is presence and not c.answer.done()), None)

    async def challenge(self, challenger: Presence, challenged: Presence, rules: Rules,
                        resume: SavedGame | None = None, terms: MatchTerms | None = None) -> Challenge:
        """Ask ``challenged`` to play ``challenger`` under ``rules`` (to go
        on with the kept game ``resume`` when given) and wait up to
        ``page_timeout`` seconds; returns the challenge, whose ``answer``
        holds the challenged caller's seat or ``None``.  Raises
        ``ValueError`` when ``challenged`` is not among :meth:`opponents`,
        or the challenger's address has no :meth:`challenges_left`."""
        if challenged not in self.opponents(challenger):
            raise ValueError(f"{challenged.name} cannot be challenged now")
        if not self.challenges_left(challenger):
            raise ValueError("too many challenges from your address: wait a minute")
        now = self.clock()
        sent = self._sent.setdefault(challenger.terminal.address, [])
        sent[:] = [t for t in sent if now - t < CHALLENGE_RATE_WINDOW] + [now]
        if len(self._sent) > 4096:  # (addresses that sent nothing lately are forgotten)
            self._sent = {a: s for a, s in self._sent.items() if s and now - s[-1] < CHALLENGE_RATE_WINDOW}
        loop = asyncio.get_running_loop()
        c = Challenge(challenger, challenged, rules, self.clock() + self.paging.page_timeout, loop.create_future(),
                      resume, terms, clock=self.clock)
        self.challenges.append(c)
        log.info("%s challenges %s", challenger.name, challenged.name)
        challenged.terminal.wake()  # the menu notices at once
        self.changed()
        try:
            await asyncio.wait_for(asyncio.shield(c.answer), self.paging.page_timeout)
        except TimeoutError:
            pass
        except BaseException:
            if c.answer.done() and (seat := c.answer.result()) is not None:
                seat.finish()  # accepted, but nobody will seat it: the challenged caller goes back
            raise
        finally:
            if not c.answer.done():
                c.answer.set_result(None)
            self.challenges.remove(c)
            challenged.terminal.wake()  # a lapsed challenge leaves the other's screen
            self.changed()
        return c

    def withdraw(self, challenger: Presence) -> None:
        """The challenger stopped waiting."""
        for c in self.challenges:
            if c.challenger is challenger and not c.answer.done():
                c.withdrawn = True
                self._remember_no(c)
                c.answer.set_result(None)

    def answer_challenge(self, challenge: Challenge, seat: Seat | None) -> bool:
        """The challenged caller accepts (with their ``seat``) or declines
        (``None``); False when the challenge is no longer open."""
        if challenge.answer.done():
            return False
        if seat is None:
            challenge.declined = True
            self._remember_no(challenge)
        challenge.answer.set_result(seat)
        log.info("%s %s the challenge of %s", challenge.challenged.name, "accepts" if seat else "declines",
                 challenge.challenger.name)
        return True

    # -- tables ------------------------------------------------------------------

    def run_table(self, table: Table, resume: SavedGame | None = None) -> asyncio.Task[None]:
        """Run a ``table`` between people in the background (it outlives a
        dropped connection), from the saved game ``resume`` when given; it
        leaves the lobby when it ends."""
        self.tables.add(table)

        async def run() -> None:
            try:
                await table.run(resume)
            finally:
                self.tables.discard(table)
                self.changed()

        self.changed()
        return asyncio.create_task(run())

    def at_a_table(self, identity: Identity) -> bool:
        """True while a game between people running here has a seat of
        ``identity`` (playing, or waiting for them to come back)."""
        return any(seat.identity == identity for table in self.tables for seat in table.seats)

    def waiting_table(self, identity: Identity | None) -> tuple[Table, int] | None:
        """A game that waits for ``identity`` (:func:`account_identity`,
        :func:`sysop_identity`) to come back: the table and the seat.  A
        seat is given back to the identity that left it, never by name; a
        guest (``None``) gets none."""
        if identity is None:
            return None
        for table in self.tables:
            for seat in table.absent:
                if table.seats[seat].identity == identity:
                    return table, seat
        return None
