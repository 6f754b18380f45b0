"""The output half of a terminal, whatever the transport: writes queued
for the caller, held while Ctrl-S pauses the screen, held back while the
caller does not read (past ``max_output`` bytes, for ``stuck_timeout``
seconds at most), drained and closed.  :class:`~door.net.terminal.Terminal`
adds the input half; a transport implements :meth:`Output._write`,
:meth:`Output.buffered`, :meth:`Output._drain` and :meth:`Output.close`."""

from __future__ import annotations

import asyncio
import logging

__all__ = ["Output", "HOLD_LIMIT", "CLOSE_GRACE"]

HOLD_LIMIT = 256 * 1024
"""Bytes of output Ctrl-S may hold before the screen is redrawn in full on
Ctrl-Q instead."""

CLOSE_GRACE = 2.0
"""Seconds a closed connection may take to send its last output."""


class Output:
    """What the door writes to one caller.  ``peer``: the remote address
    as text (for the log).  Subclasses implement :meth:`_write`,
    :meth:`_drain` and :meth:`close` (and :meth:`buffered` where the
    transport can count its queue), and :meth:`lost` for the end of the
    line."""

    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.closed = False
        self.bytes_sent = 0
        self.paused = False
        """Output held by Ctrl-S until Ctrl-Q or any other key (as in the original door)."""
        self._held: list[bytes] = []
        self._held_bytes = 0
        self._held_overflow = False  # more than HOLD_LIMIT: redraw on resume instead
        self.max_output = 256 * 1024
        """Bytes of output the caller may leave unread before new output is held back."""
        self.stuck_timeout = 30.0
        """Seconds the caller may stay over ``max_output`` before being disconnected."""
        self.dropped_output = False
        """True when output was held back: the next frame must be a full redraw."""
        self._stuck_timer: asyncio.TimerHandle | None = None
        self.log = logging.getLogger("door.net.terminal")

    def lost(self) -> None:
        """The connection ended (clean close, reset or abort)."""
        self.closed = True

    def _unpause(self) -> bool:
        """Ctrl-Q: send what Ctrl-S held; False when it held more than
        :data:`HOLD_LIMIT` (nothing is sent: the screen must be redrawn)."""
        self.paused = False
        held, overflow = self._held, self._held_overflow
        self._held, self._held_bytes, self._held_overflow = [], 0, False
        if overflow:
            return False
        if held:
            self.write(b"".join(held))
        return True

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
            self.hold_back()
            return
        self.bytes_sent += len(data)
        try:
            self._write(data)
        except (ConnectionError, OSError, RuntimeError) as exc:
            self.log.debug("write to %s failed: %s", self.peer, exc)
            self.lost()

    def hold_back(self) -> None:
        """The caller is not reading (over ``max_output``): new output is
        held back (the screen is redrawn whole later, see
        :attr:`dropped_output`) and they have ``stuck_timeout`` seconds."""
        self.dropped_output = True
        if self._stuck_timer is None and not self.closed:
            self._stuck_timer = asyncio.get_event_loop().call_later(self.stuck_timeout, self._check_stuck)

    def _check_stuck(self) -> None:
        self._stuck_timer = None
        if self.closed:
            return
        if self.buffered() > self.max_output:
            self._cut_off()

    def _cut_off(self) -> None:
        """The caller has not read for ``stuck_timeout`` seconds: end the
        connection now (an abort: a close would wait for them to read)."""
        self.log.info("%s has not read %d bytes for %g s: disconnecting", self.peer, self.buffered(),
                      self.stuck_timeout)
        self.abort()
        self.lost()

    counts_output = False
    """True for the transports whose :meth:`buffered` counts what waits to
    be sent (a 0 from the others says nothing)."""

    def buffered(self) -> int:
        """Bytes written but not yet taken by the network (0 if unknown)."""
        return 0

    def _write(self, data: bytes) -> None:
        raise NotImplementedError

    async def drain(self) -> None:
        """Wait until the transport has taken the queued output, at most
        ``stuck_timeout`` seconds: a caller who reads nothing for that long
        is disconnected (and a lost connection returns at once)."""
        if self.closed or self._drained():
            return
        try:
            async with asyncio.timeout(self.stuck_timeout):
                await self._drain()
        except TimeoutError:
            if not self.closed:
                self._cut_off()

    def _drained(self) -> bool:
        """True when the transport surely holds no output (drain then returns
        at once, without a timer); False when unknown."""
        return self.counts_output and self.buffered() == 0

    async def _drain(self) -> None:
        """The transport's own drain; calls :meth:`lost` when it fails."""
        raise NotImplementedError

    def close(self) -> None:
        """End the connection (what was written is still sent, for
        :data:`CLOSE_GRACE` seconds at most)."""
        raise NotImplementedError

    def abort(self) -> None:
        """End the connection at once, dropping unsent output."""
        self.close()

    def _abort_later(self) -> None:
        """After a close: if output is still unsent in :data:`CLOSE_GRACE`
        seconds (a caller who does not read), abort."""
        if self.buffered() > 0:
            asyncio.get_event_loop().call_later(CLOSE_GRACE, self._abort_if_stuck)

    def _abort_if_stuck(self) -> None:
        if self.buffered() > 0:
            self.abort()


