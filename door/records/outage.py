"""A store's outage in the log: said once when it starts, once a minute
while it lasts, and once when it ends, however often the door tries the
database in between (the nodes' heartbeat, their LISTEN connection,
every caller's reads and writes)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

__all__ = ["OutageLog", "OUTAGE_EVERY"]

log = logging.getLogger(__name__)

OUTAGE_EVERY = 60.0
"""Seconds between the log's lines while an outage lasts."""


class OutageLog:
    """The outages of the database ``where`` (as it is named in messages:
    never with a password).  :meth:`failed` after each attempt that could
    not reach it, :meth:`reached` after each that did; both are safe from
    any thread.  ``every``: seconds between the lines while an outage
    lasts; ``clock``: seconds (monotonic)."""

    def __init__(self, where: str, every: float = OUTAGE_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.where = where
        self.every = every
        self.clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._said = 0.0
        self._failures = 0

    @property
    def down(self) -> bool:
        """True while an outage lasts (a failure, and no success since)."""
        return self._since is not None

    def failed(self, reason: str) -> None:
        """An attempt could not reach the database, for ``reason`` (a
        sentence without the password): logged if it begins an outage, or
        if the last line is :attr:`every` seconds old."""
        with self._lock:
            now = self.clock()
            self._failures += 1
            if self._since is None:
                self._since, self._said, self._failures = now, now, 1
                log.warning("%s: the store cannot be reached: %s", self.where, reason)
            elif now - self._said >= self.every:
                self._said = now
                log.warning("%s: the store has not been reached for %.0f s (%d failed attempts): %s", self.where,
                            now - self._since, self._failures, reason)

    def reached(self) -> None:
        """An attempt reached the database: an outage under way ends (logged)."""
        if self._since is None:
            return
        with self._lock:
            if self._since is None:
                return
            lasted, failures, self._since = self.clock() - self._since, self._failures, None
            log.warning("%s: the store is reached again after %.0f s (%d failed attempts)", self.where, lasted,
                        failures)
