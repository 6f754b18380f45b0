"""A program's account by the game protocol: a guest registers the name
it logged in with (``register``), a registered caller changes their
password as they log in (``login``'s ``new_password``), with the door's
rules for both as at the login screens (:mod:`door.caller.login`): at
least six characters, the registration limits of ``[limits]``."""

from __future__ import annotations

import logging
from typing import Any

from door.caller.login import MIN_PASSWORD
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.play.api_messages import error_message
from door.records.accounts import Account, NameTaken, TooManyRegistrations
from door.records.passwords import new_hash
from door.records.store import StoreError

__all__ = ["register", "change_password"]

log = logging.getLogger(__name__)


async def register(link: ApiLink, ctx: DoorContext, name: str, message: dict[str, Any]) -> Account | None:
    """Register the guest ``name`` with ``message["password"]`` (at least
    :data:`~door.caller.login.MIN_PASSWORD` characters), from the link's
    address within the registration limits.  On success the door says a
    ``notice`` and ``welcome`` again (``guest`` false) and the account is
    returned; otherwise an ``error`` says why (on ``password`` or
    ``name``) and ``None`` is returned."""
    password = message["password"]
    if len(password) < MIN_PASSWORD:
        link.send(error_message("password", f"a password has at least {MIN_PASSWORD} characters"))
        return None
    try:
        account = await ctx.store.accounts.create(name, await new_hash(password), link.address,
                                                  ctx.limits.registrations)
    except NameTaken:
        link.send(error_message("name", f"someone registered {name} a moment ago: log in with another name"))
        return None
    except TooManyRegistrations as exc:
        log.warning("registration of %r from %s refused: %s", name, link.address, exc)
        link.send(error_message("name", f"{exc} Play as a guest, or call again later."))
        return None
    except StoreError as exc:
        log.error("cannot register %r: %s", name, exc)
        link.send(error_message("name", "the door cannot write its records right now: try again later"))
        return None
    log.info("registered %r by the game protocol", name)
    link.send({"type": "notice", "text": f"{name} is registered: your games against the computer are kept, "
                                         "and you may play today's deal."})
    link.send({"type": "welcome", "name": name, "guest": False, "bot": False})
    return account


async def change_password(ctx: DoorContext, account: Account, password: str) -> str | None:
    """Change ``account``'s password to ``password`` (its old one checked
    already, as the caller logged in); ``None`` when done, else why not
    (shorter than :data:`~door.caller.login.MIN_PASSWORD` characters)."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    await ctx.store.accounts.set_password(account.id, await new_hash(password))
    log.info("%r changed their password by the game protocol", account.name)
    return None
