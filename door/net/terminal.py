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
import enum
from collections import deque
from collections.abc import Awaitable, Callable

from door.net.ansi import farewell
from door.net.charset import Charset, choose_charset
from door.net.gate import Ticket, address_of
from door.net.keys import Key, KeyDecoder, KeyName, key_bytes
from door.net.output import Output

__all__ = ["Terminal", "TerminalKind", "HungUp", "ESCAPE_TIMEOUT", "MIN_COLS", "MIN_ROWS", "MAX_COLS", "MAX_ROWS",
           "INPUT_LIMIT", "clamp_size"]

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
_TICK = object()  # a wait of get_key is over
_WAKE = object()  # get_key returns None now (see Terminal.wake)

INPUT_LIMIT = 1024
"""Bytes of a caller's input the door holds unread; past it the transport
is not read until the session catches up (a 200 KB paste costs the door a
kilobyte of memory and waits in the client's TCP window)."""


class HungUp(Exception):
    """The caller's line ended: they hung up, the connection dropped, the
    idle timeout or the time limit closed it, or the sysop disconnected
    them.  Raised once, by the key loop that meets the end of the input
    (:meth:`door.ui.display.Display.keys`), as asyncssh raises
    ``ConnectionLost``; a session handles it in one place."""


class TerminalKind(enum.StrEnum):
    """The transport a :class:`Terminal` came by (its value is what the
    log and the sysop's console show)."""

    TELNET = "telnet"
    SSH = "ssh"
    CONSOLE = "console"
    """The sysop's local console socket."""
    NODE = "node"
    """A BBS node's caller, relayed by its door process."""
    PEER = "peer"
    """A caller another node of the shared store handed over."""
    WEB = "web"
    """A browser, through the web page's WebSocket."""
    API = "api"
    """A program, through the game protocol's WebSocket."""
    RLOGIN = "rlogin"
    """A caller from another board, by rlogin (the cribbage hub)."""
    DOOR = "door"
    """Door mode: the one caller of a BBS node, on standard input and output or the BBS's socket."""


class Terminal(Output):
    """A caller's terminal, whatever the transport.

    ``kind``: a :class:`TerminalKind`; ``peer``: the remote address as
    text (``address``: the caller's own address, without the port);
    ``term_type``: TTYPE or the SSH PTY's terminal type; ``cols`` and
    ``rows``: the size in cells (80x24 until the client says otherwise);
    ``charset``: the output encoding, chosen from the terminal type and
    ``lang``.  Who is calling is not the terminal's business: a
    :class:`~door.caller.identity.Login` travels beside it.

    The input half is here (keys, resizes, the end of the line); the
    output half is :class:`~door.net.output.Output`'s.  Subclasses
    implement :meth:`pump`, :meth:`_write`, :meth:`_drain` and
    :meth:`close`, and call :meth:`feed`, :meth:`resized` and :meth:`lost`
    as input arrives.
    """

    def __init__(self, kind: TerminalKind | str, peer: str, term_type: str, cols: int, rows: int,
                 lang: str | None = None, address: str | None = None) -> None:
        super().__init__(peer)
        self.kind = TerminalKind(kind)
        self.address = address if address is not None else address_of(peer)
        """The caller's own address (no port), what limits, cool-downs and
        the log count by: the host part of ``peer``, or for a caller relayed
        by another node, the address that node saw."""
        self.term_type = term_type or "unknown"
        self.cols, self.rows = clamp_size(cols, rows)
        self.charset: Charset = choose_charset(term_type, lang)
        self.idle_timeout: float | None = None
        """Seconds without input before the caller is told and disconnected
        (``None``: never)."""
        self.idle_warning: float = 60.0
        """Seconds before the idle disconnect at which ``warn`` is called."""
        self.awaited: Callable[[], bool] | None = None
        """Asked when the idle timeout comes: False while the caller only
        waits on somebody else (the other player's move), who is then
        never idle-timed out (the idle time starts again); ``None``: always
        awaited."""
        self.warn: Callable[[str], None] | None = None
        """Shows a sentence to the caller on the current screen (set by the session)."""
        self._warned = False
        self.plain = False
        """The session shows the door in plain lines: the
        terminal's own words (:meth:`say_farewell`) carry no escape sequence either."""
        self.screen_reader = False
        """The transport or the BBS said this caller wants plain lines (a
        drop file with no ANSI); see :meth:`wants_lines`."""
        self._last_input = asyncio.get_event_loop().time()
        self._inbox: asyncio.Queue[object] = asyncio.Queue()
        self._unread = 0  # bytes fed but not yet decoded
        self._room = asyncio.Event()
        """Set while :attr:`_unread` is under :data:`INPUT_LIMIT`: the pump
        reads the transport only then, so a flood waits in the sender's
        TCP window, not in the door's memory."""
        self._room.set()
        self._input_held = False
        """True while :meth:`hold_input` holds the pump back (where the bytes go is full)."""
        self._resize_queued = False
        self._decoder = KeyDecoder()
        self._keys: deque[Key] = deque()
        self.ticket: Ticket | None = None
        """The gate's count of this connection (set by the listener), told
        when the caller has logged in (:meth:`logged_in`)."""
        self.tap: Callable[[bytes], None] | None = None
        """When set (by :meth:`divert`), the caller's bytes go there as they
        arrive instead of becoming keys (a process relaying its caller to
        another, :func:`door.net.relay.relay`)."""

    # -- fed by the adapters ------------------------------------------------

    @property
    def idle(self) -> float:
        """Seconds since the caller last sent anything."""
        return asyncio.get_event_loop().time() - self._last_input

    def waiting_on_others(self, now: float) -> bool:
        """True when the idle timeout (or its warning) is due at ``now``
        (the event loop's clock) but the caller only waits on somebody
        else (:attr:`awaited`): the idle time then starts again from now."""
        assert self.idle_timeout is not None
        warning = self.idle_warning if not self._warned and self.idle_warning < self.idle_timeout else 0.0
        due = self._last_input + self.idle_timeout - warning
        if now < due or self.awaited is None or self.awaited():
            return False
        self._last_input, self._warned = now, False
        return True

    def feed(self, data: bytes) -> None:
        """Bytes typed by the caller.  Past :data:`INPUT_LIMIT` unread
        bytes, :meth:`room` stays clear until the session has read them."""
        if data:
            self._last_input = asyncio.get_event_loop().time()
            self._warned = False
            if self.tap is not None:
                self.tap(bytes(data))
                return
            self._unread += len(data)
            if self._unread >= INPUT_LIMIT:
                self._room.clear()
            self._inbox.put_nowait(bytes(data))

    def divert(self, tap: Callable[[bytes], None] | None) -> None:
        """Send the caller's bytes to ``tap`` as they arrive, instead of
        making keys of them (``None``: keys again).  What the caller typed
        that the session has not read goes to ``tap`` first, in order:
        keys already decoded (as the bytes a terminal sends for them,
        :func:`~door.net.keys.key_bytes`), an unfinished sequence, then the
        bytes not yet decoded.  A caller typing while they are handed over
        loses no key (the end of the line and a size change still come as
        ``EOF`` and ``RESIZE`` keys).  Output paused by Ctrl-S is resumed:
        from now on Ctrl-S and Ctrl-Q are the far end's."""
        self.tap = tap
        if tap is None:
            return
        if self.paused:  # Ctrl-S held the output: its Ctrl-Q would go to the far end, never here
            self._resume()  # (what it held is sent first; held past the limit, the far end is asked to redraw)
        keys = b"".join(key_bytes(key, self.charset.name) for key in self._keys)
        enter_passed_on = bool(self._keys) and self._keys[-1].name is KeyName.ENTER
        self._keys.clear()
        queued: list[object] = []
        while not self._inbox.empty():
            queued.append(self._inbox.get_nowait())
        later = b"".join(item for item in queued if isinstance(item, bytes))
        for item in queued:
            if item is _EOF or item is _RESIZE:
                self._inbox.put_nowait(item)
        self._unread = 0  # (what the inbox held, all of it taken)
        if not self._input_held:
            self._room.set()
        typed = keys + self._decoder.take_pending(later, enter_passed_on)
        if typed:
            tap(typed)

    def hold_input(self) -> None:
        """Stop the pump reading the transport until :meth:`release_input`:
        what the caller's bytes go to (a relay's far end, :attr:`tap`)
        takes no more now, so a flood waits in the sender's TCP window."""
        self._input_held = True
        self._room.clear()

    def release_input(self) -> None:
        """Let the pump read again (see :meth:`hold_input`)."""
        self._input_held = False
        if self._unread < INPUT_LIMIT:
            self._room.set()

    async def room(self) -> None:
        """Wait until the door may read more input (the pumps call this
        before each read)."""
        await self._room.wait()

    def _tick(self) -> None:
        """A wait of :meth:`get_key` is over.  Only into an empty inbox: a
        waiting reader has nothing else to wake it, and a reader that has
        something already cancels this timer when it returns."""
        if self._inbox.empty():
            self._inbox.put_nowait(_TICK)

    def wake(self) -> None:
        """Make the waiting (or the next) :meth:`get_key` return ``None`` at
        once: a screen whose clock was stopped has something to show."""
        self._inbox.put_nowait(_WAKE)

    def ring(self) -> None:
        """The terminal's bell (BEL), to call the caller's eye to what follows."""
        self.write(b"\x07")

    def say_farewell(self, text: str) -> None:
        """``text`` on a line of its own below whatever is on screen, in the
        default colours (:func:`~door.net.ansi.farewell`; plain, with no
        colour reset, for a session in plain lines)."""
        self.write(f"\r\n{text}\r\n".encode("ascii", "replace") if self.plain else farewell(text))

    def wants_lines(self) -> bool:
        """True when the caller's terminal asks for the line presentation
        without being asked: ``TERM=dumb`` (no cursor
        addressing), :attr:`screen_reader`, or (over telnet) MTTS's
        screen-reader bit."""
        return self.screen_reader or self.term_type.strip().lower() == "dumb"

    def logged_in(self) -> None:
        """The caller has logged in: the connection leaves the gate's
        pre-login budget (:class:`~door.net.gate.PreloginLimit`)."""
        if self.ticket is not None:
            self.ticket.logged_in()

    def has_input(self) -> bool:
        """True when keys (or bytes, or a resize) wait to be read: the key
        loop then holds its frame until the burst is handled."""
        return bool(self._keys) or not self._inbox.empty()

    def resized(self, cols: int, rows: int) -> None:
        """The client reported a new window size in cells (NAWS / window
        change).  Sizes of 0 are ignored; silly sizes are clamped; a burst
        of changes before the session reads them is one ``RESIZE`` key."""
        if cols <= 0 or rows <= 0:
            return
        self.cols, self.rows = clamp_size(cols, rows)
        if not self._resize_queued:
            self._resize_queued = True
            self._inbox.put_nowait(_RESIZE)

    def lost(self) -> None:
        """The connection ended (clean close, reset or abort)."""
        super().lost()
        self._room.set()
        self._inbox.put_nowait(_EOF)

    # -- used by sessions -----------------------------------------------------

    async def get_key(self, timeout: float | None = None) -> Key | None:
        """The next key, ``Key(RESIZE)`` after a size change, ``Key(EOF)``
        once the connection is gone (and on every call after), or ``None``
        when ``timeout`` seconds pass with no key or :meth:`wake` is called.  When the caller has sent
        nothing for ``idle_timeout`` seconds, they are told, the connection
        is closed, and ``Key(EOF)`` is returned."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._keys:
            item = await self._next_item(loop, deadline)
            if item is _TICK:
                if self._ticked(loop.time(), deadline):
                    return None
            elif item is _WAKE:
                return None
            elif item is _EOF:
                self._inbox.put_nowait(_EOF)  # stay at EOF
                return Key(KeyName.EOF)
            elif item is _RESIZE:
                self._resize_queued = False
                return Key(KeyName.RESIZE)
            else:
                assert isinstance(item, bytes)
                self._take(item)
        return self._keys.popleft()

    async def _next_item(self, loop: asyncio.AbstractEventLoop, deadline: float | None) -> object:
        """The next item of the inbox (bytes, or a tick, a wake-up, a
        resize, the end), with a tick dropped in when the first of the
        deadline, the idle timeout or its warning, or a pending escape
        sequence's wait comes: a timer, not asyncio.timeout, so no
        cancellation is thrown through the session's coroutines (a clock's
        tick costs a tenth of what it did)."""
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
        if not waits:
            return await self._inbox.get()
        timer = loop.call_at(now + min(waits), self._tick)
        try:
            return await self._inbox.get()
        finally:
            timer.cancel()

    def _ticked(self, now: float, deadline: float | None) -> bool:
        """A tick at ``now``: a pending escape sequence is flushed as keys,
        a caller idle too long is told and disconnected (or warned first),
        unless they only wait on somebody else; True when ``deadline``
        has passed."""
        if self._decoder.pending:
            self._keys.extend(self._decoder.flush())
            return False
        if self.idle_timeout is not None:
            if self.waiting_on_others(now):
                return False
            if now >= self._last_input + self.idle_timeout:
                self._idle_out()
                return False
            if (not self._warned and self.idle_warning < self.idle_timeout
                    and now >= self._last_input + self.idle_timeout - self.idle_warning):
                self._warned = True
                self.ring()
                if self.warn is not None:
                    self.warn(f"Press a key: the door hangs up in {self.idle_warning:g} seconds if nothing is typed.")
                return False
        return deadline is not None and now >= deadline

    def _take(self, data: bytes) -> None:
        """Bytes the caller typed, decoded into keys (Ctrl-S and Ctrl-Q
        hold and resume the output here, never reaching a screen)."""
        self._unread -= len(data)
        if self._unread < INPUT_LIMIT and not self._input_held:
            self._room.set()
        self._decoder.encoding = self.charset.name
        for key in self._decoder.feed(data):
            if key.name is KeyName.CTRL_S:
                self.paused = True
            elif key.name is KeyName.CTRL_Q:
                self._resume()
            else:
                if self.paused:  # any other key resumes too: line noise never freezes a screen
                    self._resume()
                self._keys.append(key)

    def unget(self, key: Key) -> None:
        """Put ``key`` back: the next :meth:`get_key` returns it (a key read
        to decide something, that the next screen must see too)."""
        self._keys.appendleft(key)

    def _resume(self) -> None:
        """Ctrl-Q: send what Ctrl-S held (or, past :data:`HOLD_LIMIT`, ask
        for a full redraw instead)."""
        if not self._unpause():
            self._keys.append(Key(KeyName.CTRL_L))

    def _idle_out(self) -> None:
        minutes = (self.idle_timeout or 0) / 60
        self.say_farewell(f"No key for {minutes:g} minutes: goodbye. Call again soon!")
        self.log.info("%s idle for %s s: disconnecting", self.peer, self.idle_timeout)
        self.close()
        self.lost()

    def write_text(self, text: str) -> None:
        """Encode ``text`` in the session's charset and write it."""
        self.write(self.charset.encode(text))

    async def run_session(self, session: Callable[[Terminal], Awaitable[None]]) -> None:
        """Read input in the background while ``session(self)`` runs, then
        close the connection."""
        pump = asyncio.create_task(self.pump())
        try:
            await session(self)
        finally:
            pump.cancel()
            self.close()

    async def pump_from(self, read: Callable[[], Awaitable[bytes]],
                        received: Callable[[bytes], None] | None = None) -> None:
        """The one read loop of the transports: ``read()`` a chunk while
        there is :meth:`room` for it, hand it to ``received`` (:meth:`feed`
        unless given), until ``read()`` returns ``b""`` or the connection
        fails; then :meth:`lost`."""
        take = received or self.feed
        try:
            while True:
                await self.room()
                data = await read()
                if not data:
                    break
                take(data)
        except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
            self.log.debug("read from %s ended: %s", self.peer, exc)
        finally:
            self.lost()

    async def pump(self) -> None:
        """Read the transport until it closes, calling :meth:`feed`,
        :meth:`resized` and finally :meth:`lost` (most do it with
        :meth:`pump_from`)."""
        raise NotImplementedError

