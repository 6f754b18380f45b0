"""Slowing down repeated wrong passwords (per name), and logging them.

After the n-th wrong password in a row for a name, the next answer waits
``min(MAX_DELAY, BASE_DELAY * 2 ** (n - 1))`` seconds; a right password
clears the count.
"""

from __future__ import annotations

import logging

__all__ = ["LoginThrottle", "BASE_DELAY", "MAX_DELAY"]

BASE_DELAY = 0.5
"""Seconds of delay after the first wrong password."""
MAX_DELAY = 8.0
"""The longest delay, in seconds."""

log = logging.getLogger(__name__)


class LoginThrottle:
    """Wrong-password counts per name (ignoring case), shared by the
    telnet and SSH logins of one server."""

    def __init__(self) -> None:
        self._failures: dict[str, int] = {}

    def failure(self, name: str, peer: str, where: str) -> float:
        """Note a wrong password for ``name`` from ``peer`` (logged, never
        the password); returns the delay in seconds to wait before answering."""
        key = name.casefold()
        n = self._failures.get(key, 0) + 1
        self._failures[key] = n
        delay = min(MAX_DELAY, BASE_DELAY * 2.0 ** (n - 1))
        log.warning("wrong password for %r from %s over %s (%d in a row); waiting %.1f s", name, peer, where, n, delay)
        return delay

    def success(self, name: str) -> None:
        """A right password for ``name``: forget its failures."""
        self._failures.pop(name.casefold(), None)

    def failures(self, name: str) -> int:
        """Wrong passwords in a row for ``name``."""
        return self._failures.get(name.casefold(), 0)
