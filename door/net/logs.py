"""Every log line of a session names its connection.

The server sets :data:`CONNECTION` at the start of each session's task;
asyncio copies the context into every task the session starts (its seat's
keys, a table it runs), so every line logged on the session's behalf, by
any module, carries the id.  :class:`ConnectionFilter` puts it on each
record as ``conn`` ("-" outside a session) for :data:`FORMAT`.

Callers choose much of what is logged (terminal types, user names, chat,
names, reasons for a page); the same filter escapes every character of a
message that is not printable (a newline in a TTYPE would forge a log
line), so no call site can forget to (issue 13.10).
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

__all__ = ["CONNECTION", "ConnectionFilter", "FORMAT", "configure", "escape"]

CONNECTION: ContextVar[str] = ContextVar("connection", default="-")
"""The id of the connection whose session is running ("-": none)."""

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


def configure(level: int, handler: logging.Handler | None = None, worker: int | None = None) -> None:
    """Log at ``level`` in :data:`FORMAT` to ``handler`` (standard error
    when ``None``), replacing any handler set before; the chatty
    transports' own loggers only from WARNING.  ``worker``: the number of
    this worker process (``serve --workers``), written before the
    connection (``[worker=1 conn=7]``), since each worker counts its own."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(ConnectionFilter())
    form = FORMAT if worker is None else FORMAT.replace("[conn=", f"[worker={worker} conn=")
    handler.setFormatter(logging.Formatter(form))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for noisy in ("asyncssh", "telnetlib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
