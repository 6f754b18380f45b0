"""Every log line of a session names its connection.

The server sets :data:`CONNECTION` at the start of each session's task;
asyncio copies the context into every task the session starts (its seat's
keys, a table it runs), so every line logged on the session's behalf, by
any module, carries the id.  :class:`ConnectionFilter` puts it on each
record as ``conn`` ("-" outside a session) for :data:`FORMAT`.

Callers choose much of what is logged (terminal types, user names, chat,
names, reasons for a page); the same filter escapes every character of a
message that is not printable (a newline in a TTYPE would forge a log
line), so no call site can forget to.

Strangers also choose *how much* is logged: every connection, refused
hello or wrong password is a line.  The server sets :data:`SOURCE` to the
address a session or connection comes from, and :class:`SourceLimit`
lets each source (the address's network: sixty addresses of one block are
one source) write at most :data:`SOURCE_BURST` lines in any
:data:`SOURCE_PERIOD` seconds; what it holds back is counted, and said in
one line per source and period (refused peer hellos wrote
451 KiB of log a second from one client).  Lines of the door's own
(no source) and errors are never held back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextvars import ContextVar

from door.net.gate import network_of

__all__ = ["CONNECTION", "SOURCE", "ConnectionFilter", "SourceLimit", "FORMAT", "configure", "escape",
           "SOURCE_BURST", "SOURCE_PERIOD"]

CONNECTION: ContextVar[str] = ContextVar("connection", default="-")
"""The id of the connection whose session is running ("-": none)."""

SOURCE: ContextVar[str] = ContextVar("source", default="")
"""The address (no port) of the stranger on whose behalf this task runs
("": the door itself); :class:`SourceLimit` counts lines by it."""

SOURCE_BURST = 40
"""Lines one source may have logged in any :data:`SOURCE_PERIOD`."""

SOURCE_PERIOD = 10.0
"""Seconds over which :data:`SOURCE_BURST` counts."""

FORMAT = "%(asctime)s %(levelname)s [conn=%(conn)s] %(name)s: %(message)s"
"""The door's log line: time, level, connection, module, message."""


def escape(text: str) -> str:
    """``text`` with every non-printable character written as a Python
    escape (``\\n``, ``\\x1b``, ``\\u2028``); printable text as it is.

    >>> escape("ann\\r\\nERROR forged line\\x1b[2J")
    'ann\\\\r\\\\nERROR forged line\\\\x1b[2J'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class ConnectionFilter(logging.Filter):
    """Adds ``record.conn``, the current :data:`CONNECTION`, to every record
    a handler sees (also those propagated from other loggers), and escapes
    what is not printable in its message (:func:`escape`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.conn = CONNECTION.get()
        message = record.getMessage()
        clean = escape(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


class SourceLimit(logging.Filter):
    """Holds back a source's lines past ``burst`` in a ``period`` seconds
    long (from its first line in that period); the next line of that
    source, or of anybody, after the period says how many were held back,
    in a line of its own.  The source is the network
    (:func:`~door.net.gate.network_of`: an IPv4 /24, an IPv6 /56) of the
    record's ``source`` attribute (``extra={"source": ...}``) or else of
    :data:`SOURCE`; records at ERROR and above, and those without a source,
    always pass.  ``clock``:
    seconds, monotonic."""

    def __init__(self, burst: int = SOURCE_BURST, period: float = SOURCE_PERIOD,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst = burst
        self.period = period
        self.clock = clock
        self._counts: dict[str, list[float]] = {}
        """source -> [period start, lines logged, lines held back]."""
        self._next_sweep = 0.0
        self._emitting = False
        self.held_back = 0
        """Lines held back so far, in all (for tests and benchmarks)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if self._emitting:
            return True
        now = self.clock()
        if now >= self._next_sweep:
            self._sweep(now)
        address = getattr(record, "source", None) or SOURCE.get()
        if not address or record.levelno >= logging.ERROR:
            return True
        source = network_of(address)  # (a block of addresses is one source, as for registrations)
        count = self._counts.get(source)
        if count is None:
            self._counts[source] = [now, 1, 0]
            return True
        if now - count[0] >= self.period:
            self._report(source, count)
            count[:] = [now, 1, 0]
            return True
        count[1] += 1
        if count[1] <= self.burst:
            return True
        count[2] += 1
        self.held_back += 1
        return False

    def _sweep(self, now: float) -> None:
        """Say what was held back in periods that are over, and forget the
        sources that are quiet (at most once a period)."""
        self._next_sweep = now + self.period
        for source, count in list(self._counts.items()):
            if now - count[0] >= self.period:
                self._report(source, count)
                del self._counts[source]

    def _report(self, source: str, count: list[float]) -> None:
        if not count[2]:
            return
        self._emitting = True
        try:
            logging.getLogger(__name__).warning("%d log line(s) from %s held back in %g s", int(count[2]),
                                                escape(source), self.period)
        finally:
            self._emitting = False


def configure(level: int, handler: logging.Handler | None = None, worker: int | None = None) -> None:
    """Log at ``level`` in :data:`FORMAT` to ``handler`` (standard error
    when ``None``), replacing any handler set before; the chatty
    transports' own loggers only from WARNING.  ``worker``: the number of
    this worker process (``serve --workers``), written before the
    connection (``[worker=1 conn=7]``), since each worker counts its own."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(SourceLimit())
    handler.addFilter(ConnectionFilter())
    form = FORMAT if worker is None else FORMAT.replace("[conn=", f"[worker={worker} conn=")
    handler.setFormatter(logging.Formatter(form))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for noisy in ("asyncssh", "telnetlib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
