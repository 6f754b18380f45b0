"""The bans in force, as this node knows them: read from the store every
:data:`READ_EVERY` seconds (and at once after a ban made here), asked at
every connection's accept (:meth:`BanList.address`, without waiting for
the store) and at every login (:meth:`BanList.account`).  A ban that
covers somebody on line here ends their call, with its reason: a ban made
at any node's console or by ``cribbage-door records ban`` reaches every
node's callers within :data:`READ_EVERY` seconds.
"""

from __future__ import annotations

import asyncio
import logging

from door.net.metrics import refused
from door.records.bans import Ban, BanKind
from door.records.database import StoreError
from door.records.names import name_key
from door.records.store import Store
from door.sysop.lobby import Lobby

__all__ = ["BanList", "READ_EVERY", "refusal"]

log = logging.getLogger(__name__)

READ_EVERY = 1.0
"""Seconds between two readings of the store's bans."""


def refusal(ban: Ban) -> str:
    """What a banned caller is told (after "Sorry, "): a sentence with the reason."""
    return f"you are banned from this door: {ban.reason.rstrip('.')}."


class BanList:
    """The bans of ``store`` for this node, whose callers are in ``lobby``."""

    def __init__(self, store: Store, lobby: Lobby) -> None:
        self.store = store
        self.lobby = lobby
        self.bans: list[Ban] = []
        self._task: asyncio.Task[None] | None = None
        self._known: set[int] = set()

    async def start(self) -> None:
        """Read the bans now and keep reading them.  Raises :class:`StoreError`."""
        await self.read()
        self._task = asyncio.create_task(self._run())

    def stop(self) -> None:
        """Stop reading."""
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(READ_EVERY)
            try:
                await self.read()
            except StoreError as exc:  # (the store's outage is logged where it is found; the old list holds)
                log.debug("bans not read: %s", exc)

    async def read(self) -> None:
        """Read the bans in force, and end the calls of anybody on line
        here whom a new one covers.  Raises :class:`StoreError`."""
        bans = await self.store.bans.active()
        self.bans = bans
        new = [ban for ban in bans if ban.id not in self._known]
        self._known = {ban.id for ban in bans}
        if new:
            self._end_calls(new)

    async def make(self, target: str, reason: str, by: str) -> str:
        """Ban ``target`` (an account's name, an address or a network) for
        ``reason``, as the sysop ``by``, on every node; read at once here
        (a caller it covers is gone before this returns).  What happened,
        in words for the console (a mistake or the store's trouble
        included: nothing raises)."""
        try:
            ban = await self.store.bans.add(target, reason, by)
            await self.read()
        except (ValueError, StoreError) as exc:
            return f"no ban: {exc}"
        log.warning("%s banned %s %s: %s", by, ban.kind.value, ban.shown, ban.reason)
        return f"banned {ban.shown} on every node (ban {ban.id}; records unban {ban.id} lifts it)"

    def address(self, address: str) -> str | None:
        """Why a connection from ``address`` is refused (:func:`refusal`),
        or ``None``: it is not banned."""
        ban = next((b for b in self.bans if b.covers(address)), None)
        return refusal(ban) if ban is not None else None

    def account(self, name: str) -> str | None:
        """Why the account called ``name`` may not log in, or ``None``."""
        key = name_key(name)
        ban = next((b for b in self.bans if b.kind is BanKind.ACCOUNT and b.target == key), None)
        return refusal(ban) if ban is not None else None

    def _end_calls(self, bans: list[Ban]) -> None:
        for presence in self.lobby.callers():
            terminal = presence.terminal
            ban = next((b for b in bans if b.covers(terminal.address) or (
                b.kind is BanKind.ACCOUNT and presence.name and b.target == name_key(presence.name))), None)
            if ban is None or presence.away:
                continue
            log.warning("banned (%s): ending the call of %s from %s", ban.shown, presence.name or "-",
                        terminal.address)
            refused("banned")
            self.lobby.end_call(presence, f"Sorry, {refusal(ban)}")
