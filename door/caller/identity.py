"""Who is at a terminal, as far as the transport could prove it.

A :class:`Login` travels beside the :class:`~door.net.terminal.Terminal`
from the listener to the session: set only after authentication succeeded
(an SSH key whose signature checked, or a right password), never from a
name someone typed.  Seats and dropped games are matched to it
(DESIGN.md, "Identity").
"""

from __future__ import annotations

from dataclasses import dataclass

from door.config import SysopConfig
from door.records.store import Account

__all__ = ["Login", "Caller"]


@dataclass(frozen=True)
class Login:
    """``user_name``: the SSH login name (offered as the caller's name),
    ``None`` over telnet; ``account``: the account an SSH key or password
    proved; ``sysop``: the sysop entry proved (or the local console's);
    ``offered_key``: an SSH public key ("TYPE BASE64") the client showed
    that no account knew, to offer linking after a password login."""

    user_name: str | None = None
    account: Account | None = None
    sysop: SysopConfig | None = None
    offered_key: str | None = None


@dataclass(frozen=True)
class Caller:
    """The person at the terminal once the door knows who it is: ``name``,
    and ``account`` unless a guest."""

    name: str
    account: Account | None

    @property
    def guest(self) -> bool:
        """True for a guest (no account: nothing is kept)."""
        return self.account is None
