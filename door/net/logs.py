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
import re
import time
from collections.abc import Callable
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

from door.net.gate import network_of

__all__ = ["CONNECTION", "SOURCE", "ACCOUNT", "ConnectionFilter", "SourceLimit", "FORMAT", "configure", "escape",
           "SOURCE_BURST", "SOURCE_PERIOD", "redact", "JSON_FIELDS", "Fault", "FAULT_EVERY"]

CONNECTION: ContextVar[str] = ContextVar("connection", default="-")
"""The id of the connection whose session is running ("-": none)."""

ACCOUNT: ContextVar[str] = ContextVar("account", default="")
"""The name the caller of the running session logged in as ("": not yet, or no session)."""

JSON_FIELDS = ("time", "level", "node", "worker", "conn", "account", "logger", "message")
"""The keys of a JSON log line (``[server] log_format = "json"``), in order;
``worker`` only under ``serve --workers``, ``account`` only once known, and
``exception`` when a traceback goes with the line."""

_SECRETS = (
    (re.compile(r"(://[^:/@\s]*:)[^@\s]*@"), r"\1***@"),
    (re.compile(r"((?:password|passwd|secret|token)\s*[=:]\s*)('[^']*'|\"[^\"]*\"|\S+)", re.I), r"\1***"),
)
"""A password in a URL (``postgresql://door:pw@db``) and a ``password=...``
(libpq's conninfo, a traceback's arguments) as they may reach a message."""


def redact(text: str) -> str:
    """``text`` with any password it holds written as ``***``.

    >>> redact("cannot reach postgresql://door:hunter2@db.example/cribbage")
    'cannot reach postgresql://door:***@db.example/cribbage'
    >>> redact("connection failed: host=db password=hunter2 user=door")
    'connection failed: host=db password=*** user=door'
    """
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text

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
    """Adds ``record.conn``, the current :data:`CONNECTION`, and
    ``record.account`` (:data:`ACCOUNT`) to every record a handler sees
    (also those propagated from other loggers), escapes what is not
    printable in its message (:func:`escape`) and hides any password in
    it (:func:`redact`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.conn = CONNECTION.get()
        record.account = ACCOUNT.get()
        message = record.getMessage()
        clean = redact(escape(message))
        if clean != message:
            record.msg, record.args = clean, None
        return True


class _Json(JsonFormatter):
    """One JSON object a line: :data:`JSON_FIELDS`, the node's name given."""

    def __init__(self, node: str, worker: int | None) -> None:
        super().__init__(json_ensure_ascii=False)
        self.node, self.worker = node, worker

    def add_fields(self, log_data: dict[str, object], record: logging.LogRecord,
                   message_dict: dict[str, object]) -> None:
        log_data["time"] = self.formatTime(record)
        log_data["level"] = record.levelname
        log_data["node"] = self.node
        if self.worker is not None:
            log_data["worker"] = self.worker
        log_data["conn"] = getattr(record, "conn", "-")
        account = getattr(record, "account", "")
        if account:
            log_data["account"] = account
        log_data["logger"] = record.name
        log_data["message"] = record.getMessage()
        if record.exc_info:
            log_data["exception"] = redact(str(self.formatException(record.exc_info)))
        elif record.exc_text:
            log_data["exception"] = redact(record.exc_text)


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


def configure(level: int, handler: logging.Handler | None = None, worker: int | None = None, node: str = "",
              json: bool = False) -> None:
    """Log at ``level`` in :data:`FORMAT` to ``handler`` (standard error
    when ``None``), replacing any handler set before; the chatty
    transports' own loggers only from WARNING.  ``worker``: the number of
    this worker process (``serve --workers``), written before the
    connection (``[worker=1 conn=7]``), since each worker counts its own;
    ``node``: this node's name (``[node=east conn=7]``; "" for none).
    With ``json``, each line is a JSON object of :data:`JSON_FIELDS` instead."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(SourceLimit())
    handler.addFilter(ConnectionFilter())
    if json:
        handler.setFormatter(_Json(node, worker))
    else:
        form = FORMAT if worker is None else FORMAT.replace("[conn=", f"[worker={worker} conn=")
        form = form.replace("[", f"[node={node} ", 1) if node else form
        handler.setFormatter(logging.Formatter(form))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for noisy in ("asyncssh", "telnetlib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


FAULT_EVERY = 60.0
"""Seconds between the lines of a fault that lasts (:class:`Fault`)."""


class Fault:
    """A fault that may repeat many times a second (a heartbeat that cannot
    reach the store), logged to ``logger`` as ``what``: once when it
    starts, once every :data:`FAULT_EVERY` seconds while it lasts (with how
    many times it happened meanwhile), and once when it ends (with how long
    it lasted).  ``clock``: seconds, monotonic."""

    def __init__(self, logger: logging.Logger, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.what, self.clock = logger, what, clock
        self.since: float | None = None
        """When the fault started (``None``: it is not happening)."""
        self._said = 0.0
        self._count = 0

    def failed(self, why: object) -> None:
        """It happened (again), because of ``why``."""
        now = self.clock()
        self._count += 1
        if self.since is None:
            self.since, self._said, self._count = now, now, 0
            self.logger.warning("%s: %s", self.what, why)
        elif now - self._said >= FAULT_EVERY:
            self.logger.warning("%s for %.0f s (%d times in the last %.0f s): %s", self.what, now - self.since,
                                self._count, now - self._said, why)
            self._said, self._count = now, 0

    def ok(self) -> None:
        """It did not happen this time: if it was happening, it has ended."""
        if self.since is not None:
            self.logger.warning("%s: over after %.1f s", self.what, self.clock() - self.since)
            self.since = None
