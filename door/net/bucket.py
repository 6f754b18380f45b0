"""One token bucket for every transport: how much a connection may send
the door (bytes, messages, pings) before the door reads it no faster, or
answers it no more.  A stranger's flood then waits in their own TCP
window, not in the door's memory or its event loop."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; ``clock``:
    seconds, monotonic.  :meth:`spent` takes what came and says how long
    to wait before reading more; :meth:`take` takes one token if there is
    one (a ping to answer, or not).

    >>> now = [0.0]
    >>> share = TokenBucket(1000, 2000, lambda: now[0])
    >>> share.spent(1500), share.spent(1500)
    (0.0, 1.0)
    >>> now[0] = 1.0; share.spent(0)
    0.0
    >>> pings = TokenBucket(1, 2, lambda: now[0])
    >>> pings.take(), pings.take(), pings.take()
    (True, True, False)
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        if rate <= 0 or burst <= 0:
            raise ValueError(f"a token bucket needs a rate and a burst above 0, got {rate!r} and {burst!r}")
        self.rate, self.burst, self.clock = rate, burst, clock
        self._tokens = float(burst)
        self._at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def spent(self, amount: float) -> float:
        """``amount`` tokens were used (even past what was saved): seconds
        to wait before more may be (0: none)."""
        self._refill()
        self._tokens -= amount
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    def take(self) -> bool:
        """One token, if there is one: True; else False (and none taken)."""
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
