"""The telnet transport: a telnetlib3 listener and its :class:`Terminal`.

The listener runs telnetlib3 in bytes mode (``encoding=False``): the server
negotiates WILL SGA, WILL ECHO (character at a time, the "kludge" mode that
Debian's ``telnet`` and BBS terminals use), BINARY, NAWS and TTYPE; the
session encodes its own output (CP437 or UTF-8) and sends CR LF itself.  IAC
bytes are escaped on write by telnetlib3 (FIELD_NOTES.md).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

import telnetlib3
from telnetlib3 import telopt

from door.net.bucket import TokenBucket
from door.net.cycles import untie_transport
from door.net.gate import ConnectionGate, Ticket, address_of, sorry
from door.net.listener import Bind, Listener
from door.net.proxy_protocol import proxied
from door.net.terminal import Terminal, TerminalKind

__all__ = ["TelnetTerminal", "start_telnet", "gated_protocol"]

log = logging.getLogger(__name__)

MTTS_SCREEN_READER = 64
"""MTTS's bit for a client used with a screen reader."""
MTTS_ANSWERS = 8
"""TTYPE answers looked at for an MTTS one (telnetlib3 stops the cycle at its own limit)."""

SEND_BUFFER = 64 * 1024
"""Bytes of kernel send buffer per telnet connection."""


class TelnetTerminal(Terminal):
    """A :class:`Terminal` over a telnetlib3 reader and writer (bytes mode)."""

    def __init__(self, reader: Any, writer: Any) -> None:
        peer = writer.get_extra_info("peername")
        peer_text = f"{peer[0]}:{peer[1]}" if peer else "?"
        term = writer.get_extra_info("TERM") or "unknown"
        cols = int(writer.get_extra_info("cols") or 80)
        rows = int(writer.get_extra_info("rows") or 24)
        lang = writer.get_extra_info("LANG")
        super().__init__(TerminalKind.TELNET, peer_text, term, cols, rows, lang=lang)
        self._reader = reader
        self._writer = writer
        try:
            sized = bool(writer.remote_option.enabled(telopt.NAWS))
        except AttributeError:
            sized = False
        if not sized and self.charset.name == "cp437":
            self.rows = 25  # a BBS terminal that sends no size is 80x25 (NetRunner knows nothing else)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)  # notice dead lines
                # a bounded kernel buffer, so that a caller who stops reading is
                # noticed by the door's own limit rather than hidden by the kernel
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:
                pass
        writer.set_ext_callback(telopt.NAWS, self._on_naws)

    def wants_lines(self) -> bool:
        """As :meth:`Terminal.wants_lines`, and a client that answered the
        TTYPE cycle with ``MTTS <n>`` where ``n`` has the screen-reader bit
        (64: FIELD_NOTES.md; telnetlib3 keeps each answer as ``ttype1``,
        ``ttype2`` ...)."""
        if super().wants_lines():
            return True
        for i in range(1, MTTS_ANSWERS + 1):
            answer = self._writer.get_extra_info(f"ttype{i}")
            if isinstance(answer, str) and answer[:5].upper() == "MTTS " and answer[5:].strip().isdigit():
                return bool(int(answer[5:].strip()[:10]) & MTTS_SCREEN_READER)
        return False

    def _on_naws(self, rows: int, cols: int) -> None:
        # telnetlib3 passes (rows, cols); keep its own record current too.
        try:
            self._writer.protocol.on_naws(rows, cols)
        except AttributeError:
            pass
        self.resized(cols, rows)

    async def pump(self) -> None:
        """Read the socket until it closes, feeding the terminal."""
        await self.pump_from(lambda: self._reader.read(4096))

    def _write(self, data: bytes) -> None:
        self._writer.write(data)

    counts_output = True

    def buffered(self) -> int:
        transport = getattr(self._writer, "transport", None)
        return int(transport.get_write_buffer_size()) if transport is not None else 0

    async def _drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, OSError, RuntimeError, AttributeError):
            self.lost()

    def close(self) -> None:
        if not self._writer.is_closing():
            self._writer.close()
        self.closed = True
        self._abort_later()

    def abort(self) -> None:
        transport = getattr(self._writer, "transport", None)
        if transport is not None:
            transport.abort()
        self.closed = True


READ_SIZE = 4096
"""The most a telnet connection's socket is read at once, in bytes
(asyncio reads up to 256 KiB).  telnetlib3 parses what one read brings in
one go, and telnet commands it answers itself (a storm of window sizes)
never reach the door's input limit: 256 KiB of NAWS kept the event loop
for over a second, and every other caller waited (``python3 -m
bench.abuse --only resize-storm``: honest p99 1,364 ms).  A typist's or a
paste's bytes are the same, in more reads."""

READ_RATE = 32 * 1024
"""Bytes a second one telnet connection is read at, past a burst of
:data:`READ_BURST`: its fair share of the event loop.  Beyond it the
socket is not read until the share comes round again (the bytes wait in
the sender's TCP window).  A typist sends a few bytes a second; the door
holds a paste to 1 KiB of unread keys anyway; a storm of telnet commands
is the one thing it slows."""

READ_BURST = 16 * 1024
"""Bytes a telnet connection may send at once before :data:`READ_RATE` holds it."""


def _nothing() -> None:
    return None


def gated_protocol(gate: ConnectionGate, login_timeout: float) -> type[telnetlib3.TelnetServer]:
    """A telnetlib3 protocol class that asks ``gate`` at accept (refused:
    one line of text and the socket closes, before any negotiation), closes
    a connection whose shell has not started within ``login_timeout``
    seconds, reads at most :data:`READ_SIZE` bytes at once and
    :data:`READ_RATE` a second (:class:`~door.net.bucket.TokenBucket`), and wakes a
    writer waiting in ``drain()`` when the connection is lost (telnetlib3
    5.0's ``connection_lost`` does not, so a session writing to a caller who
    hung up waited forever and kept its slot)."""

    class GatedTelnetServer(telnetlib3.TelnetServer):
        _door_address = "?"
        _door_counted = False
        _door_refused = False
        door_started = False
        door_ticket: Ticket
        _door_deadline: asyncio.TimerHandle | None = None
        _door_waiting = False
        _door_share: TokenBucket

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self._door_address = address_of(transport.get_extra_info("peername"))
            self.door_ticket = gate.admit(self._door_address, close=cast(asyncio.Transport, transport).abort)
            why = self.door_ticket.refused
            if why is not None:
                self._door_refused = True
                self._closing = True  # telnetlib3's Server forgets closing protocols
                try:
                    assert isinstance(transport, asyncio.WriteTransport)
                    transport.write(f"\r\n{sorry(why)}\r\n".encode("ascii", "replace"))
                finally:
                    transport.close()
                return
            self._door_counted = True
            self._door_deadline = asyncio.get_running_loop().call_later(login_timeout, self._door_too_slow)
            if hasattr(transport, "max_size"):  # asyncio's socket transport: at most this much a read
                transport.max_size = READ_SIZE
            loop = asyncio.get_running_loop()
            self._door_share = TokenBucket(READ_RATE, READ_BURST, loop.time)
            super().connection_made(transport)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            wait = self._door_share.spent(len(data))
            transport = self._transport
            if wait > 0 and transport is not None and not self._door_waiting:
                self._door_waiting = True  # over its share: the socket is not read for a while
                transport.pause_reading()
                asyncio.get_running_loop().call_later(wait, self._door_read_again)

        def _door_read_again(self) -> None:
            self._door_waiting = False
            transport = self._transport
            if transport is not None and not transport.is_closing():
                transport.resume_reading()

        def _door_too_slow(self) -> None:
            self._door_deadline = None
            if not self.door_started and self._transport is not None:
                log.info("telnet %s did not reach the name prompt in %g s: closing", self._door_address,
                         login_timeout, extra={"source": self._door_address})
                self._transport.abort()

        def begin_shell(self, future: asyncio.Future[None]) -> None:
            self.door_started = True
            super().begin_shell(future)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._door_refused:
                return
            if self._door_counted:
                self._door_counted = False
                self.door_ticket.release()
                self.door_ticket.close = _nothing  # (it held the transport, which holds this protocol)
            if self._door_deadline is not None:
                self._door_deadline.cancel()
                self._door_deadline = None
            transport = self._transport
            try:
                super().connection_lost(exc)
            finally:
                # asyncio's flow control: wake anyone waiting in drain()
                asyncio.streams.FlowControlMixin.connection_lost(self, exc)
                untie(transport, self.writer)

    return GatedTelnetServer


RECEIVED_CALLBACKS = ("_iac_callback", "_slc_callback", "_ext_callback", "_ext_send_callback", "_ext_offer_callback")
"""telnetlib3 5.x's writer tables of what to call for a command received:
each holds bound methods of the writer, a cycle."""

OPTION_TABLES = ("pending_option", "local_option", "remote_option")
"""telnetlib3 5.x's writer tables of options, each of which calls back the
writer when it changes (``Option._on_change``, a bound method: a cycle)."""


def untie(transport: object, writer: object) -> None:
    """Break the reference cycles a lost telnet connection would leave to
    the cyclic collector (the door freezes what survives, so a
    cycle formed before it became garbage waits for a full collection):
    asyncio's socket transport refers to itself (``_read_ready_cb``, a
    bound method), and telnetlib3's writer through its tables of
    callbacks for commands received, which no byte reaches once the
    connection is lost, and through its option tables' change callback.  Whatever still holds the writer (the session
    ending) may write to it and close it as before."""
    untie_transport(transport)
    for name in RECEIVED_CALLBACKS:
        table = getattr(writer, name, None)
        if isinstance(table, dict):
            table.clear()
    for name in OPTION_TABLES:
        option: Any = getattr(writer, name, None)
        if hasattr(option, "_on_change"):
            option._on_change = None  # (the options still read as they were)


async def start_telnet(bind: Bind, session: Callable[[Terminal], Awaitable[None]],
                       idle_timeout: int = 900, connect_maxwait: float = 4.0,
                       gate: ConnectionGate | None = None, login_timeout: float = 60.0,
                       proxies: Sequence[str] = ()) -> Listener:
    """Listen for telnet callers where ``bind`` says and
    run ``session(terminal)`` for each.  ``idle_timeout``: seconds of silence
    before telnetlib3 disconnects a caller; ``connect_maxwait``: seconds to
    wait for a client that never negotiates; ``gate``: counts connections
    at accept (:class:`~door.net.gate.ConnectionGate`; none: unlimited);
    ``login_timeout``: seconds a connection may take to reach the name
    prompt; ``proxies``: the load balancers whose PROXY protocol header
    names the caller (:mod:`door.net.proxy_protocol`).  With ``bind.reuse_port`` several worker processes listen on
    one port and the kernel spreads the callers among them.  Raises
    ``OSError`` when the port is taken.

    The listener is asyncio's own, making telnetlib3's protocol for each
    connection: ``telnetlib3.create_server`` has no ``reuse_port``, and its
    ``Server`` keeps every protocol and every negotiated connection in
    lists and a queue for ``wait_for_client()``, which the door never calls
    (its queue of 1,000 kept the last thousand finished calls alive)."""

    async def shell(reader: Any, writer: Any) -> None:
        terminal = TelnetTerminal(reader, writer)
        terminal.ticket = getattr(writer.protocol, "door_ticket", None)
        await terminal.run_session(session)

    gate = gate or ConnectionGate(1 << 30, 1 << 30)
    protocol = gated_protocol(gate, login_timeout)

    def factory() -> asyncio.Protocol:
        return protocol(shell=shell, encoding=False, timeout=idle_timeout, connect_maxwait=connect_maxwait,
                        cols=80, rows=24, term="unknown")

    server = await asyncio.get_running_loop().create_server(proxied(factory, proxies, "telnet"), bind.host, bind.port,
                                                            reuse_port=bind.reuse_port or None)
    return Listener("telnet", server, server.sockets)
