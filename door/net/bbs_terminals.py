"""The terminals of door mode (``cribbage-door door`` under a BBS): the
caller on this process's standard input and output, or on the telnet
socket a DOOR32.SYS of comm type 2 passes, whose telnet commands are
stripped as they come (:class:`TelnetStripper`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import enum
import os
import signal
import sys
import threading

from door.net.charset import Charset
from door.net.stream_terminal import StreamTerminal
from door.net.terminal import Terminal, TerminalKind

__all__ = ["StdioTerminal", "SocketTerminal", "TelnetStripper"]

IAC, SB, SE, WILL, WONT, DO, DONT = 255, 250, 240, 251, 252, 253, 254


class StdioTerminal(Terminal):
    """A :class:`Terminal` over this process's standard input and output
    (or the file descriptors ``stdin`` and ``stdout``)."""

    def __init__(self, cols: int, rows: int, charset: Charset, stdin: int | None = None,
                 stdout: int | None = None) -> None:
        super().__init__(TerminalKind.DOOR, "stdio", "ansi", cols, rows)
        self.charset = charset
        self._in = sys.stdin.fileno() if stdin is None else stdin
        self._out = sys.stdout.fileno() if stdout is None else stdout

    async def pump(self) -> None:
        """Read standard input until it ends.  A blocking read in a daemon
        thread hands the bytes to the loop: never a step late on a
        pseudo-terminal (the loop's own reader was), and it cannot hold up
        the door's exit.  Before each read the thread waits for
        :meth:`room` (a relay's far end that takes no more, or unread
        keys past the limit), so a flood waits in the pipe or the
        pseudo-terminal, not in this process.  On a terminal, SIGWINCH
        reads the new window size (:meth:`resized`)."""
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def reader() -> None:
            try:
                while True:
                    asyncio.run_coroutine_threadsafe(self.room(), loop).result()
                    data = os.read(self._in, 4096)
                    if not data:
                        break
                    loop.call_soon_threadsafe(self.feed, data)
            except (OSError, RuntimeError, concurrent.futures.CancelledError):
                pass  # (RuntimeError, cancelled: the loop is closing)
            finally:
                try:
                    loop.call_soon_threadsafe(done.set)
                except RuntimeError:
                    pass

        winch = os.isatty(self._in)
        if winch:
            def window_changed() -> None:
                try:
                    size = os.get_terminal_size(self._in)
                except OSError:
                    return
                self.resized(size.columns, size.lines)
            loop.add_signal_handler(signal.SIGWINCH, window_changed)
        threading.Thread(target=reader, name="stdin", daemon=True).start()
        try:
            await done.wait()
        finally:
            if winch:
                loop.remove_signal_handler(signal.SIGWINCH)
            self.lost()

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._out, view)
            except BlockingIOError:
                continue
            view = view[written:]

    async def _drain(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


class _Strip(enum.Enum):
    """Where :class:`TelnetStripper` is in a telnet command."""

    DATA = enum.auto()
    IAC = enum.auto()
    """After IAC: a command byte comes."""
    OPTION = enum.auto()
    """After IAC WILL/WONT/DO/DONT: the option byte comes."""
    SUB = enum.auto()
    """In a subnegotiation (IAC SB ...)."""
    SUB_IAC = enum.auto()
    """An IAC in a subnegotiation: SE ends it."""


class TelnetStripper:
    """Removes telnet commands (IAC ...) from a byte stream; IAC IAC is a
    data byte 0xFF.  Keeps a partial command across calls.

    >>> s = TelnetStripper()
    >>> s.feed(bytes([65, IAC, WILL])), s.feed(bytes([31, IAC, IAC, 66]))
    (b'A', b'\\xffB')
    """

    def __init__(self) -> None:
        self._state = _Strip.DATA

    def feed(self, data: bytes) -> bytes:
        """The data bytes of ``data``, its telnet commands left out."""
        out = bytearray()
        for b in data:
            s = self._state
            if s is _Strip.DATA:
                if b == IAC:
                    self._state = _Strip.IAC
                else:
                    out.append(b)
            elif s is _Strip.IAC:
                if b == IAC:
                    out.append(IAC)
                    self._state = _Strip.DATA
                elif b in (WILL, WONT, DO, DONT):
                    self._state = _Strip.OPTION
                elif b == SB:
                    self._state = _Strip.SUB
                else:
                    self._state = _Strip.DATA
            elif s is _Strip.OPTION:
                self._state = _Strip.DATA
            elif s is _Strip.SUB:
                if b == IAC:
                    self._state = _Strip.SUB_IAC
            else:  # SUB_IAC
                self._state = _Strip.DATA if b == SE else _Strip.SUB
        return bytes(out)


class SocketTerminal(StreamTerminal):
    """A :class:`Terminal` over the telnet socket a BBS passed (DOOR32.SYS
    comm type 2): telnet commands are stripped from the input and 0xFF is
    doubled on output."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, cols: int, rows: int,
                 charset: Charset) -> None:
        super().__init__(TerminalKind.DOOR, "socket", "ansi", cols, rows, reader, writer)
        self.charset = charset
        self._strip = TelnetStripper()

    def received(self, data: bytes) -> None:
        """Telnet commands from the BBS are not keys."""
        clean = self._strip.feed(data)
        if clean:
            self.feed(clean)

    def _write(self, data: bytes) -> None:
        super()._write(data.replace(b"\xff", b"\xff\xff"))
