"""A caller a BBS vouches for (door mode, or a BBS node handed to the
running server): their account under the BBS user name, and the time the
BBS gave them today."""

from __future__ import annotations

import asyncio
import logging

from door.net.ansi import CLEAR
from door.net.terminal import Terminal
from door.records.store import Account, Store
from door.sysop.presence import Presence

__all__ = ["bbs_account", "time_limit", "WARN_BEFORE"]

log = logging.getLogger(__name__)

WARN_BEFORE = 120
"""Seconds before the time is up that the caller is warned."""


async def bbs_account(store: Store, name: str) -> Account:
    """The store account of a BBS user (made on the first call, with no
    usable password: the BBS vouches for the caller).  Raises
    :class:`~door.records.store.StoreError` when the store fails."""
    account = await store.accounts.find(name)
    if account is None:
        account = await store.accounts.create(name, "!door")
    return account


async def time_limit(terminal: Terminal, seconds: float, presence: Presence) -> None:
    """Warn the caller :data:`WARN_BEFORE` seconds before their ``seconds``
    run out, then say their time is up and end the connection (their game
    is saved as after any dropped line)."""
    if seconds > WARN_BEFORE:
        await asyncio.sleep(seconds - WARN_BEFORE)
        presence.tell(f"You have {WARN_BEFORE // 60} minutes left today.")
        terminal.write(b"\x07")
        seconds = WARN_BEFORE
    await asyncio.sleep(seconds)
    # on a clear screen, from its top: written below the game it scrolled it
    terminal.write((b"\r\n" if terminal.plain else CLEAR) + b"Your time is up. Your game is saved: it waits for you "
                   b"next time.\r\n")
    await terminal.drain()
    log.info("time is up")
    terminal.lost()
