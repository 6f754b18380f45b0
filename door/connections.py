"""How each kind of connection becomes a session: a telnet, SSH or web
caller, a program by the game protocol, a member board's caller on the
cribbage hub (rlogin), the sysop at the local console socket, a BBS
node's caller, and a caller handed over by another node; each is
admitted (the door full or draining refuses a caller, never a sysop),
counted among the door's sessions, and run to its end.

Logs to the ``door`` logger: one line per connection and disconnection,
each line of a session tagged ``conn=N`` (:mod:`door.net.logs`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from door.caller.api_session import ProgramSession
from door.caller.bbs import bbs_account, time_limit
from door.caller.hub import hub_account, hub_login
from door.caller.identity import Caller, Login
from door.caller.login import reserved
from door.caller.menu import MenuItem
from door.caller.session import CallerSession
from door.config import Config, SysopConfig
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.gate import sorry
from door.net.logs import CONNECTION, SOURCE
from door.net.metrics import refused
from door.net.node_socket import NodeHello
from door.net.peer_socket import PeerHello
from door.net.rlogin import Handshake, RloginTerminal
from door.net.terminal import Terminal
from door.records.names import clean_name
from door.records.store import StoreError
from door.service import DRAIN_REFUSAL, Service
from door.sysop.console import sysop_session
from door.ui.display import Display
from door.ui.prompts import NAME_LIMIT

__all__ = ["Connections", "HUB_STARTS"]

log = logging.getLogger("door")

NO_RECORDS = "The door cannot reach its records right now. Please call again later."
"""What a caller is told when the store cannot be read or written."""

HUB_STARTS = {"computer": MenuItem.PLAY_COMPUTER, "daily": MenuItem.DAILY_DEAL, "caller": MenuItem.PLAY_CALLER,
              "watch": MenuItem.WATCH, "club": MenuItem.CLUB, "top": MenuItem.TOP_PLAYERS}
"""The screens a hub's board may name after the terminal type (``ansi-bbs+computer``): a game against the
computer, today's deal, a challenge, watching, the club night, top players; anything else: the menu."""


class Connections:
    """The sessions of one door server: each listener hands its new
    connections to one of the methods here (``telnet``, ``web``, ``api``,
    ``rlogin``, ``console``, ``node``, ``peer``), which admits it and runs
    its session.

    ``sessions`` and ``sysop_sessions`` are the server's own sets (every
    terminal in a session now, and those of them that are sysops'),
    ``tasks`` the server's set of tasks it cancels at shutdown (a
    session's task is in it while the session runs); ``service`` says
    whether the node is draining."""

    def __init__(self, config: Config, ctx: DoorContext, service: Service, sessions: set[Terminal],
                 sysop_sessions: set[Terminal], tasks: set[asyncio.Task[None]]) -> None:
        self.config = config
        self.ctx = ctx
        self.service = service
        self.sessions = sessions
        self.sysop_sessions = sysop_sessions
        self.tasks = tasks
        self._ids = itertools.count(1)

    async def telnet(self, terminal: Terminal) -> None:
        """A telnet caller: the login screen."""
        await self.session(terminal, Login())

    async def ssh(self, terminal: Terminal, login: Login) -> None:
        """An SSH caller, ``login`` being what the SSH authentication
        proved (a sysop, an account by key or password, or nothing)."""
        await self.session(terminal, login)

    async def web(self, terminal: Terminal) -> None:
        """A caller at the web page's terminal: the login screen."""
        await self.session(terminal, Login())

    async def api(self, link: ApiLink) -> None:
        """A program by the game protocol (its own login)."""
        await self.session(link, Login())

    async def rlogin(self, terminal: RloginTerminal, handshake: Handshake) -> None:
        """A caller from a member board of the cribbage hub:
        the board proves itself, and the caller plays as ``alias@TAG``."""
        got = await hub_login(handshake, self.config.rlogin.boards, self.ctx.throttle, terminal.address)
        if isinstance(got, str):
            log.warning("rlogin from %s refused: %s", terminal.peer, got)
            return await _refuse(terminal, got)
        try:
            account = await hub_account(self.ctx.store, got)
        except StoreError as exc:
            log.error("rlogin caller %r: %s", got.name, exc)
            return await _refuse(terminal, NO_RECORDS)
        await self.session(terminal, Login(), Caller(account.name, account), start=HUB_STARTS.get(handshake.start))

    async def console(self, terminal: Terminal) -> None:
        """The local console socket: only the server's own user reaches it,
        and it is the (first configured) sysop."""
        sysop = self.config.sysops[0] if self.config.sysops else SysopConfig("Sysop")
        await self.session(terminal, Login(sysop=sysop))

    async def node(self, terminal: Terminal, hello: NodeHello) -> None:
        """A BBS node's caller, handed over by its door process (only the
        server's own user reaches the node socket; the BBS vouches for the
        name, as a drop file does in door mode)."""
        name = clean_name(hello.name)[:NAME_LIMIT]
        if not name or reserved(name, self.config.sysops):
            log.warning("node %d: the BBS user name %r is refused", hello.node, hello.name)
            return await _refuse(terminal, f"The door cannot take the BBS user name {name!r}: ask the sysop to "
                                          "rename it.")
        try:
            account = await bbs_account(self.ctx.store, name)
        except StoreError as exc:
            log.error("node %d: %s", hello.node, exc)
            return await _refuse(terminal, NO_RECORDS)
        await self.session(terminal, Login(), Caller(name, account), hello.seconds)

    async def peer(self, terminal: Terminal, hello: PeerHello) -> None:
        """A caller handed over by another node of the shared store (which
        proved who they are; the peer secret proves the node): the account
        the hello names, under its name, or a guest under a name nobody
        reserved."""
        name = clean_name(hello.name)[:NAME_LIMIT]
        account = None
        if hello.account is None:
            taken = not name or reserved(name, self.config.sysops)
        else:
            try:
                account = await self.ctx.store.accounts.find(name)
            except StoreError as exc:
                log.error("peer caller %r: %s", name, exc)
            taken = account is None or account.id != hello.account
        if taken:
            log.warning("peer caller %r (account %s) refused", hello.name, hello.account)
            return await _refuse(terminal, "The sysop's server could not take you over: please call it directly.")
        await self.session(terminal, Login(), Caller(name, account), challenge=hello.challenge)

    async def session(self, terminal: Terminal, login: Login, caller: Caller | None = None,
                      time_left: float | None = None, challenge: str = "", start: MenuItem | None = None) -> None:
        """Run one session on ``terminal`` to its end: the sysop's console
        when ``login`` names a sysop, a program's session on an
        :class:`~door.net.api_link.ApiLink`, else a caller's (``caller``:
        who the connection already proved, ``time_left``: the BBS's limit
        in seconds, ``challenge``: a challenge to take up at once,
        ``start``: the screen to begin at).  A caller is refused, in
        words, when ``max_sessions`` callers are on line or the node is
        draining.  Never raises but for cancellation: a failure is logged
        and ends the session (the records' with a farewell)."""
        conn = next(self._ids)
        CONNECTION.set(str(conn))  # every line logged for this session says conn=N (door.net.logs)
        SOURCE.set(terminal.address)  # and counts against its address's share of the log
        clog = logging.LoggerAdapter(log, {"conn": conn})
        clog.info("connect %s from %s term=%r size=%dx%d charset=%s", terminal.kind, terminal.peer,
                  terminal.term_type, terminal.cols, terminal.rows, terminal.charset.name)
        sysop = login.sysop.name if login.sysop else None
        limits = self.config.limits
        callers = len(self.sessions) - len(self.sysop_sessions)
        full = callers >= limits.max_sessions  # (per address: the gate, at accept)
        if sysop is None and (full or self.service.draining):
            clog.warning("refused: %s (%d callers)", "the door is full" if full else "draining", callers)
            refused("full" if full else "draining")
            terminal.write(f"\r\n{sorry('the door is full' if full else DRAIN_REFUSAL)}\r\n".encode())
            await terminal.drain()
            return
        if sysop is not None:
            self.sysop_sessions.add(terminal)
            terminal.logged_in()  # (the SSH login proved the sysop)
        # a sysop's console waits for callers: it never idles out
        terminal.idle_timeout = None if sysop else self.config.server.idle_timeout
        terminal.idle_warning = limits.idle_warning
        terminal.max_output, terminal.stuck_timeout = limits.max_output, limits.stuck_timeout
        self.sessions.add(terminal)
        presence = self.ctx.lobby.join(conn, terminal)

        def warn(text: str) -> None:
            if presence.deliver is not None:  # a warning kept for later would come too late
                presence.deliver(text)

        terminal.warn = warn
        limit = asyncio.create_task(time_limit(terminal, time_left, presence)) if time_left is not None else None
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        try:
            if sysop is not None:
                await sysop_session(terminal, self.ctx.lobby, sysop, presence, clog, self.ctx.store.tournaments)
            elif isinstance(terminal, ApiLink):  # a program, by the game protocol
                await ProgramSession(terminal, self.ctx, presence, clog).run()
            else:
                await CallerSession(Display(terminal), self.ctx, presence, clog).run(login, caller, challenge, start)
        except asyncio.CancelledError:
            raise
        except StoreError as exc:  # the records cannot be read or written: say so, never just hang up
            clog.error("session ended: %s", exc)
            terminal.say_farewell(NO_RECORDS)
        except Exception:
            clog.exception("session failed")
        finally:
            if limit is not None:
                limit.cancel()
            terminal.warn = None  # it refers to the presence, which refers to the terminal: a cycle otherwise
            self.ctx.lobby.leave(presence)
            self.sessions.discard(terminal)
            self.sysop_sessions.discard(terminal)
            if task is not None:
                self.tasks.discard(task)
            clog.info("disconnect %s (%d bytes sent)", terminal.peer, terminal.bytes_sent)


async def _refuse(terminal: Terminal, text: str) -> None:
    """Say ``text`` as a farewell and let it go out (the session ends)."""
    terminal.say_farewell(text)
    await terminal.drain()
