"""A terminal over a WebSocket: the web page's (keys in binary
messages, the window's size in a text one, the screen's bytes out)."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from door.net.bucket import TokenBucket
from door.net.charset import UTF8
from door.net.output import CLOSE_GRACE
from door.net.terminal import Terminal, TerminalKind

__all__ = ["WebTerminal"]


class WebTerminal(Terminal):
    """A :class:`Terminal` over a WebSocket: UTF-8, 80x25 until the page
    says its size."""

    counts_output = True

    def __init__(self, connection: ServerConnection, address: str, message_rate: int) -> None:
        peer = connection.remote_address
        peer_text = f"{address}:{peer[1]}" if peer else address
        super().__init__(TerminalKind.WEB, peer_text, "xterm-256color", 80, 25, lang="C.UTF-8", address=address)
        self.charset = UTF8
        self._ws = connection
        self._out = bytearray()
        self._sender: asyncio.Task[None] | None = None
        self._share = TokenBucket(max(1, message_rate), max(1, message_rate), asyncio.get_running_loop().time)

    async def pump(self) -> None:
        """Read messages until the socket closes: binary ones are keys, a
        text one a window size; at most ``message_rate`` a second."""
        try:
            while True:
                await self.room()
                message = await self._ws.recv()
                wait = self._share.spent(1)  # past message_rate a second: read no more for a while
                if wait > 0:
                    await asyncio.sleep(wait)
                if isinstance(message, str):
                    self._control(message)
                else:
                    self.feed(message)
        except ConnectionClosed:
            pass
        finally:
            self.lost()

    def _control(self, text: str) -> None:
        """``{"cols": c, "rows": r}``: the page's window changed size;
        anything else is ignored."""
        try:
            size = json.loads(text)
        except ValueError:
            return
        if isinstance(size, dict):
            cols, rows = size.get("cols"), size.get("rows")
            if isinstance(cols, int) and isinstance(rows, int) and not isinstance(cols, bool) \
                    and not isinstance(rows, bool):
                self.resized(cols, rows)

    def _write(self, data: bytes) -> None:
        self._out += data
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        """Send what was written, one message per burst."""
        while self._out:
            data = bytes(self._out)
            self._out.clear()
            try:
                await self._ws.send(data)
            except ConnectionClosed:
                self.lost()
                return

    def buffered(self) -> int:
        transport = self._ws.transport
        waiting = transport.get_write_buffer_size() if transport is not None and not transport.is_closing() else 0
        return len(self._out) + int(waiting)

    async def _drain(self) -> None:
        if self._sender is not None and not self._sender.done():
            await asyncio.shield(self._sender)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        """Let what was written go out (for :data:`CLOSE_GRACE` seconds at
        most), then close the WebSocket."""
        try:
            if self._sender is not None and not self._sender.done():
                await asyncio.wait_for(asyncio.shield(self._sender), CLOSE_GRACE)
            await self._ws.close()
        except (TimeoutError, ConnectionClosed, OSError):
            self.abort()

    def abort(self) -> None:
        self.closed = True
        if self._ws.transport is not None:
            self._ws.transport.abort()
