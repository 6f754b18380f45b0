"""The rlogin listener (RFC 1282) for callers from other boards.

A member board connects for each of its callers and sends ``\\0``, then
``client-user\\0server-user\\0terminal/speed\\0``; the door answers one
``\\0`` byte and asks for the window size with the urgent byte 0x80, which
the client answers in band with ``\\xff\\xff`` ``ss`` and rows, columns,
x pixels, y pixels as 16-bit big-endian numbers (again whenever the window
changes).  Who the caller is, and whether the board may send them, is
decided above this layer (:mod:`door.caller.hub`); this module only reads
the handshake, safely: one that is late, too long, or malformed closes the
connection with no answer.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from door.net.gate import ConnectionGate, address_of, in_networks
from door.net.listener import Bind, Listener
from door.net.proxy_protocol import proxied
from door.net.stream_terminal import StreamTerminal
from door.net.terminal import TerminalKind

__all__ = ["Handshake", "HandshakeError", "RloginTerminal", "parse_handshake", "start_rlogin", "Strangers",
           "HANDSHAKE_LIMIT", "FIELD_LIMIT"]

log = logging.getLogger(__name__)

HANDSHAKE_LIMIT = 512
"""The longest handshake read, in bytes (the RFC allows far less)."""

HANDSHAKE_TIMEOUT = 10.0
"""Seconds a connection may take to send its handshake (a board's rlogin
client sends it at once; a stranger holding connections open idle would
take the hub's places for longer)."""

FIELD_LIMIT = 128
"""The longest client user, server user or terminal field, in bytes."""

WINDOW = b"\xff\xffss"
"""The in-band window-size message's start (12 bytes in all)."""


class HandshakeError(ValueError):
    """An rlogin handshake the door does not take; the message says why."""


@dataclass(frozen=True)
class Handshake:
    """The three fields of an rlogin handshake, decoded from UTF-8 (bad
    bytes replaced): ``client_user``, ``server_user``, and the terminal
    ``term`` and line ``speed`` (0 when not given); ``start``: the screen
    the board asks to start on, written after the terminal type with a
    ``+`` (``ansi-bbs+computer/38400``; empty: the menu)."""

    client_user: str
    server_user: str
    term: str
    speed: int = 0
    start: str = ""


def parse_handshake(data: bytes) -> Handshake:
    """The handshake in ``data`` (``\\0`` then three NUL-terminated fields,
    nothing after).  Raises :class:`HandshakeError` for anything else: a
    missing leading NUL, a missing field, a field over :data:`FIELD_LIMIT`
    bytes, or control characters in a field."""
    if not data.startswith(b"\0"):
        raise HandshakeError("the handshake does not start with a NUL byte")
    parts = data[1:].split(b"\0")
    if len(parts) != 4 or parts[3] != b"":
        raise HandshakeError("the handshake is not client-user, server-user and terminal/speed, each NUL-ended")
    fields = []
    for raw in parts[:3]:
        if len(raw) > FIELD_LIMIT:
            raise HandshakeError(f"a handshake field is over {FIELD_LIMIT} bytes")
        text = raw.decode("utf-8", "replace")
        if any(ord(c) < 32 or ord(c) == 127 for c in text):
            raise HandshakeError("a handshake field holds control characters")
        fields.append(text)
    term, _, speed = fields[2].partition("/")
    term, _, start = term.partition("+")
    return Handshake(fields[0], fields[1], term, int(speed) if speed.isdigit() and len(speed) <= 9 else 0,
                     start.lower()[:16])


async def read_handshake(reader: asyncio.StreamReader) -> Handshake:
    """Read exactly one handshake: the leading NUL and three NUL-ended
    fields.  Raises :class:`HandshakeError` (or ``asyncio.IncompleteReadError``
    when the line ends first)."""
    data = await reader.readexactly(1)
    nuls = 0
    while nuls < 3:
        byte = await reader.readexactly(1)
        data += byte
        if byte == b"\0":
            nuls += 1
        if len(data) > HANDSHAKE_LIMIT:
            raise HandshakeError(f"the handshake is over {HANDSHAKE_LIMIT} bytes")
    return parse_handshake(data)


class RloginTerminal(StreamTerminal):
    """A caller over rlogin: keys as they come, but the window-size
    messages (``\\xff\\xffss`` and 8 bytes) are taken out of the input and
    resize the screen."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer: str,
                 handshake: Handshake) -> None:
        super().__init__(TerminalKind.RLOGIN, peer, handshake.term, 80, 24, reader, writer)
        self._pending = b""

    def received(self, data: bytes) -> None:
        data = self._pending + data
        self._pending = b""
        out = bytearray()
        i = 0
        while i < len(data):
            at = data.find(b"\xff", i)
            if at < 0:
                out += data[i:]
                break
            out += data[i:at]
            rest = data[at:at + 12]
            if len(rest) < 12 and WINDOW.startswith(rest[:4]):
                self._pending = data[at:]  # (a window-size message cut in two by the network)
                break
            if rest.startswith(WINDOW):
                rows, cols = int.from_bytes(rest[4:6], "big"), int.from_bytes(rest[6:8], "big")
                if rows and cols:
                    self.resized(cols, rows)
                i = at + 12
                continue
            out += b"\xff"
            i = at + 1
        if out:
            self.feed(bytes(out))


RloginSession = Callable[[RloginTerminal, Handshake], Awaitable[None]]


class Strangers:
    """Calls refused because they came from no member board's address:
    counted, and logged at the first, tenth, hundredth and every
    thousandth (a scan is news once, not a line each)."""

    def __init__(self) -> None:
        self.refused = 0

    def refuse(self, peer: str) -> None:
        self.refused += 1
        if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
            log.warning("rlogin from %s refused: no member board calls from there (%d refused so far)", peer,
                        self.refused)


async def start_rlogin(bind: Bind, session: RloginSession, gate: ConnectionGate,
                       login_timeout: float = 60.0, members: Sequence[str] | None = None,
                       strangers: Strangers | None = None, proxies: Sequence[str] = ()) -> Listener:
    """Listen for rlogin where ``bind`` says; each connection that
    ``gate`` admits and that sends a handshake within ``login_timeout``
    seconds is answered (``\\0``, then the urgent byte asking for the
    window size) and handed to ``session`` with its terminal.
    ``members``: the addresses and networks member boards call from
    (``None``: any); a call from elsewhere is closed at once, before a
    byte of it is read (its secret included), and counted in
    ``strangers``; ``proxies``: the load balancers whose PROXY protocol
    header names the caller (:mod:`door.net.proxy_protocol`).  Raises
    ``OSError`` when the port is taken."""
    strangers = strangers or Strangers()

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer_name = writer.get_extra_info("peername")
        peer = f"{peer_name[0]}:{peer_name[1]}" if isinstance(peer_name, tuple) else str(peer_name)
        address = address_of(peer)
        if members is not None and not in_networks(address, members):
            strangers.refuse(peer)
            writer.transport.abort()
            return
        ticket = gate.admit(address, close=writer.transport.abort)
        if ticket.refused is not None:
            log.warning("rlogin from %s refused: %s", peer, ticket.refused)
            writer.close()
            return
        try:
            try:
                handshake = await asyncio.wait_for(read_handshake(reader), min(login_timeout, HANDSHAKE_TIMEOUT))
            except (TimeoutError, HandshakeError, asyncio.IncompleteReadError, ConnectionError) as exc:
                log.warning("rlogin from %s: no handshake: %s", peer, exc or type(exc).__name__)
                writer.close()
                return
            terminal = RloginTerminal(reader, writer, peer, handshake)
            terminal.ticket = ticket
            writer.write(b"\0")
            sock = writer.get_extra_info("socket")
            if sock is not None:
                try:  # ask for the window size: urgent data, as rlogind does (on a copy of the descriptor:
                    with sock.dup() as raw:  # asyncio's own socket object sends nothing itself)
                        raw.send(b"\x80", socket.MSG_OOB)
                except OSError:
                    pass
            await terminal.run_session(lambda t: session(terminal, handshake))
        finally:
            ticket.release()

    loop = asyncio.get_running_loop()

    def factory() -> asyncio.StreamReaderProtocol:  # (what asyncio.start_server makes for each connection)
        return asyncio.StreamReaderProtocol(asyncio.StreamReader(limit=HANDSHAKE_LIMIT * 8, loop=loop), connected)

    server = await loop.create_server(proxied(factory, proxies, "rlogin"), bind.host, bind.port)
    return Listener("rlogin", server, server.sockets)
