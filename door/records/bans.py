"""Bans, kept in the store for every node: an account, an address or a
network that the door refuses, with the reason the caller is told.

An account is banned by its name's key (:func:`~door.records.names.name_key`:
a lookalike of the name is the same name), an address or a network by
its CIDR (``192.0.2.7/32``, ``2001:db8::/48``); a ban ends at ``expires``
(seconds since the epoch) or never (``None``).  A change is announced on
:data:`CHANNEL` (PostgreSQL's NOTIFY; on SQLite the commit is what the
nodes notice) so every node reads the list again at once.
"""

from __future__ import annotations

import enum
import functools
import ipaddress
from dataclasses import dataclass

from door.net.gate import plain_ip
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.names import name_key
from door.records.nodes import CHANNEL

__all__ = ["Ban", "BanKind", "Bans", "parse_target", "REASON_LIMIT"]

REASON_LIMIT = 200
"""The longest reason, in characters."""


class BanKind(enum.StrEnum):
    """What a ban names: an ``account`` (by its name) or a ``network`` (an address is a /32 or /128)."""

    ACCOUNT = "account"
    NETWORK = "network"


@dataclass(frozen=True)
class Ban:
    """One ban: its ``id``; its ``kind``; the ``target`` matched (a name's
    key, or a network in CIDR); how it was written (``shown``); the
    ``reason`` the caller is told; who made it (``made_by``); ``made``
    and ``expires`` (seconds since the epoch; ``None``: never)."""

    id: int
    kind: BanKind
    target: str
    shown: str
    reason: str
    made_by: str
    made: float
    expires: float | None

    def covers(self, address: str) -> bool:
        """True when this is a network ban and ``address`` is in it
        (an IPv4-mapped IPv6 address counts as IPv4)."""
        if self.kind is not BanKind.NETWORK:
            return False
        ip = plain_ip(address)
        if ip is None:
            return False
        network = _network(self.target)
        return network.version == ip.version and ip in network


@functools.lru_cache(maxsize=4096)
def _network(cidr: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """``cidr`` parsed once (every connection's accept asks every network ban)."""
    return ipaddress.ip_network(cidr)


def parse_target(text: str) -> tuple[BanKind, str, str]:
    """What ``text`` names: ``(kind, target, shown)``: an address or a
    network (``"192.0.2.7"``, ``"10.0.0.0/8"``) is a network, anything
    else an account's name.  Raises ``ValueError`` for an empty name or a
    network with host bits set.

    >>> parse_target("192.0.2.7")
    (<BanKind.NETWORK: 'network'>, '192.0.2.7/32', '192.0.2.7')
    >>> parse_target("Ann")
    (<BanKind.ACCOUNT: 'account'>, 'ann', 'Ann')
    """
    text = text.strip()
    if not text:
        raise ValueError("name an account, an address or a network")
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ValueError as exc:
        if "/" in text or text.replace(".", "").isdigit() or ":" in text:
            raise ValueError(f"not an address or a network: {text!r} ({exc})") from None
        key = name_key(text)
        if not key:
            raise ValueError(f"not a name: {text!r}") from None
        return BanKind.ACCOUNT, key, text
    return BanKind.NETWORK, str(network), text


class Bans:
    """The ``bans`` table in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def add(self, target: str, reason: str, made_by: str, expires: float | None = None) -> Ban:
        """Ban ``target`` (an account's name, an address or a network:
        :func:`parse_target`) for ``reason`` until ``expires`` (``None``:
        for good).  Raises ``ValueError`` for a target that is none of
        them, an empty reason or one past :data:`REASON_LIMIT`, and
        :class:`~door.records.database.StoreError`."""
        kind, key, shown = parse_target(target)
        reason = " ".join(reason.split())
        if not reason or len(reason) > REASON_LIMIT or not reason.isprintable():
            raise ValueError(f"give a reason of 1 to {REASON_LIMIT} printable characters")
        made = self.clock()

        def tx(db: Connection) -> int:
            cur = db.execute("INSERT INTO bans (kind, target, shown, reason, made_by, made, expires) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                             (kind.value, key, shown, reason, made_by, made, expires))
            self.database.notify(db, CHANNEL)
            return int(cur.fetchone()[0])
        ban_id = await self.database.tx(tx)
        return Ban(ban_id, kind, key, shown, reason, made_by, made, expires)

    async def lift(self, ban_id: int) -> bool:
        """Lift ban ``ban_id``; False when there is none.  Raises :class:`StoreError`."""
        def tx(db: Connection) -> bool:
            gone = db.execute("DELETE FROM bans WHERE id = ?", (ban_id,)).rowcount > 0
            self.database.notify(db, CHANNEL)
            return gone
        return await self.database.tx(tx)

    async def active(self) -> list[Ban]:
        """The bans in force now, oldest first.  Raises :class:`StoreError`."""
        now = self.clock()

        def query(db: Connection) -> list[Ban]:
            rows = db.execute("SELECT id, kind, target, shown, reason, made_by, made, expires FROM bans "
                              "WHERE expires IS NULL OR expires > ? ORDER BY id", (now,)).fetchall()
            return [Ban(int(r[0]), BanKind(r[1]), r[2], r[3], r[4], r[5], float(r[6]),
                        None if r[7] is None else float(r[7])) for r in rows]
        return await self.database.query(query)
