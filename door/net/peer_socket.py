"""Serve processes handing callers to one another (issue 16.2, across
processes and machines sharing one PostgreSQL store).

Each serve process on a shared store listens on a *peer port* (TCP) and
registers its address and a random token in the store
(:mod:`door.records.nodes`).  When a caller wants the sysop and the sysop
is at another process's console, their process connects to that one's
peer port, sends one line, ``PEER {json}`` (:class:`PeerHello`: the token,
the caller's name and account, window size, charset and terminal type,
and whom they come to challenge, if anyone),
and then relays the caller's bytes both ways
(:func:`door.net.relay.relay`).  The caller is from then on a session
of the other process, as a BBS node's caller is of the local server.

Only a holder of the token (read from the store) is let in: a hello
without the right one, a malformed or over-long one (over
:data:`HELLO_LIMIT` bytes), or none within :data:`HELLO_TIMEOUT` seconds
is refused and closed, and at most :data:`PENDING_LIMIT` connections may
be waiting to say hello at once.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from dataclasses import asdict, dataclass
from typing import Any, Awaitable, Callable

from door.net.charset import Charset
from door.net.hello import (HELLO_LIMIT, check_charset, check_name, check_whole, encode_hello, hello_fields, printable,
                            profile_named)
from door.net.relay import RelayedTerminal
from door.net.terminal import Terminal

__all__ = ["PeerHello", "PeerTerminal", "start_peers", "connect_peer", "HELLO_LIMIT", "HELLO_TIMEOUT",
           "PENDING_LIMIT"]

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to send its hello."""

PENDING_LIMIT = 64
"""Connections that may be waiting to say hello at once; more are closed at once."""

TERM_LIMIT = 40
"""The longest terminal type a hello carries, in characters."""


@dataclass(frozen=True)
class PeerHello:
    """What a serve process says of the caller it hands over: the other
    process's ``token``, the caller's ``name`` and ``account`` id (``None``
    for a guest), the window size ``cols`` x ``rows`` in cells, the output
    ``charset`` name and the terminal type ``term``."""

    token: str
    name: str
    account: int | None
    cols: int
    rows: int
    charset: str
    term: str
    challenge: str = ""
    """A caller at this node's main menu whom the caller comes to challenge
    (issue 16.3 across nodes); empty: none."""

    def encode(self) -> bytes:
        """The hello line, ``PEER {json}\\n``."""
        return encode_hello("PEER", asdict(self))

    @classmethod
    def for_terminal(cls, token: str, name: str, account: int | None, terminal: Terminal,
                     challenge: str = "") -> "PeerHello":
        """The hello for the caller at ``terminal``: its size, charset and
        terminal type (what the client sent, made printable), and whom
        they come to ``challenge``."""
        return cls(token, name, account, terminal.cols, terminal.rows, terminal.charset.name,
                   printable(terminal.term_type, TERM_LIMIT), challenge)

    @classmethod
    def decode(cls, line: bytes) -> "PeerHello":
        """Read a hello line.  Raises ``ValueError`` (saying what is wrong)
        for anything but a well-formed one."""
        fields = hello_fields(line, "PEER", cls.__dataclass_fields__)
        token, name, account = fields["token"], fields["name"], fields["account"]
        cols, rows, charset, term = fields["cols"], fields["rows"], fields["charset"], fields["term"]
        challenge = fields["challenge"]
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            raise ValueError("token: a string")
        check_name(name)
        if account is not None and (not isinstance(account, int) or isinstance(account, bool) or account < 1):
            raise ValueError("account: a positive whole number or null")
        for label, value in (("cols", cols), ("rows", rows)):
            check_whole(label, value)
        check_charset(charset)
        if not isinstance(term, str) or term != printable(term, TERM_LIMIT):
            raise ValueError(f"term: up to {TERM_LIMIT} printable characters")
        if challenge != "":
            check_name(challenge)
        return cls(token, name, account, cols, rows, charset, term, challenge)

    @property
    def profile(self) -> Charset:
        """The :class:`Charset` named by ``charset``."""
        return profile_named(self.charset)


class PeerTerminal(RelayedTerminal):
    """A :class:`Terminal` over a peer connection: a caller relayed by the
    serve process they called."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: PeerHello) -> None:
        peer = writer.get_extra_info("peername")
        where = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "peer"
        super().__init__("peer", f"peer {where}", hello.term or "ansi", hello.cols, hello.rows, reader, writer)
        self.charset = hello.profile


async def start_peers(host: str, port: int, token: str,
                      session: Callable[[PeerTerminal, PeerHello], Awaitable[None]]) -> Any:
    """Listen on ``host``:``port`` (0: any free port) and run
    ``session(terminal, hello)`` for each caller another node hands over
    with the right ``token``.  Returns the asyncio server."""
    pending = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal pending
        if pending >= PENDING_LIMIT:
            writer.close()
            return
        pending += 1
        try:
            hello = PeerHello.decode(await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT))
            if not hmac.compare_digest(hello.token.encode(), token.encode()):
                raise ValueError("wrong token")
        except (asyncio.TimeoutError, ValueError, ConnectionError) as exc:
            log.warning("peer hello from %s refused: %s", writer.get_extra_info("peername"), exc)
            writer.write(b"\r\nThis port is only for the door's own servers.\r\n")
            writer.close()
            return
        finally:
            pending -= 1
        terminal = PeerTerminal(reader, writer, hello)
        try:
            await terminal.run_session(lambda _: session(terminal, hello))
        except asyncio.CancelledError:
            pass  # the server is stopping; this handler is the task's outermost frame

    return await asyncio.start_server(handle, host, port, limit=HELLO_LIMIT)


async def connect_peer(address: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to another node's peer port, or ``None`` when it
    cannot be reached within 5 seconds."""
    try:
        return await asyncio.wait_for(asyncio.open_connection(address, port), 5)
    except (OSError, asyncio.TimeoutError):
        return None
