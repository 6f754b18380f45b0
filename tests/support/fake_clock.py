"""A clock a test moves by hand, for the store's records and the game service."""

from __future__ import annotations

__all__ = ["FakeClock"]


class FakeClock:
    """A clock the test moves (``now``: seconds since the epoch)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
