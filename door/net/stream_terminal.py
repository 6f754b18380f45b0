"""A terminal over an asyncio stream pair: the console socket, a BBS's
telnet socket, a relayed caller, an rlogin connection."""

from __future__ import annotations

import asyncio

from door.net.terminal import Terminal, TerminalKind

__all__ = ["StreamTerminal"]


class StreamTerminal(Terminal):
    """A :class:`Terminal` over an asyncio stream pair (the console socket,
    a BBS's telnet socket); subclasses may look at what arrives first in
    :meth:`received`."""

    def __init__(self, kind: TerminalKind | str, peer: str, term_type: str, cols: int, rows: int,
                 reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str | None = None) -> None:
        super().__init__(kind, peer, term_type, cols, rows, address=address)
        self._reader = reader
        self._writer = writer

    async def pump(self) -> None:
        await self.pump_from(lambda: self._reader.read(4096), self.received)

    def received(self, data: bytes) -> None:
        """Bytes from the stream (fed to the keys as they are)."""
        self.feed(data)

    def _write(self, data: bytes) -> None:
        self._writer.write(data)

    counts_output = True

    def buffered(self) -> int:
        try:
            return int(self._writer.transport.get_write_buffer_size())
        except AttributeError:  # asyncio's TLS transport, once closed twice, has let go of its connection
            return 0

    async def _drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):
            self.lost()

    def close(self) -> None:
        self.closed = True
        if not self._writer.transport.is_closing():  # (a TLS transport closed twice lets go of its connection)
            self._writer.close()
        self._abort_later()

    def abort(self) -> None:
        self.closed = True
        self._writer.transport.abort()
