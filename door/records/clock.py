"""The one clock of the door's records and tables: seconds
since the epoch, injected where time is read, so that a test can set it.
Timeouts that only wait use the event loop's clock instead."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Clock", "WALL"]

Clock = Callable[[], float]
"""A source of the time: seconds since the epoch, as :func:`time.time` gives."""

WALL: Clock = time.time
"""The real time."""
