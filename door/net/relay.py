"""Relaying a caller to another door process, and the far end's terminal.

A door process under a BBS hands its caller to the running server over
the node socket (:mod:`door.net.node_socket`); a serve process hands a
caller to another node over its peer port (:mod:`door.net.peer_socket`).
Either way, after the hello line, :func:`relay` passes the caller's bytes
on and the far end's screen back, and the far end reads them through a
:class:`RelayedTerminal`.

The caller's bytes are framed, so that the relay can say more than what
was typed: :data:`ESCAPE` (NUL) starts a frame.  ``NUL NUL`` is one NUL the
caller sent; ``NUL W`` and four bytes (columns, rows: big-endian 16-bit)
is the caller's new window size (their client's NAWS or SSH window
change); any other byte after a NUL is dropped with it.  A caller cannot
forge a frame: each NUL they send arrives doubled.

The far end's bytes come back as they are, but for the last two: a far
end whose session ends in order (goodbye, the caller's time up) closes
with :data:`SESSION_END`, so that the relay can tell that from a far end
that died (its process killed, its machine gone), whose caller is then
kept by the process that relays them.
"""

from __future__ import annotations

import asyncio
import logging
import struct

from door.net.keys import KeyName
from door.net.stream_terminal import StreamTerminal
from door.net.terminal import Terminal, TerminalKind

__all__ = ["ESCAPE", "SESSION_END", "RelayedTerminal", "FrameDecoder", "relay", "window_frame"]

log = logging.getLogger(__name__)

ESCAPE = b"\0"
"""The byte that starts a frame in a relayed caller's stream."""

SESSION_END = b"\0\x04"
"""What a relayed session's far end sends last when it ends in order (a
door never writes NUL to a screen; the relay strips it)."""

_WINDOW = b"W"
_SIZE = struct.Struct(">HH")


def window_frame(cols: int, rows: int) -> bytes:
    """The frame saying the caller's window is now ``cols`` x ``rows``
    cells (each clamped to 0..65535)."""
    return ESCAPE + _WINDOW + _SIZE.pack(max(0, min(cols, 65535)), max(0, min(rows, 65535)))


class FrameDecoder:
    """Splits a relayed stream into the caller's bytes and window sizes;
    a frame cut between two reads is kept for the next."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
        """The caller's bytes in ``data`` and the window sizes ``(cols,
        rows)`` it carried, in order of arrival."""
        if self._pending:
            data, self._pending = self._pending + data, b""
        if ESCAPE not in data:
            return data, []
        out = bytearray()
        sizes: list[tuple[int, int]] = []
        i = 0
        while (j := data.find(ESCAPE, i)) >= 0:
            out += data[i:j]
            kind = data[j + 1:j + 2]
            if kind == _WINDOW:
                if j + 2 + _SIZE.size > len(data):
                    self._pending = data[j:]
                    return bytes(out), sizes
                sizes.append(_SIZE.unpack_from(data, j + 2))
                i = j + 2 + _SIZE.size
            elif not kind:
                self._pending = data[j:]
                return bytes(out), sizes
            else:
                if kind == ESCAPE:
                    out += ESCAPE
                i = j + 2
        out += data[i:]
        return bytes(out), sizes


class RelayedTerminal(StreamTerminal):
    """A :class:`StreamTerminal` whose stream is a relayed caller's
    (framed by :func:`relay`): their bytes become keys, a window frame a
    resize."""

    def __init__(self, kind: TerminalKind, peer: str, term_type: str, cols: int, rows: int,
                 reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str | None = None) -> None:
        super().__init__(kind, peer, term_type, cols, rows, reader, writer, address)
        self._frames = FrameDecoder()

    def close(self) -> None:
        """End the session in order: :data:`SESSION_END` goes last."""
        if not self.closed:
            self._write(SESSION_END)
        super().close()

    def received(self, data: bytes) -> None:
        typed, sizes = self._frames.feed(data)
        if typed:
            self.feed(typed)
        for cols, rows in sizes:
            self.resized(cols, rows)


def _end_begins(data: bytes) -> int:
    """How many bytes at the end of ``data`` may begin :data:`SESSION_END`."""
    for n in range(min(len(SESSION_END), len(data)), 0, -1):
        if data.endswith(SESSION_END[:n]):
            return n
    return 0


async def relay(terminal: Terminal, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                hello: bytes) -> bool:
    """Hand ``terminal``'s caller to the server at the other end of
    ``reader``/``writer``: send the ``hello`` line (:meth:`NodeHello.encode`,
    or a peer's, :mod:`door.net.peer_socket`), then pass the caller's bytes
    on as they come and the server's bytes back (waiting while the
    caller's side is full), until either side ends.  While the server's
    side holds more than its transport's high-water mark unsent, the
    caller's connection is not read (a paste or a flood waits in their TCP
    window, not in this process).  Returns True when the far end ended
    the session in order (:data:`SESSION_END`), False when it ended
    otherwise (it died) or the caller's line ended first."""
    writer.write(hello)
    high = writer.transport.get_write_buffer_limits()[1]
    releasing: asyncio.Task[None] | None = None

    async def release() -> None:
        nonlocal releasing
        try:
            await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            releasing = None
            terminal.release_input()

    def forward(data: bytes) -> None:
        nonlocal releasing
        writer.write(data.replace(ESCAPE, ESCAPE + ESCAPE))
        if releasing is None and writer.transport.get_write_buffer_size() > high:
            terminal.hold_input()
            releasing = asyncio.create_task(release())

    terminal.divert(forward)

    async def caller_gone() -> None:
        while (key := await terminal.get_key()) is None or key.name is not KeyName.EOF:
            if key is not None and key.name is KeyName.RESIZE:
                writer.write(window_frame(terminal.cols, terminal.rows))

    gone = asyncio.create_task(caller_gone())
    held = b""  # the end of what came, while it may be the start of SESSION_END
    orderly = False
    try:
        while not gone.done():
            read = asyncio.create_task(reader.read(65536))
            await asyncio.wait({read, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not read.done():
                read.cancel()
                break
            data = read.result()
            if not data:  # the server ended the session: in order (goodbye, time up), or it died
                orderly = held == SESSION_END
                break
            data = held + data
            keep = _end_begins(data)
            data, held = data[:len(data) - keep], data[len(data) - keep:]
            if data:
                terminal.write(data)
                await terminal.drain()
    except (ConnectionError, OSError) as exc:
        log.info("the server's node socket failed: %s", exc)
    finally:
        gone.cancel()
        if releasing is not None:
            releasing.cancel()
        terminal.divert(None)
        terminal.release_input()
        writer.close()
    return orderly
