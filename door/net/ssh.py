"""The SSH transport: an asyncssh listener and its :class:`Terminal`.

asyncssh runs with ``encoding=None`` (bytes) and ``line_editor=False`` (its
line editor would buffer input until Enter and eat arrow keys).  A window
change makes ``stdin.read()`` raise ``TerminalSizeChanged``, which becomes a
resize; a client that asked for no PTY gets 80x24 (FIELD_NOTES.md).  Who
may log in is not decided here: each connection asks an
:class:`Authenticator` (the door's lives in :mod:`door.caller.ssh_auth`),
and the identity it gives at the end travels beside the terminal to the
session.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import asyncssh
from asyncssh.sftp import MIN_SFTP_VERSION

from door.net.gate import ConnectionGate, Ticket, address_of
from door.net.listener import Bind, Listener
from door.net.private import check_private
from door.net.proxy_protocol import proxied
from door.net.terminal import Terminal, TerminalKind

__all__ = ["HostKey", "SshTerminal", "Authenticator", "DoorSshServer", "start_ssh", "load_host_key", "openssh_key"]

HostKey = asyncssh.SSHKey
"""A private key the SSH listener proves the door's identity with (:func:`load_host_key`)."""

log = logging.getLogger(__name__)

Identity = TypeVar("Identity", covariant=True)


class SshTerminal(Terminal):
    """A :class:`Terminal` over an asyncssh server process (bytes)."""

    def __init__(self, process: Any) -> None:
        peer = process.get_extra_info("peername")
        peer_text = f"{peer[0]}:{peer[1]}" if peer else "?"
        term = process.get_terminal_type() or "unknown"
        cols, rows = process.get_terminal_size()[:2]
        env = process.env or {}
        super().__init__(TerminalKind.SSH, peer_text, term, cols or 80, rows or 24, lang=env.get("LANG"))
        self._process = process
        self._conn = process.channel.get_connection()
        self.ticket = getattr(process, "ticket", None)

    async def pump(self) -> None:
        """Read the channel until it closes, feeding the terminal."""
        await self.pump_from(self._read)

    async def _read(self) -> bytes:
        """The next chunk of input; a window change becomes a resize on the
        way (asyncssh raises it from ``read``), a lost channel ``b""``."""
        while True:
            try:
                return bytes(await self._process.stdin.read(4096))
            except asyncssh.TerminalSizeChanged as change:
                self.resized(change.width, change.height)
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                pass
            except asyncssh.Error as exc:
                log.debug("ssh read from %s ended: %s", self.peer, exc)
                return b""

    def _write(self, data: bytes) -> None:
        self._process.stdout.write(data)

    counts_output = True

    def buffered(self) -> int:
        """The channel's unsent output plus the connection's socket buffer
        (a client that stops reading fills the first once its window is
        spent, and the second before that)."""
        try:
            channel = self._process.channel
            size = int(channel.get_write_buffer_size())
            transport = getattr(self._conn, "_transport", None)
            if transport is not None:
                size += int(transport.get_write_buffer_size())
            return size
        except (AttributeError, asyncssh.Error):
            return 0

    async def _drain(self) -> None:
        try:
            await self._process.stdout.drain()
        except (asyncssh.Error, ConnectionError, OSError, BrokenPipeError):
            self.lost()

    def close(self) -> None:
        self.closed = True
        try:
            self._process.exit(0)
        except (asyncssh.Error, OSError):
            pass
        self._abort_later()

    def abort(self) -> None:
        self.closed = True
        try:
            self._conn.abort()
        except (AttributeError, asyncssh.Error, OSError):
            pass


class Authenticator(Protocol[Identity]):
    """What decides who an SSH connection is (one per connection; the
    door's is :class:`door.caller.ssh_auth.SshAuthenticator`).  The
    transport calls these as asyncssh's hooks of the same names are
    called; keys arrive as OpenSSH text (:func:`openssh_key`)."""

    async def begin_auth(self, username: str) -> bool:
        """A new user name: True when it must authenticate, False to let
        it in as it is (a guest name)."""
        ...

    async def validate_public_key(self, username: str, key: str) -> bool:
        """``key`` may log in as ``username`` (asked for an unsigned query
        too: it proves nothing until :meth:`completed`)."""
        ...

    async def validate_password(self, username: str, password: str) -> bool:
        """``password`` is right for ``username``."""
        ...

    def completed(self, username: str) -> Identity:
        """Authentication of ``username`` succeeded: who it is."""
        ...


class _CountedProcess(asyncssh.SSHServerProcess):  # type: ignore[type-arg]
    """asyncssh's server process (a shell or command on one session
    channel) that tells ``closed()`` once when its channel closes."""

    def __init__(self, handle: Callable[[Any], Awaitable[None]], closed: Callable[[], None]) -> None:
        super().__init__(handle, None, MIN_SFTP_VERSION, False)
        self._closed: Callable[[], None] | None = closed
        self.ticket: Ticket | None = None
        """The gate's count of this session (the connection's own for its first)."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._closed is not None:
            closed, self._closed = self._closed, None
            closed()


class DoorSshServer(asyncssh.SSHServer):
    """asyncssh's server hooks, handed to an :class:`Authenticator` made for
    the connection by ``make_authenticator(peer, close)`` (``peer``:
    ``"host:port"``; ``close()`` ends the connection).  ``identity`` is set
    only when asyncssh reports that authentication completed.

    ``handle(process)`` runs each session channel's shell.  One connection
    may open at most ``channels`` session channels at once (``[limits]
    ssh_sessions``; one connection opened 210 shells and filled
    the door); each one past the first is counted by the ``gate`` as a
    connection of its own, so that the per-address and total limits count
    sessions, not TCP connections.  Any other is refused with a channel-open
    failure the client shows ("Session refused: ...")."""

    def __init__(self, make_authenticator: Callable[[str, Callable[[], None]], Authenticator[Any]],
                 gate: ConnectionGate | None = None,
                 handle: Callable[[Any], Awaitable[None]] | None = None, channels: int = 1) -> None:
        self.make_authenticator = make_authenticator
        self.gate = gate
        self.handle = handle
        self.channels = channels
        self.open_channels = 0
        """Session channels of this connection open now."""
        self.auth: Authenticator[Any] | None = None
        self.identity: Any = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self._address: str | None = None
        self.ticket: Ticket | None = None
        """The gate's count of this connection (its first session's), until connection_lost."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        address = address_of(peer)
        if self.gate is not None:
            ticket = self.gate.admit(address, close=conn.abort)
            if ticket.refused is not None:  # before the key exchange: nothing is spent on it
                conn.abort()
                self.auth = _Refused()
                return
            self._address, self.ticket = address, ticket
        self.auth = self.make_authenticator(f"{peer[0]}:{peer[1]}" if peer else "?", conn.close)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None  # (it held the connection, which holds this server object)

    def session_requested(self) -> Any:
        """A new session channel: a process that runs :attr:`handle`, or a
        ``ChannelOpenError`` when this connection has :attr:`channels` open
        already, or when the gate refuses one more from its address."""
        if self.handle is None:
            return False
        if self.open_channels >= self.channels:
            log.info("ssh session refused for %s: %d already open on the connection", self._address,
                     self.open_channels, extra={"source": self._address})
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            f"this door takes {self.channels} session(s) per connection")
        ticket = self.ticket if self.open_channels == 0 else None
        if self.open_channels > 0 and self.gate is not None and self._address is not None:
            conn = self.conn
            ticket = self.gate.admit(self._address, close=conn.abort if conn is not None else lambda: None)
            if ticket.refused is not None:
                raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, ticket.refused)
        self.open_channels += 1
        extra = ticket if ticket is not self.ticket else None

        def closed() -> None:
            self.open_channels -= 1
            if extra is not None:
                extra.release()

        process = _CountedProcess(self.handle, closed)
        process.ticket = ticket
        return process

    async def begin_auth(self, username: str) -> bool:
        assert self.auth is not None
        self.identity = None
        return await self.auth.begin_auth(username)

    def auth_completed(self) -> None:
        assert self.auth is not None and self.conn is not None
        self.identity = self.auth.completed(str(self.conn.get_extra_info("username")))

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        assert self.auth is not None
        return await self.auth.validate_public_key(username, openssh_key(key))

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        assert self.auth is not None
        return await self.auth.validate_password(username, password)


class _Refused:
    """The authenticator of a connection the gate refused: nobody gets in."""

    async def begin_auth(self, username: str) -> bool:
        return True

    async def validate_public_key(self, username: str, key: str) -> bool:
        return False

    async def validate_password(self, username: str, password: str) -> bool:
        return False

    def completed(self, username: str) -> None:
        return None


def openssh_key(key: asyncssh.SSHKey) -> str:
    """A public key as ``"TYPE BASE64"`` (the OpenSSH form, no comment)."""
    parts = key.export_public_key("openssh").decode("ascii").split()
    return " ".join(parts[:2])


def load_host_key(data_dir: Path) -> HostKey:
    """The server's ed25519 host key from ``data_dir/ssh_host_ed25519_key``,
    generated on first start with file mode 0600.  Raises ``OSError`` when
    the folder cannot be written, and :class:`~door.net.private.SecretFileError`
    when the key is readable by others."""
    path = data_dir / "ssh_host_ed25519_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        log.info("generated SSH host key %s", path)
    check_private(path, "the SSH host key")
    return asyncssh.read_private_key(str(path))


class _ProxiedListen:
    """What asyncssh calls a tunnel to listen through: here the door's own
    TCP listener, whose connections begin with a load balancer's PROXY
    protocol header (:func:`~door.net.proxy_protocol.proxied`)."""

    def __init__(self, proxies: Sequence[str], reuse_port: bool) -> None:
        self.proxies, self.reuse_port = proxies, reuse_port

    async def create_server(self, session_factory: Callable[[str, int], Any], host: str,
                            port: int) -> asyncio.AbstractServer:
        return await asyncio.get_running_loop().create_server(
            proxied(lambda: session_factory(host, port), self.proxies, "ssh"), host, port,
            reuse_port=self.reuse_port or None)


async def start_ssh(bind: Bind, session: Callable[[Terminal, Any], Awaitable[None]],
                    host_key: asyncssh.SSHKey,
                    make_authenticator: Callable[[str, Callable[[], None]], Authenticator[Any]],
                    login_timeout: float = 60.0, gate: ConnectionGate | None = None,
                    channels: int = 1, proxies: Sequence[str] = ()) -> Listener:
    """Listen for SSH callers where ``bind`` says and run
    ``session(terminal, identity)`` for each shell, ``identity`` being what
    the connection's :class:`Authenticator` said at the end of
    authentication.  ``gate`` counts connections from the moment of accept
    (:class:`~door.net.gate.ConnectionGate`); ``channels``:
    the session channels one connection may have open at once
    (:class:`DoorSshServer`); ``proxies``: the load balancers whose PROXY
    protocol header names the caller (:mod:`door.net.proxy_protocol`)."""

    async def handle(process: Any) -> None:
        terminal = SshTerminal(process)
        owner = process.channel.get_connection().get_owner()
        identity = owner.identity if isinstance(owner, DoorSshServer) else None
        await terminal.run_session(lambda t: session(t, identity))

    extra: dict[str, Any] = {"tunnel": _ProxiedListen(proxies, bind.reuse_port)} if proxies else {}
    acceptor = await asyncssh.listen(
        bind.host, bind.port, **extra, server_factory=lambda: DoorSshServer(make_authenticator, gate, handle, channels),
        server_host_keys=[host_key], encoding=None, line_editor=False,
        agent_forwarding=False, x11_forwarding=False, allow_pty=True,
        login_timeout=login_timeout, keepalive_interval=30, reuse_port=bind.reuse_port or None)
    return Listener("ssh", acceptor, acceptor.sockets)
