"""The SSH transport: an asyncssh listener and its :class:`Terminal`.

asyncssh runs with ``encoding=None`` (bytes) and ``line_editor=False`` (its
line editor would buffer input until Enter and eat arrow keys).  A window
change makes ``stdin.read()`` raise ``TerminalSizeChanged``, which becomes a
resize; a client that asked for no PTY gets 80x24 (FIELD_NOTES.md).  A user
name that is not registered logs in with no password and is offered as the
caller's name; a registered one authenticates; a sysop's name authenticates
with the sysop's key or password and gets the sysop console
(:class:`DoorSshServer`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import asyncssh

from door.records.passwords import verify_password
from door.net.private import check_private
from door.net.terminal import Terminal

if TYPE_CHECKING:
    from door.config import SysopConfig
    from door.context import DoorContext
    from door.records.store import Account

__all__ = ["SshTerminal", "DoorSshServer", "start_ssh", "load_host_key", "openssh_key"]

log = logging.getLogger("door.net.ssh")


class SshTerminal(Terminal):
    """A :class:`Terminal` over an asyncssh server process (bytes)."""

    def __init__(self, process: Any) -> None:
        peer = process.get_extra_info("peername")
        peer_text = f"{peer[0]}:{peer[1]}" if peer else "?"
        term = process.get_terminal_type() or "unknown"
        cols, rows = process.get_terminal_size()[:2]
        env = process.env or {}
        super().__init__("ssh", peer_text, term, cols or 80, rows or 24,
                         username=process.get_extra_info("username"), lang=env.get("LANG"))
        self._process = process

    async def pump(self) -> None:
        """Read the channel until it closes, feeding the terminal."""
        try:
            while True:
                try:
                    data = await self._process.stdin.read(4096)
                except asyncssh.TerminalSizeChanged as change:
                    self.resized(change.width, change.height)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    break
                self.feed(data)
        except (asyncssh.Error, ConnectionError, OSError) as exc:
            log.debug("ssh read from %s ended: %s", self.peer, exc)
        finally:
            self.lost()

    def _write(self, data: bytes) -> None:
        self._process.stdout.write(data)

    def buffered(self) -> int:
        try:
            return int(self._process.channel.get_write_buffer_size())
        except (AttributeError, asyncssh.Error):
            return 0

    async def drain(self) -> None:
        if self.closed:
            return
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


class DoorSshServer(asyncssh.SSHServer):
    """SSH authentication for the door.

    A user name that is not a registered account logs in without
    authentication (a guest, or a caller who logs in inside the door).  A
    registered name must prove itself: with a public key linked to the
    account, or else with the account's password (wrong ones are slowed down
    and logged).  A key offered but unknown is remembered so that the door
    can offer to link it after a password login.

    Identity (``sysop``, ``account``) is set only in :meth:`auth_completed`,
    from the last method that succeeded and only for the user name that
    authenticated: asyncssh calls :meth:`validate_public_key` for an
    unsigned key *query* too (RFC 4252 section 7), so a key that merely
    matched proves nothing until the connection says authentication is
    complete, and every new user name (:meth:`begin_auth`) starts from
    nothing."""

    def __init__(self, ctx: "DoorContext") -> None:
        self.ctx = ctx
        self.sysop_candidate: "SysopConfig | None" = None
        self.candidate: "Account | None" = None
        self.sysop: "SysopConfig | None" = None
        self.account: "Account | None" = None
        self.offered_key: str | None = None
        self._proved: "tuple[str, SysopConfig | None, Account | None] | None" = None
        """(user name, sysop, account) the last method proved, until
        authentication completes."""
        self.peer = "?"
        self.conn: asyncssh.SSHServerConnection | None = None
        self.wrong_passwords = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"

    async def _wrong_password(self, name: str, where: str) -> None:
        """Slow the next try down; close the connection after too many."""
        self.wrong_passwords += 1
        await asyncio.sleep(self.ctx.throttle.failure(name, self.peer, where))
        if self.wrong_passwords >= self.ctx.limits.ssh_password_attempts and self.conn is not None:
            log.warning("closing %s after %d wrong passwords", self.peer, self.wrong_passwords)
            self.conn.close()

    async def begin_auth(self, username: str) -> bool:
        self.sysop_candidate = self.candidate = None
        self.sysop = self.account = None
        self.offered_key = None
        self._proved = None
        self.sysop_candidate = self.ctx.sysop(username)
        if self.sysop_candidate is not None:
            return True
        self.candidate = await self.ctx.store.find_account(username)
        return self.candidate is not None

    def auth_completed(self) -> None:
        """Authentication succeeded: the identity is what the last method
        proved, for the user name the connection authenticated (a guest
        name proves nothing)."""
        username = self.conn.get_extra_info("username") if self.conn is not None else None
        if self._proved is not None and self._proved[0] == username:
            _, self.sysop, self.account = self._proved
        if self.account is None:
            self.offered_key = None  # nothing proved: no key to link
        self._proved = None

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._proved = None
        text = openssh_key(key)
        if self.sysop_candidate is not None:
            if text in self.sysop_candidate.ssh_keys:
                self._proved = (username, self.sysop_candidate, None)
                return True
            return False
        if self.candidate is None:
            return False
        if await self.ctx.store.key_matches(self.candidate.id, text):
            self._proved = (username, None, self.candidate)
            self.offered_key = None  # logged in by key: nothing to link
            return True
        self.offered_key = text
        return False

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        self._proved = None
        if self.sysop_candidate is not None:
            stored = self.sysop_candidate.password
            ok = False
            if stored:
                ok = await asyncio.to_thread(verify_password, password, stored)
            if ok:
                self.ctx.throttle.success(self.sysop_candidate.name)
                self._proved = (username, self.sysop_candidate, None)
                return True
            await self._wrong_password(self.sysop_candidate.name, "ssh (sysop)")
            return False
        if self.candidate is None:
            return False
        stored = await self.ctx.store.password_hash(self.candidate.id)
        if await asyncio.to_thread(verify_password, password, stored):
            self.ctx.throttle.success(self.candidate.name)
            self._proved = (username, None, self.candidate)
            return True
        await self._wrong_password(self.candidate.name, "ssh")
        return False


def openssh_key(key: asyncssh.SSHKey) -> str:
    """A public key as ``"TYPE BASE64"`` (the OpenSSH form, no comment)."""
    parts = key.export_public_key("openssh").decode("ascii").split()
    return " ".join(parts[:2])


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
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


async def start_ssh(host: str, port: int, session: Callable[[Terminal], Awaitable[None]],
                    host_key: asyncssh.SSHKey, ctx: "DoorContext", login_timeout: float = 60.0) -> Any:
    """Listen for SSH callers on ``host``:``port`` (0: any free port) and run
    ``session(terminal)`` for each shell; ``ctx`` gives the accounts to
    authenticate against.  Returns the asyncssh acceptor (``close()``,
    ``wait_closed()``, ``get_port()``)."""

    async def handle(process: Any) -> None:
        terminal = SshTerminal(process)
        owner = process.channel.get_connection().get_owner()
        if isinstance(owner, DoorSshServer):
            terminal.account, terminal.offered_key = owner.account, owner.offered_key
            terminal.sysop = owner.sysop
        await terminal.run_session(session)

    return await asyncssh.listen(
        host, port, server_factory=lambda: DoorSshServer(ctx), server_host_keys=[host_key],
        process_factory=handle, encoding=None, line_editor=False,
        agent_forwarding=False, x11_forwarding=False, allow_pty=True,
        login_timeout=login_timeout, keepalive_interval=30)
