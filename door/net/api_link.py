"""A program's connection to the game protocol: JSON text messages over a
WebSocket (``/api/v1/play``, :mod:`door.play.api_messages` says what
they hold).  It is a :class:`~door.net.web_terminal.WebTerminal` in all
but its messages, so a program is held to every limit a caller is: the
gate's count, the messages a second it may send, the output it may leave
unread and for how long, the idle timeout."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from door.net.terminal import HungUp, TerminalKind
from door.net.web_terminal import WebTerminal

__all__ = ["ApiLink", "INBOX_LIMIT"]

INBOX_LIMIT = 16
"""Messages a program may have sent that the door has not read yet; past
it the door reads no more until it catches up (they wait in the sender's
TCP window)."""


class ApiLink(WebTerminal):
    """One program on the game protocol: :meth:`receive` its messages
    (text as it came, for the session to check), :meth:`send` the door's
    (one JSON object a WebSocket text message)."""

    def __init__(self, connection: ServerConnection, address: str, message_rate: int) -> None:
        super().__init__(connection, address, message_rate)
        self.kind = TerminalKind.API
        self._messages: deque[str | bytes] = deque()
        self._arrived = asyncio.Event()
        self._taken = asyncio.Event()
        """Set when the session takes a message (room for another)."""
        self._frames: deque[str] = deque()

    async def pump(self) -> None:
        """Read messages until the socket closes, at most ``message_rate``
        a second and :data:`INBOX_LIMIT` unread."""
        try:
            while True:
                while len(self._messages) >= INBOX_LIMIT and not self.closed:
                    self._taken.clear()
                    await self._taken.wait()
                message = await self._ws.recv()
                wait = self._share.spent(1)
                if wait > 0:
                    await asyncio.sleep(wait)
                self._last_input = asyncio.get_running_loop().time()
                self._messages.append(message)
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.lost()
            self._arrived.set()

    async def receive(self, timeout: float | None = None) -> str | bytes | None:
        """The program's next message as it came, or ``None`` when
        ``timeout`` seconds pass first.  Raises
        :class:`~door.net.terminal.HungUp` once the connection is gone,
        or when nothing came for ``idle_timeout`` seconds (the program is
        told, and closed)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._messages:
            if self.closed:
                raise HungUp("the program's connection is gone")
            waits = [deadline - loop.time()] if deadline is not None else []
            if self.idle_timeout is not None:
                waits.append(self._last_input + self.idle_timeout - loop.time())
            self._arrived.clear()
            try:
                async with asyncio.timeout(max(0.0, min(waits)) if waits else None):
                    await self._arrived.wait()
            except TimeoutError:
                if self.idle_timeout is not None and self.waiting_on_others(loop.time()):
                    continue
                if self.idle_timeout is not None and loop.time() >= self._last_input + self.idle_timeout:
                    self.send({"type": "bye", "text": f"Nothing came for {self.idle_timeout:g} seconds: goodbye."})
                    self.close()
                    raise HungUp("the program was idle") from None
                if deadline is not None and loop.time() >= deadline:
                    return None
        self._taken.set()
        return self._messages.popleft()

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (a JSON object) as one text message."""
        self.write(json.dumps(message, separators=(",", ":")).encode())

    def ring(self) -> None:
        """A program has no bell: nothing is sent."""

    def say_farewell(self, text: str) -> None:
        """``text`` said as the door ends the session: a ``bye`` message."""
        self.send({"type": "bye", "text": text})

    def _write(self, data: bytes) -> None:
        self._frames.append(data.decode())
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_frames())

    async def _send_frames(self) -> None:
        while self._frames:
            batch = [self._frames.popleft() for _ in range(len(self._frames))]
            try:
                if len(batch) == 1:
                    await self._ws.send(batch[0])
                else:
                    await self._send_together(batch)
            except ConnectionClosed:
                self.lost()
                return

    async def _send_together(self, batch: list[str]) -> None:
        """Send the messages ``batch`` (what one turn of the game said: an
        event or three, and the next ask) in one write to the socket: one
        system call and one TCP segment rather than one each, which was
        most of a protocol move's cost in the door.  websockets frames each
        message (its sans-I/O protocol, in the connection's own send
        context, which checks the state and waits for the drain), and this
        writes the frames joined.  Raises
        :class:`~websockets.exceptions.ConnectionClosed` as ``send`` does."""
        ws = self._ws
        async with ws.send_context():
            for frame in batch:
                ws.protocol.send_text(frame.encode())
            chunks = ws.protocol.data_to_send()
            joined = b"".join(chunks)
            if joined:
                ws.transport.write(joined)
            if not all(chunks):  # (an end of stream the protocol asked for: as its send_data does)
                if ws.transport.can_write_eof():
                    ws.transport.write_eof()
                else:
                    ws.transport.close()

    def buffered(self) -> int:
        transport = self._ws.transport
        waiting = transport.get_write_buffer_size() if transport is not None and not transport.is_closing() else 0
        return sum(len(frame) for frame in self._frames) + int(waiting)
