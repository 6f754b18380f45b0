"""Registering a name and changing a password, for the login screens
and the game protocol alike: at least :data:`MIN_PASSWORD` characters,
within the registration limits of ``[limits]`` (by the address
registering), and a store that cannot write said as such."""

from __future__ import annotations

from door.caller.side import Side
from door.records.accounts import Account, NameTaken, TooManyRegistrations
from door.records.names import name_key
from door.records.passwords import new_hash
from door.records.store import StoreError

__all__ = ["MIN_PASSWORD", "change_password", "create_account", "password_refused"]

MIN_PASSWORD = 6
"""The shortest password a caller may choose, in characters."""


def password_refused(password: str) -> str | None:
    """Why ``password`` may not be chosen (a sentence), or ``None``."""
    if len(password) < MIN_PASSWORD:
        return f"A password has at least {MIN_PASSWORD} characters."
    return None


async def create_account(side: Side, name: str, password: str) -> Account | str:
    """Register ``name`` with ``password`` (checked already by
    :func:`password_refused`) from the address ``side`` calls from; the account, or a
    sentence saying why not (a name with ``@``, which names a caller of
    another board of the cribbage hub; the name taken a moment ago, the address
    over the registration limit, the store not writing)."""
    ctx, log, address = side.ctx, side.log, side.terminal.address
    if "@" in name_key(name):  # (alias@BOARD: the account of a caller of another board of the cribbage hub)
        return "A name with @ belongs to a caller from another board: please choose one without."
    try:
        account = await ctx.store.accounts.create(name, await new_hash(password), address, ctx.limits.registrations)
    except NameTaken:
        return f"Someone registered {name} a moment ago: please choose another name."
    except TooManyRegistrations as exc:
        log.warning("registration of %r from %s refused: %s", name, address, exc)
        return f"{exc} Play as a guest, or call again later."
    except StoreError as exc:
        log.error("cannot register %r: %s", name, exc)
        return "The door cannot write its records right now: try again later, or play as a guest."
    log.info("registered %r", name)
    return account


async def change_password(side: Side, account: Account, password: str) -> str | None:
    """Change ``account``'s password to ``password`` (its old one checked
    already, as the caller logged in); ``None`` when done, else why not
    (:func:`password_refused`)."""
    refused = password_refused(password)
    if refused is not None:
        return refused
    await side.ctx.store.accounts.set_password(account.id, await new_hash(password))
    side.log.info("%r changed their password", account.name)
    return None
