"""Every log line of a session names its connection.

The server sets :data:`CONNECTION` at the start of each session's task;
asyncio copies the context into every task the session starts (its seat's
keys, a table it runs), so every line logged on the session's behalf, by
any module, carries the id.  :class:`ConnectionFilter` puts it on each
record as ``conn`` ("-" outside a session) for :data:`FORMAT`.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

__all__ = ["CONNECTION", "ConnectionFilter", "FORMAT", "configure"]

CONNECTION: ContextVar[str] = ContextVar("connection", default="-")
"""The id of the connection whose session is running ("-": none)."""

FORMAT = "%(asctime)s %(levelname)s [conn=%(conn)s] %(name)s: %(message)s"
"""The door's log line: time, level, connection, module, message."""


class ConnectionFilter(logging.Filter):
    """Adds ``record.conn``, the current :data:`CONNECTION`, to every record
    a handler sees (also those propagated from other loggers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.conn = CONNECTION.get()
        return True


def configure(level: int, handler: logging.Handler | None = None) -> None:
    """Log at ``level`` in :data:`FORMAT` to ``handler`` (standard error
    when ``None``), replacing any handler set before; the chatty
    transports' own loggers only from WARNING."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(ConnectionFilter())
    handler.setFormatter(logging.Formatter(FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for noisy in ("asyncssh", "telnetlib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
