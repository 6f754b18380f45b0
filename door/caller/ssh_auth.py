"""Who may log in over SSH: the door's :class:`~door.net.ssh.Authenticator`.

A user name that is not a registered account or a sysop logs in without
authentication (a guest, or a caller who logs in inside the door).  A
registered name must prove itself: with a public key linked to the account,
or else with the account's password (wrong ones are slowed down, logged,
and end the connection after ``limits.ssh_password_attempts``).  A sysop's
name proves itself with a key or password of its ``[[sysop]]`` entry.

The identity is fixed only in :meth:`SshAuthenticator.completed`, from what
the last method proved and only for the user name that authenticated:
asyncssh asks about a key for an unsigned *query* too (RFC 4252 section 7),
so a key that merely matched proves nothing until the connection says
authentication is complete, and every new user name starts from nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from door.caller.identity import Login
from door.config import SysopConfig
from door.net.gate import address_of
from door.records.accounts import Accounts
from door.records.names import name_key
from door.records.store import Account
from door.records.throttle import LoginThrottle

__all__ = ["SshAuthenticator"]

log = logging.getLogger(__name__)


class SshAuthenticator:
    """Authentication of one SSH connection from ``peer`` ("host:port")
    against the ``accounts`` of the store and the ``sysops``, its wrong
    passwords counted by ``throttle`` and at most ``attempts`` of them
    (``[limits] ssh_password_attempts``) on the connection; ``close()``
    ends the connection."""

    def __init__(self, accounts: Accounts, sysops: Sequence[SysopConfig], throttle: LoginThrottle, attempts: int,
                 peer: str, close: Callable[[], None]) -> None:
        self.accounts = accounts
        self.sysops = sysops
        self.throttle = throttle
        self.attempts = attempts
        self.peer = peer
        self.close = close
        self.wrong_passwords = 0
        self._sysop: SysopConfig | None = None
        self._account: Account | None = None
        self._offered_key: str | None = None
        self._proved: Login | None = None

    async def begin_auth(self, username: str) -> bool:
        """A new user name: forget everything about the last one."""
        self._sysop, self._account, self._offered_key, self._proved = None, None, None, None
        self._sysop = next((s for s in self.sysops if name_key(s.name) == name_key(username)), None)
        if self._sysop is not None:
            return True
        self._account = await self.accounts.find(username)
        return self._account is not None

    async def validate_public_key(self, username: str, key: str) -> bool:
        self._proved = None
        if self._sysop is not None:
            if key in self._sysop.ssh_keys:
                self._proved = Login(username, sysop=self._sysop)
                return True
            return False
        if self._account is None:
            return False
        if await self.accounts.key_matches(self._account.id, key):
            self._proved = Login(username, account=self._account)
            return True
        self._offered_key = key
        return False

    async def validate_password(self, username: str, password: str) -> bool:
        self._proved = None
        who = self._sysop or self._account
        if who is None:
            return False
        if self._sysop is not None:
            stored = self._sysop.password
        else:
            assert self._account is not None
            stored = await self.accounts.password_hash(self._account.id)
        if self.wrong_passwords >= self.attempts:
            return False  # this connection is being closed
        where = "ssh (sysop)" if self._sysop is not None else "ssh"
        verdict = await self.throttle.check(who.name, address_of(self.peer), where, password, stored)
        if verdict.ok:
            self._proved = Login(username, account=self._account, sysop=self._sysop, offered_key=self._offered_key)
            return True
        # counted, and the connection closed if need be, before any wait: a
        # new request cancels this one's wait but not what was counted
        self.wrong_passwords += 1
        if self.wrong_passwords >= self.attempts or verdict.refused:
            log.warning("closing %s after %d wrong password(s)%s", self.peer, self.wrong_passwords,
                        f" ({verdict.refused})" if verdict.refused else "", extra={"source": address_of(self.peer)})
            self.close()
            return False
        await asyncio.sleep(verdict.delay)
        return False

    def completed(self, username: str) -> Login:
        """Authentication of ``username`` succeeded: what the last method
        proved for that name, or a guest login under it."""
        proved, self._proved = self._proved, None
        if proved is not None and proved.user_name == username:
            return proved
        return Login(username)
