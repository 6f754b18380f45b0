"""One terminal interface over both transports.

A :class:`Terminal` reduces a telnet or SSH connection to four things: keys
in (:meth:`Terminal.get_key`, resizes and the end of the connection arrive as
keys too), buffered writes out (:meth:`Terminal.write`, :meth:`Terminal.drain`),
the current size (``cols`` x ``rows``, in character cells) and
:meth:`Terminal.close`.  The adapters (``door.net.telnet``, ``door.net.ssh``) feed it;
nothing above this module imports telnetlib3 or asyncssh.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Awaitable, Callable

from door.net.ansi import farewell
from door.net.charset import Charset, choose_charset
from door.net.keys import Key, KeyDecoder, KeyName

__all__ = ["Terminal", "StreamTerminal", "ESCAPE_TIMEOUT", "MIN_COLS", "MIN_ROWS", "MAX_COLS", "MAX_ROWS", "HOLD_LIMIT", "clamp_size"]

ESCAPE_TIMEOUT = 0.06
"""Seconds to wait for the rest of an escape sequence before a lone ESC
counts as the Escape key (FIELD_NOTES.md: 50-100 ms)."""

MIN_COLS, MIN_ROWS = 80, 24
"""The smallest screen the door lays out, in character cells."""

MAX_COLS, MAX_ROWS = 500, 300
"""The largest screen the door paints, whatever a client claims."""


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A client's window size made sane: 0 or less means unknown (80x24);
    anything past 500x300 is cut to it."""
    cols = cols if cols > 0 else MIN_COLS
    rows = rows if rows > 0 else MIN_ROWS
    return min(cols, MAX_COLS), min(rows, MAX_ROWS)


_RESIZE = object()
_EOF = object()

HOLD_LIMIT = 256 * 1024
"""Bytes of output Ctrl-S may hold before the screen is redrawn in full on
Ctrl-Q instead."""


class Terminal:
    """A caller's terminal, whatever the transport.

    ``kind``: ``"telnet"`` or ``"ssh"``; ``peer``: the remote address as
    text; ``term_type``: TTYPE or the SSH PTY's terminal type; ``cols`` and
    ``rows``: the size in cells (80x24 until the client says otherwise);
    ``charset``: the output encoding, chosen from the terminal type and
    ``lang``.  Who is calling is not the terminal's business: a
    :class:`~door.caller.identity.Login` travels beside it.

    Subclasses implement :meth:`_write`, :meth:`drain` and :meth:`close`, and
    call :meth:`feed`, :meth:`resized` and :meth:`lost` as input arrives.
    """

    def __init__(self, kind: str, peer: str, term_type: str, cols: int, rows: int,
                 lang: str | None = None) -> None:
        self.kind = kind
        self.peer = peer
        self.term_type = term_type or "unknown"
        self.cols, self.rows = clamp_size(cols, rows)
        self.charset: Charset = choose_charset(term_type, lang)
        self.closed = False
        self.bytes_sent = 0
        self.paused = False
        """Output held by Ctrl-S until Ctrl-Q or any other key (seed 004)."""
        self._held: list[bytes] = []
        self._held_bytes = 0
        self._held_overflow = False  # more than HOLD_LIMIT: redraw on resume instead
        self.idle_timeout: float | None = None
        """Seconds without input before the caller is told and disconnected
        (``None``: never)."""
        self.idle_warning: float = 60.0
        """Seconds before the idle disconnect at which ``warn`` is called."""
        self.warn: Callable[[str], None] | None = None
        """Shows a sentence to the caller on the current screen (set by the session)."""
        self._warned = False
        self.max_output = 256 * 1024
        """Bytes of output the caller may leave unread before new output is held back."""
        self.stuck_timeout = 30.0
        """Seconds the caller may stay over ``max_output`` before being disconnected."""
        self.dropped_output = False
        """True when output was held back: the next frame must be a full redraw."""
        self._stuck_timer: asyncio.TimerHandle | None = None
        self._last_input = asyncio.get_event_loop().time()
        self._inbox: asyncio.Queue[object] = asyncio.Queue()
        self._decoder = KeyDecoder()
        self._keys: deque[Key] = deque()
        self.log = logging.getLogger(__name__)

    # -- fed by the adapters ------------------------------------------------

    @property
    def idle(self) -> float:
        """Seconds since the caller last sent anything."""
        return asyncio.get_event_loop().time() - self._last_input

    def feed(self, data: bytes) -> None:
        """Bytes typed by the caller."""
        if data:
            self._last_input = asyncio.get_event_loop().time()
            self._warned = False
            self._inbox.put_nowait(bytes(data))

    def resized(self, cols: int, rows: int) -> None:
        """The client reported a new window size in cells (NAWS / window
        change).  Sizes of 0 are ignored; silly sizes are clamped."""
        if cols <= 0 or rows <= 0:
            return
        self.cols, self.rows = clamp_size(cols, rows)
        self._inbox.put_nowait(_RESIZE)

    def lost(self) -> None:
        """The connection ended (clean close, reset or abort)."""
        self.closed = True
        self._inbox.put_nowait(_EOF)

    # -- used by sessions -----------------------------------------------------

    async def get_key(self, timeout: float | None = None) -> Key | None:
        """The next key, ``Key(RESIZE)`` after a size change, ``Key(EOF)``
        once the connection is gone (and on every call after), or ``None``
        when ``timeout`` seconds pass with no key.  When the caller has sent
        nothing for ``idle_timeout`` seconds, they are told, the connection
        is closed, and ``Key(EOF)`` is returned."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._keys:
            now = loop.time()
            waits = []
            if deadline is not None:
                waits.append(max(0.0, deadline - now))
            if self.idle_timeout is not None:
                waits.append(max(0.0, self._last_input + self.idle_timeout - now))
                if not self._warned and self.idle_warning < self.idle_timeout:
                    waits.append(max(0.0, self._last_input + self.idle_timeout - self.idle_warning - now))
            if self._decoder.pending:
                waits.append(ESCAPE_TIMEOUT)
            try:
                if waits:  # asyncio.timeout, not wait_for: no task per call (this runs for every key)
                    async with asyncio.timeout(min(waits)):
                        item = await self._inbox.get()
                else:
                    item = await self._inbox.get()
            except TimeoutError:
                if self._decoder.pending:
                    self._keys.extend(self._decoder.flush())
                    continue
                if self.idle_timeout is not None and loop.time() >= self._last_input + self.idle_timeout:
                    self._idle_out()
                    continue
                if (self.idle_timeout is not None and not self._warned and self.idle_warning < self.idle_timeout
                        and loop.time() >= self._last_input + self.idle_timeout - self.idle_warning):
                    self._warned = True
                    self.write(b"\x07")
                    if self.warn is not None:
                        self.warn(f"Press a key: the door hangs up in {self.idle_warning:g} seconds "
                                  "if nothing is typed.")
                    continue
                if deadline is not None and loop.time() >= deadline:
                    return None
                continue
            if item is _EOF:
                self._inbox.put_nowait(_EOF)  # stay at EOF
                return Key(KeyName.EOF)
            if item is _RESIZE:
                return Key(KeyName.RESIZE)
            assert isinstance(item, bytes)
            for key in self._decoder.feed(item):
                if key.name is KeyName.CTRL_S:
                    self.paused = True
                elif key.name is KeyName.CTRL_Q:
                    self._resume()
                else:
                    if self.paused:  # any other key resumes too: line noise never freezes a screen
                        self._resume()
                    self._keys.append(key)
        return self._keys.popleft()

    def _resume(self) -> None:
        """Ctrl-Q: send what Ctrl-S held (or, past :data:`HOLD_LIMIT`, ask
        for a full redraw instead)."""
        self.paused = False
        held, overflow = self._held, self._held_overflow
        self._held, self._held_bytes, self._held_overflow = [], 0, False
        if overflow:
            self._keys.append(Key(KeyName.CTRL_L))
        elif held:
            self.write(b"".join(held))

    def _idle_out(self) -> None:
        minutes = (self.idle_timeout or 0) / 60
        self.write(farewell(f"No key for {minutes:g} minutes: goodbye. Call again soon!"))
        self.log.info("%s idle for %s s: disconnecting", self.peer, self.idle_timeout)
        self.close()
        self.lost()

    def write(self, data: bytes) -> None:
        """Queue ``data`` for the caller (no-op once closed); while paused
        (Ctrl-S) it is held, up to :data:`HOLD_LIMIT` bytes."""
        if self.closed or not data:
            return
        if self.paused:
            self._held_bytes += len(data)
            if self._held_bytes > HOLD_LIMIT:
                self._held_overflow, self._held = True, []
            elif not self._held_overflow:
                self._held.append(data)
            return
        if self.buffered() > self.max_output:
            # the caller is not reading: hold new output back (the screen is
            # redrawn whole later) and give them stuck_timeout seconds
            self.dropped_output = True
            if self._stuck_timer is None:
                self._stuck_timer = asyncio.get_event_loop().call_later(self.stuck_timeout, self._check_stuck)
            return
        self.bytes_sent += len(data)
        try:
            self._write(data)
        except (ConnectionError, OSError, RuntimeError) as exc:
            self.log.debug("write to %s failed: %s", self.peer, exc)
            self.lost()

    def _check_stuck(self) -> None:
        self._stuck_timer = None
        if self.closed:
            return
        if self.buffered() > self.max_output:
            self.log.info("%s has not read %d bytes for %g s: disconnecting", self.peer, self.buffered(),
                          self.stuck_timeout)
            self.close()
            self.lost()

    def buffered(self) -> int:
        """Bytes written but not yet taken by the network (0 if unknown)."""
        return 0

    def write_text(self, text: str) -> None:
        """Encode ``text`` in the session's charset and write it."""
        self.write(self.charset.encode(text))

    async def run_session(self, session: "Callable[[Terminal], Awaitable[None]]") -> None:
        """Read input in the background while ``session(self)`` runs, then
        close the connection."""
        pump = asyncio.create_task(self.pump())
        try:
            await session(self)
        finally:
            pump.cancel()
            self.close()

    async def pump(self) -> None:
        """Read the transport until it closes, calling :meth:`feed`,
        :meth:`resized` and finally :meth:`lost`."""
        raise NotImplementedError

    def _write(self, data: bytes) -> None:
        raise NotImplementedError

    async def drain(self) -> None:
        """Wait until the transport has taken the queued output."""
        raise NotImplementedError

    def close(self) -> None:
        """End the connection."""
        raise NotImplementedError


class StreamTerminal(Terminal):
    """A :class:`Terminal` over an asyncio stream pair (the console socket,
    a BBS's telnet socket); subclasses read in :meth:`pump`."""

    def __init__(self, kind: str, peer: str, term_type: str, cols: int, rows: int,
                 reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(kind, peer, term_type, cols, rows)
        self._reader = reader
        self._writer = writer

    def _write(self, data: bytes) -> None:
        self._writer.write(data)

    def buffered(self) -> int:
        return int(self._writer.transport.get_write_buffer_size())

    async def drain(self) -> None:
        if self.closed:
            return
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):
            self.lost()

    def close(self) -> None:
        self.closed = True
        self._writer.close()
