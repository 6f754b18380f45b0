"""Wrong passwords: counted per address and per account over a sliding
window, across connections and transports (telnet and SSH share one
:class:`LoginThrottle`), and logged (never the password).

Before a password is checked the login asks :meth:`LoginThrottle.admit`:

- An address with ``per_address`` wrong passwords (for any names) in the
  last ``window`` seconds gets no more checks until the oldest ages out.
  Checks under way count as wrong until they answer, so a thousand
  parallel guesses from one address are still ``per_address`` guesses.
- An account with ``per_account`` wrong passwords in the window gets no
  more checks *from the addresses that failed on it*; an address that has
  not failed on it is always checked.  So a password guesser spread over
  many addresses gets one guess per fresh address, while the account's
  owner, who is not behind the attacker's addresses, logs in at once: a
  right password never waits behind an attacker's wrong ones, and nobody
  can lock a victim out by failing on purpose.

A name that has no account counts as a wrong password for that name (a
password given for it is checked against a decoy hash,
:func:`~door.records.passwords.decoy_hash`, taking as long), so probing
for registered names is slowed and refused as guessing passwords is; and
a login told "that name is registered" without a password (a guest's
name by the game protocol) is a miss too (:meth:`LoginThrottle.miss`).

A wrong answer itself waits ``min(MAX_DELAY, BASE_DELAY * 2 ** (n - 1))``
seconds, ``n`` being that address's failures on that name in the window
(the connection waits, not the account).  A right password clears the
address's failures on that name.

An attacker therefore gets, per ``window`` (600 s by default):
``per_address`` (10) guesses from each address, and at most
``per_account`` (20) plus one per fresh address against one account.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass

from door.net.metrics import refused
from door.records.names import name_key
from door.records.passwords import check_password

__all__ = ["LoginThrottle", "Verdict", "BASE_DELAY", "MAX_DELAY", "WINDOW", "PER_ADDRESS", "PER_ACCOUNT"]

BASE_DELAY = 0.5
"""Seconds of delay after the first wrong password."""
MAX_DELAY = 8.0
"""The longest delay, in seconds."""
WINDOW = 600.0
"""Seconds over which wrong passwords are counted."""
PER_ADDRESS = 10
"""Wrong passwords from one address in :data:`WINDOW` before its checks stop."""
PER_ACCOUNT = 20
"""Wrong passwords for one account in :data:`WINDOW` before the addresses
that failed on it are no longer checked for it."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """What :meth:`LoginThrottle.check` found: ``ok`` (the password is
    right), else ``refused`` (a sentence: not checked at all) or ``delay``
    (seconds the wrong answer should wait)."""

    ok: bool
    refused: str | None = None
    delay: float = 0.0


class LoginThrottle:
    """Wrong-password windows for one server.  ``clock`` gives seconds
    (monotonic); the limits default to the module's constants."""

    def __init__(self, window: float = WINDOW, per_address: int = PER_ADDRESS, per_account: int = PER_ACCOUNT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.per_address = per_address
        self.per_account = per_account
        self.clock = clock
        self._by_address: defaultdict[str, deque[float]] = defaultdict(deque)
        self._by_account: defaultdict[str, deque[tuple[float, str]]] = defaultdict(deque)
        self._pending: defaultdict[str, int] = defaultdict(int)
        self.checks = 0
        """Passwords actually checked (for the tests and benchmarks)."""

    def _expire(self, name: str, address: str) -> None:
        horizon = self.clock() - self.window
        times = self._by_address.get(address)
        while times and times[0] < horizon:
            times.popleft()
        if times is not None and not times:
            del self._by_address[address]
        fails = self._by_account.get(name)
        while fails and fails[0][0] < horizon:
            fails.popleft()
        if fails is not None and not fails:
            del self._by_account[name]

    def admit(self, name: str, address: str) -> str | None:
        """May a password for ``name`` from ``address`` be checked now?
        ``None``: yes (a check is under way until :meth:`failure` or
        :meth:`success` is called); else a sentence for the caller."""
        key = name_key(name)
        self._expire(key, address)
        if len(self._by_address.get(address, ())) + self._pending[address] >= self.per_address:
            minutes = max(1, round(self.window / 60))
            return f"Too many wrong passwords from your address: try again in {minutes} minutes."
        fails = self._by_account.get(key, ())
        if len(fails) >= self.per_account and any(a == address for _, a in fails):
            return f"Too many wrong passwords for {name}: try again later."
        self._pending[address] += 1
        self.checks += 1
        return None

    def _done(self, address: str) -> None:
        left = self._pending[address] - 1
        if left > 0:
            self._pending[address] = left
        else:
            self._pending.pop(address, None)

    def failure(self, name: str, address: str, where: str, what: str = "wrong password") -> float:
        """A checked password for ``name`` from ``address`` (over ``where``:
        "telnet", "ssh", ...) was wrong (or another miss, ``what``, as
        :meth:`miss` counts): count it, log it; returns the seconds the
        answer should wait."""
        self._done(address)
        key = name_key(name)
        now = self.clock()
        self._by_address[address].append(now)
        self._by_account[key].append((now, address))
        n = sum(1 for _, a in self._by_account[key] if a == address)
        delay = min(MAX_DELAY, BASE_DELAY * 2.0 ** (n - 1))
        log.warning("%s for %r from %s over %s (%d from there in %g s, %d for the name); waiting %.1f s",
                    what, name, address, where, n, self.window, len(self._by_account[key]), delay,
                    extra={"source": address})
        return delay

    def success(self, name: str, address: str) -> None:
        """A checked password for ``name`` from ``address`` was right: that
        address's failures on the name are forgotten."""
        self._done(address)
        key = name_key(name)
        fails = self._by_account.get(key)
        if fails:
            kept = deque(f for f in fails if f[1] != address)
            if kept:
                self._by_account[key] = kept
            else:
                del self._by_account[key]

    def miss(self, name: str, address: str, where: str, what: str) -> Verdict:
        """A login for ``name`` from ``address`` (over ``where``) that
        checked no password failed, ``what`` saying how (for the log: "a
        guest asked for a registered name"): counted as a wrong password,
        within the same limits.  The verdict is never ``ok``: ``refused``
        when the address or name is over its limit, else the ``delay``
        its answer should wait."""
        why = self.admit(name, address)
        if why is not None:
            log.warning("%s for %r from %s over %s, refused: %s", what, name, address, where, why,
                        extra={"source": address})
            return Verdict(False, refused=why)
        return Verdict(False, delay=self.failure(name, address, where, what))

    async def check(self, name: str, address: str, where: str, password: str, stored: str) -> Verdict:
        """Check ``password`` against the hash ``stored`` for ``name`` from
        ``address`` (over ``where``), within the limits: scrypt runs off
        the event loop.  A check abandoned half way (the client sent
        another request, or hung up) counts as a wrong password."""
        why = self.admit(name, address)
        if why is not None:
            log.warning("not checking a password for %r from %s over %s: %s", name, address, where, why,
                        extra={"source": address})
            refused("throttled")
            return Verdict(False, refused=why)
        answered = False
        try:
            ok = bool(stored) and await check_password(password, stored)
            answered = True
        finally:
            if not answered:
                self.failure(name, address, where)
        if ok:
            self.success(name, address)
            return Verdict(True)
        refused("password")
        return Verdict(False, delay=self.failure(name, address, where))

    def failures(self, name: str) -> int:
        """Wrong passwords for ``name`` in the window."""
        key = name_key(name)
        return len(self._by_account.get(key, ()))
