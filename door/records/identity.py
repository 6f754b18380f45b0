"""Who somebody is, as a login proved it (a value, not the
text ``"account:12"``): seats, presences and dropped games are matched by
it, never by a name typed at a prompt (DESIGN.md, "Identity")."""

from __future__ import annotations

from dataclasses import dataclass

from door.records.names import name_key

__all__ = ["Identity"]


@dataclass(frozen=True, slots=True)
class Identity:
    """A registered caller (``account``: the account id) or a sysop
    (``sysop``: the :func:`~door.records.names.name_key` of its
    ``[[sysop]]`` name); exactly one of the two is set.  A guest has none
    (``None`` where an identity is expected).

    >>> Identity.of_account(12), str(Identity.of_sysop("Gandalf"))
    (Identity(account=12, sysop=None), 'sysop:gandalf')
    """

    account: int | None = None
    sysop: str | None = None

    def __post_init__(self) -> None:
        if (self.account is None) == (self.sysop is None):
            raise ValueError("an identity is an account or a sysop, not both or neither")

    @classmethod
    def of_account(cls, account_id: int) -> Identity:
        """The identity of the registered caller with account ``account_id``."""
        return cls(account=account_id)

    @classmethod
    def of_sysop(cls, name: str) -> Identity:
        """The identity of the ``[[sysop]]`` entry ``name`` (its case and width do not matter)."""
        return cls(sysop=name_key(name))

    @property
    def is_sysop(self) -> bool:
        """True for a sysop."""
        return self.sysop is not None

    def __str__(self) -> str:
        """``"account:12"`` or ``"sysop:gandalf"`` (for the log, and as a key)."""
        return f"sysop:{self.sysop}" if self.sysop is not None else f"account:{self.account}"
