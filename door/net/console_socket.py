"""The local sysop console: a Unix socket in the data folder, like the local
console of a BBS node.

Only the user who runs the door gets in (:mod:`door.net.local_socket`),
so only the sysop.  The client (``cribbage-door
console``) sends one line first, ``CONSOLE COLS ROWS TERM``, then the raw
bytes of the keyboard (``cribbage-door drain`` sends ``DRAIN`` instead); a window change arrives as the private sequence
``ESC _ R COLS ; ROWS ESC \\``.  Everything the server sends is the screen.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from door.net.ansi import CONSOLE_RESIZE
from door.net.listener import Listener
from door.net.local_socket import start_local
from door.net.stream_terminal import StreamTerminal
from door.net.terminal import Terminal, TerminalKind

__all__ = ["ConsoleTerminal", "start_console", "CONSOLE_SOCKET", "RESIZE_SEQUENCE"]

log = logging.getLogger(__name__)

CONSOLE_SOCKET = "console.sock"
"""The socket's file name in the data folder."""

RESIZE_SEQUENCE = CONSOLE_RESIZE
"""How the console client reports a new window size (columns; rows)."""


class ConsoleTerminal(StreamTerminal):
    """A :class:`Terminal` over the console socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, cols: int, rows: int,
                 term: str) -> None:
        super().__init__(TerminalKind.CONSOLE, "local", term, cols, rows, reader, writer)

    def received(self, data: bytes) -> None:
        """The client's window size reports are resizes; the rest is keys."""
        for m in RESIZE_SEQUENCE.finditer(data):
            self.resized(int(m.group(1)), int(m.group(2)))
        data = RESIZE_SEQUENCE.sub(b"", data)
        if data:
            self.feed(data)


async def start_console(data_dir: Path, session: Callable[[Terminal], Awaitable[None]],
                        drain: Callable[[], str] | None = None) -> Listener:
    """Listen on ``data_dir/console.sock`` (mode 0600) and run
    ``session(terminal)`` for each console that connects as the server's
    user; the line ``DRAIN`` instead calls ``drain()`` and answers with
    what it says, one line (``cribbage-door drain``)."""
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            hello = (await asyncio.wait_for(reader.readline(), 10)).decode("ascii", "replace").split()
            if hello == ["DRAIN"] and drain is not None:
                writer.write(drain().encode("utf-8", "replace") + b"\n")
                writer.close()
                return
            cols, rows = int(hello[1]), int(hello[2])
            term = hello[3] if len(hello) > 3 else "xterm"
            if hello[0] != "CONSOLE":
                raise ValueError(hello)
        except (TimeoutError, ValueError, IndexError):
            writer.write(b"Expected: CONSOLE COLS ROWS TERM\r\n")
            writer.close()
            return
        try:
            await ConsoleTerminal(reader, writer, cols, rows, term).run_session(session)
        except asyncio.CancelledError:
            pass  # the server is stopping; this handler is the task's outermost frame

    return await start_local(data_dir / CONSOLE_SOCKET, handle,
                             b"This console is only for the user who runs the door.\r\n")
