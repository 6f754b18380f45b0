"""A program's account by the game protocol: a guest registers the name
it logged in with (``register``), a registered caller changes their
password as they log in (``login``'s ``new_password``), by the door's
rules for both as at the login screens (:mod:`door.caller.registering`)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.registering import create_account, password_refused
from door.records.accounts import Account

__all__ = ["as_error", "register"]


def as_error(sentence: str) -> str:
    """A screen's sentence as the protocol's ``error`` words it: from a
    small letter, without the full stop (``"A password has at least 6
    characters."`` -> ``"a password has at least 6 characters"``)."""
    return sentence[:1].lower() + sentence[1:].rstrip(".")


async def register(side: ProgramSide, message: dict[str, Any]) -> Account | None:
    """Register the guest's name with ``message["password"]``, from the
    link's address within the registration limits.  On success the door
    says a ``notice`` and ``welcome`` again (``guest`` false) and the
    account is returned; otherwise an ``error`` says why (on ``password``
    or ``name``) and ``None`` is returned."""
    name, password = side.who.name, message["password"]
    refused = password_refused(password)
    if refused is not None:
        side.error("password", as_error(refused))
        return None
    account = await create_account(side, name, password)
    if isinstance(account, str):
        side.error("name", as_error(account))
        return None
    side.notice(f"{name} is registered: your games against the computer are kept, and you may play today's deal.")
    side.send({"type": "welcome", "name": name, "guest": False, "bot": False})
    return account
