"""The door server: the telnet and SSH listeners (and the web page's, the
cribbage hub's, the data folder's sockets and the peer port), and a clean
shutdown that tells every connected caller.  How each connection becomes
a session is :mod:`door.connections`.

Logs to the ``door`` logger: one line per listener (``telnet listening on
HOST:PORT``, ``ssh listening on HOST:PORT``); :mod:`door.connections` one
per connection and disconnection.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from os import getpid
from pathlib import Path

from door.caller.ssh_auth import SshAuthenticator
from door.caller.tournaments import seat_and_tell
from door.collector import Collector
from door.config import Config
from door.config.web import web_options
from door.connections import Connections
from door.context import DoorContext, Lines
from door.games.correspondence import sweep_for_ever
from door.net.console_socket import CONSOLE_SOCKET, start_console
from door.net.gate import ConnectionGate, PreloginLimit, raise_descriptor_limit
from door.net.listener import Bind, Listener
from door.net.metrics import watch_loop
from door.net.node_socket import NODE_SOCKET, start_nodes
from door.net.peer_socket import PeerKick, load_peer_secret, peer_tls, start_peers
from door.net.private import check_private
from door.net.rlogin import start_rlogin
from door.net.ssh import HostKey, load_host_key, start_ssh
from door.net.steering import steer_by_address
from door.net.telnet import start_telnet
from door.net.terminal import Terminal
from door.net.web import start_web
from door.play.hints import load_tables
from door.play.thinking import Thinking
from door.records.bulletins import BulletinWriter
from door.records.store import Store
from door.records.throttle import LoginThrottle
from door.service import HEALTH_EVERY, HEALTH_WAIT, Parts, Service, node_name
from door.sysop.ban_list import BanList
from door.sysop.club_night import ClubNight, NightTerms
from door.sysop.console import KICKED
from door.sysop.lobby import Lobby
from door.sysop.node_link import NodeLink, taken_here, told_here
from door.sysop.tournament_loop import run_director

__all__ = ["DoorServer", "serve", "HEALTH_EVERY", "HEALTH_WAIT"]

log = logging.getLogger("door")

SYSOP_ROOM = 4
"""Connections the gate lets in past ``max_sessions``, so that a full door
still answers its sysops."""

SHUTDOWN_MESSAGE = "*** The cribbage door is shutting down. Please call again later. ***"


@dataclass
class Listening:
    """The listeners of one door, each ``None`` until it is open: the
    callers' (telnet, SSH, the web page, the rlogin hub), the data
    folder's Unix sockets (the sysop console, the BBS nodes) and the peer
    port."""

    telnet: Listener | None = None
    ssh: Listener | None = None
    web: Listener | None = None
    rlogin: Listener | None = None
    console: Listener | None = None
    nodes: Listener | None = None
    peers: Listener | None = None

    def each(self) -> list[Listener | None]:
        """Every one of them, in the order above."""
        return [self.telnet, self.ssh, self.web, self.rlogin, self.console, self.nodes, self.peers]


class DoorServer:
    """Both listeners of one door, from a :class:`Config`; with
    ``workers`` > 1, worker number ``worker`` (from 0) of that many
    processes listening on the same ports (``SO_REUSEPORT``) and joined as
    nodes of their shared store, of which worker 0 alone keeps the sysop
    console and the BBS node socket (:mod:`door.workers`).

    After :meth:`start`, ``telnet_port`` and ``ssh_port`` hold the ports
    actually bound (useful with port 0)."""

    def __init__(self, config: Config, worker: int = 0, workers: int = 1) -> None:
        self.config = config
        self.worker = worker
        """This process's index among ``workers`` (``serve --workers``; :mod:`door.workers`)."""
        self.workers = workers
        self.telnet_port = 0
        self.ssh_port = 0
        self.web_port = 0
        self.rlogin_port = 0
        self.sessions: set[Terminal] = set()
        self._sysop_sessions: set[Terminal] = set()
        self.listening = Listening()
        """The listeners, each once it is open."""
        self._tasks: set[asyncio.Task[None]] = set()
        """The tasks :meth:`stop` cancels: the sessions', the tournaments' director, the sweeper, the loop's
        watch and a drain."""
        self.store: Store | None = None
        self.link: NodeLink | None = None
        """This process among the nodes of a shared store (PostgreSQL, or the workers' SQLite file; else ``None``)."""
        self.gate: ConnectionGate | None = None
        """Connections counted at accept, before negotiation or authentication."""
        self.thinking = Thinking(config.computer.processes)
        """Where the expert computer thinks (its worker processes start with the door)."""
        self.service = Service(node_name(config.server.node_name, worker, workers), Parts(
            lambda: self.store, lambda: self.ctx.lobby if self.store is not None else None, self.thinking,
            lambda: {"telnet": self.listening.telnet, "ssh": self.listening.ssh}, self.sessions, self._sysop_sessions,
            config.limits.max_sessions))
        """What this node tells those who run it: ``/healthz``, ``/metrics``, draining."""
        self.finished = asyncio.Event()
        """Set when a drain is over (:meth:`drain`): the node may stop."""

    @property
    def listeners(self) -> list[Listener]:
        """The listeners open now: the callers' (telnet, SSH, the web page,
        the rlogin hub), then the data folder's sockets and the peer port."""
        return [listener for listener in (*self.listening.each(), self.service.listener) if listener is not None]

    async def health(self) -> tuple[bool, list[str]]:
        """How this door is, for ``/healthz`` (:meth:`door.service.Service.health`)."""
        return await self.service.health()

    async def start(self, before_listening: Callable[[], None] | None = None) -> None:
        """Open the store and both listeners; ``before_listening()`` is
        called once everything else is ready, before the first listener
        opens (:func:`serve` collects and freezes start-up there: no caller
        waits through that collection, 49 ms in ``bench.load``).  Raises
        ``OSError`` when a port is taken or the data folder cannot be
        written, and :class:`~door.records.store.StoreError` when the
        database cannot be used."""
        s = self.config.server
        data_dir = Path(s.data_dir)
        if self.config.source is not None and any(sysop.password for sysop in self.config.sysops):
            check_private(self.config.source, "sysop password hashes")
        host_key = load_host_key(data_dir)
        descriptors = raise_descriptor_limit()
        limits = self.config.limits
        # the sysops' logins come through the same gate: room for them past max_sessions
        self.gate = ConnectionGate(limits.max_sessions + SYSOP_ROOM, limits.max_per_address, descriptors,
                                   prelogin=limits.prelogin)
        log.info("at most %d connections (%d from one address; %d descriptors)", self.gate.max_total,
                 self.gate.max_per_address, descriptors)
        self.store = await Store.open(self.config.store.target(data_dir))
        log.info("database %s", self.store.where)
        if self.config.bulletins.folder:  # written after each finished game
            writer = BulletinWriter(self.store, Path(self.config.bulletins.folder))
            self.store.games.recorded.append(writer.game_recorded)
            log.info("bulletins written into %s", writer.folder)
        self.ctx = DoorContext(self.config.rules, self.config.computer.delay, self.store, self.config.caller,
                               self.config.sysops, self.config.paging, Lobby(self.config.paging, self.store.clock),
                               self.config.limits,
                               LoginThrottle(limits.password_window, limits.password_per_address,
                                             limits.password_per_account),
                               login_timeout=s.login_timeout, reader_wait=s.reader_wait, thinking=self.thinking,
                               daily=self.config.daily, ranked=self.config.ranked,
                               correspondence=self.config.correspondence, lines=Lines.of(self.config))
        lobby, store, config = self.ctx.lobby, self.store, self.config
        lobby.club_maker = lambda games, minutes: ClubNight(
            self.ctx.games, NightTerms(config.rules, games, store.clock() + minutes * 60, config.paging.ranked_grace),
            self.thinking, config.computer.delay)
        self.ctx.bans = BanList(store, lobby)
        await self.ctx.bans.start()
        self.gate.banned, lobby.ban = self.ctx.bans.address, self.ctx.bans.make
        self.connections = Connections(config, self.ctx, self.service, self.sessions, self._sysop_sessions,
                                       self._tasks)
        """How each listener's connections become sessions."""
        load_tables()  # (before any caller: built at a caller's first discard, it stopped every screen)
        try:
            if before_listening is not None:
                before_listening()
            await self._listen(data_dir, host_key)
        except BaseException:  # a port taken, another server on the data folder: undo what is open
            await self.stop()
            raise

    async def _listen(self, data_dir: Path, host_key: HostKey) -> None:
        """Start thinking, both listeners, the data folder's Unix sockets
        (worker 0) and the node link on a shared store.  Raises
        ``OSError`` when a port is taken or another server serves
        ``data_dir``."""
        s, listening = self.config.server, self.listening
        self.thinking.start()
        self._tasks.add(asyncio.create_task(watch_loop()))
        holder = f"{self.service.name} pid {getpid()}"[:100]
        self._tasks.add(asyncio.create_task(run_director(self.ctx.store, holder, folder=Path(b) if (
            b := self.config.bulletins.folder) else None, seat=partial(seat_and_tell, self.ctx.games, self.ctx.lobby))))
        self._tasks.add(asyncio.create_task(sweep_for_ever(self.ctx.games, holder)))
        await self.service.listen(s.metrics_listen if self.worker == 0 else "")  # (one port: worker 0's own)
        # telnetlib3's own idle timeout is only a backstop behind the door's
        reuse = self.workers > 1
        listening.telnet = await start_telnet(Bind(s.host, s.telnet_port, reuse), self.connections.telnet,
                                              idle_timeout=s.idle_timeout + 60, connect_maxwait=s.connect_maxwait,
                                              gate=self.gate, login_timeout=s.login_timeout, proxies=s.proxies)
        self.telnet_port = listening.telnet.port
        log.info("telnet listening on %s:%d", s.host, self.telnet_port)
        listening.ssh = await start_ssh(Bind(s.host, s.ssh_port, reuse), self.connections.ssh, host_key,
                                        lambda peer, close: SshAuthenticator(
                                            self.ctx.store.accounts, self.ctx.sysops, self.ctx.throttle,
                                            self.ctx.limits.ssh_password_attempts, peer, close),
                                        login_timeout=s.login_timeout, gate=self.gate,
                                        channels=self.config.limits.ssh_sessions, proxies=s.proxies)
        self.ssh_port = listening.ssh.port
        log.info("ssh listening on %s:%d", s.host, self.ssh_port)
        if self.config.web.enabled:
            assert self.gate is not None  # (made before the listeners)
            options = replace(web_options(self.config.web, s.host, self.config.limits),
                              metrics=self.service.metrics.exposition)
            listening.web = await start_web(Bind(s.host, self.config.web.port, reuse), self.connections.web,
                                            self.gate, options, self.health, self.connections.api)
            self.web_port = listening.web.port
            log.info("web page on %s://%s:%d/", "https" if self.config.web.certfile else "http", s.host,
                     self.web_port)
        if reuse:  # one address's callers to one worker, whose per-address counts are then whole
            steer_by_address([*listening.telnet.sockets, *listening.ssh.sockets,
                              *(listening.web.sockets if listening.web is not None else ())], self.workers)
        if self.config.rlogin.enabled and self.worker == 0:
            hub = self.config.rlogin  # its own count: one board's callers all come from the board's address
            open_boards = [b.tag for b in hub.boards if not b.addresses]
            if open_boards:
                log.warning("rlogin: board(s) %s list no addresses: anyone who has seen a secret go by in the "
                            "clear may call as their callers (give each board its addresses)", ", ".join(open_boards))
            members = None if open_boards else [a for b in hub.boards for a in b.addresses]
            listening.rlogin = await start_rlogin(Bind(s.host, hub.port), self.connections.rlogin,
                                                  ConnectionGate(hub.max_sessions, hub.max_sessions, descriptors=None,
                                                                 prelogin=PreloginLimit(max(1, hub.max_sessions // 2),
                                                                                        hub.max_sessions,
                                                                                        hub.max_sessions)),
                                                  members=members,
                                                  login_timeout=s.login_timeout, proxies=s.proxies)
            self.rlogin_port = listening.rlogin.port
            log.info("rlogin (the cribbage hub, %d member boards) listening on %s:%d", len(hub.boards), s.host,
                     self.rlogin_port)
        if self.worker == 0:
            listening.nodes = await start_nodes(data_dir, self.connections.node)
            log.info("BBS nodes join on %s", data_dir / NODE_SOCKET)
        if self.config.store.url or self.workers > 1:
            await self._join_nodes()
        if self.worker == 0:
            listening.console = await start_console(data_dir, self.connections.console, self.drain)
            log.info("sysop console on %s", data_dir / CONSOLE_SOCKET)

    async def _join_nodes(self) -> None:
        """On a shared store (PostgreSQL, or the workers' SQLite file):
        listen on the peer port and join the nodes, so callers
        here reach a sysop at another node's console.  A worker listens on
        ``peer_port`` + its number (any free port when ``peer_port`` is 0),
        on ``peer_host`` (by default loopback only); the nodes
        prove to each other that they hold the peer secret
        (:mod:`door.net.peer_socket`).  Raises ``OSError`` and
        ``ValueError`` when the peer secret cannot be had, and
        :class:`~door.net.private.SecretFileError` when others can read it."""
        assert self.store is not None
        host = self.config.store.peer_host or "127.0.0.1"  # (never the callers' address by default)
        secret = load_peer_secret(self.config.store.secret_path(Path(self.config.server.data_dir)))
        port = self.config.store.peer_port + self.worker if self.config.store.peer_port else 0
        store = self.config.store
        tls, client = peer_tls(store.peer_certfile, store.peer_keyfile, store.peer_cafile) if store.peer_certfile \
            else (None, None)
        peers = await start_peers(Bind(host, port), secret, self.connections.peer, tls=tls, kick=self._kicked,
                                  turn=lambda turn: told_here(self.ctx.lobby, turn),
                                  take=lambda take: taken_here(self.ctx.lobby, take))
        self.listening.peers, port = peers, peers.port
        self.link = NodeLink(self.store, self.ctx.lobby, host, port, secret, tls=client)
        await self.link.start()
        self.ctx.link = self.link

    def drain(self) -> str:
        """Start draining (:meth:`door.service.Service.drain`, for at most
        ``[server] drain_timeout`` seconds), then set :attr:`finished`;
        what happened, in words (``cribbage-door drain`` prints them)."""
        if self.workers > 1:  # (the supervisor would start a drained worker again at once)
            return (f"not draining: this serve runs {self.workers} workers; stop them with SIGTERM (each tells its "
                    "callers, and their games are kept)")
        if self.service.draining or self.gate is None:
            return "this node is draining already"

        async def drain() -> None:
            await self.service.drain(self.config.server.drain_timeout)
            self.finished.set()
        self._tasks.add(asyncio.create_task(drain()))
        return (f"draining: {self.service.callers} caller(s) on line; no new callers; stopping when they are gone "
                f"or in {self.config.server.drain_timeout:g} s")

    def _kicked(self, kick: PeerKick) -> bool:
        """A sysop at another node ends the call of ``kick.name`` here."""
        log.warning("the sysop %s at another node ends the call of %r", kick.by, kick.name)
        return self.ctx.lobby.end_call_of(kick.name, KICKED)

    async def stop(self) -> None:
        """Tell every caller, close every connection and both listeners."""
        for terminal in list(self.sessions):
            terminal.say_farewell(SHUTDOWN_MESSAGE)
        await asyncio.gather(*(asyncio.wait_for(t.drain(), 2.0) for t in list(self.sessions)),
                             return_exceptions=True)
        for terminal in list(self.sessions):
            terminal.close()
        for task in list(self._tasks):
            task.cancel()
        for listener in self.listeners:
            listener.close()
        if self.link is not None:
            await self.link.stop()
        if hasattr(self, "ctx") and self.ctx.bans is not None:
            self.ctx.bans.stop()
        for callers in (self.listening.telnet, self.listening.ssh, self.listening.web):  # the callers' own: every connection is closed
            if callers is not None:
                await callers.wait_closed()
        if self.store is not None:
            await self.store.close()
            self.store = None
        self.thinking.close()
        log.info("door stopped")


async def serve(config: Config, worker: int = 0, workers: int = 1,
                started: Callable[[DoorServer], None] | None = None, lifeline: int | None = None) -> int:
    """Run the door (as worker ``worker`` of ``workers``, see
    :class:`DoorServer`) until SIGINT or SIGTERM, or until the file
    descriptor ``lifeline`` (the read end of a pipe the supervisor holds
    open) becomes readable, which is when the supervisor is gone; returns
    the exit status.  ``started(server)`` is called once it listens.
    Raises what :meth:`DoorServer.start` raises."""
    server = DoorServer(config, worker, workers)
    collector = Collector(asyncio.get_running_loop(), lambda: len(server.sessions))
    try:
        await server.start(before_listening=collector.start)
    except BaseException:
        collector.stop()
        raise
    if started is not None:
        started(server)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, lambda: log.warning("SIGUSR1: %s", server.drain()))
    drained = asyncio.create_task(server.finished.wait())
    drained.add_done_callback(lambda _: stop.set())
    if lifeline is not None:
        def orphaned() -> None:
            log.warning("the supervisor is gone: stopping")
            loop.remove_reader(lifeline)
            stop.set()
        loop.add_reader(lifeline, orphaned)
    await stop.wait()
    drained.cancel()
    log.info("shutting down: telling %d caller(s)", len(server.sessions))
    await server.stop()
    collector.stop()
    return 0
