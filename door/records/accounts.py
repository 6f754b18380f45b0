"""Accounts: registered callers, their scrypt password hashes, their SSH
keys and their remembered options.  Names are unique by
:func:`~door.records.names.name_key` (case, width and invisible characters
ignored)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from door.net.gate import network_of
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Conflict, Database
from door.records.names import name_key

__all__ = ["Account", "Accounts", "NameTaken", "RegistrationLimit", "TooManyRegistrations", "name_key", "network_of"]


class NameTaken(ValueError):
    """A name already registered (names are unique ignoring case)."""


class TooManyRegistrations(ValueError):
    """A registration over a :class:`RegistrationLimit`; the text says which."""


@dataclass(frozen=True)
class RegistrationLimit:
    """New accounts registered in any ``window`` seconds: at most
    ``per_address`` from one address and ``per_network`` from one network
    (:func:`network_of`: an IPv4 /24, an IPv6 /56), and ``total`` from all
    the networks that registered in the window, past which ``reserve``
    more are kept for callers of networks that have not (``[limits]
    register_window``, ``register_per_address``, ``register_per_network``,
    ``register_total``, ``register_reserve``).  A stranger with a script
    cannot fill the disk with accounts, nor the password hasher's threads
    with their hashes, and a few addresses cannot switch registration off
    for everybody else (ten addresses filled ``total``)."""

    window: float = 3600.0
    per_address: int = 5
    total: int = 50
    per_network: int = 10
    reserve: int = 50


@dataclass(frozen=True)
class Account:
    """A registered caller: ``id``, display ``name``, saved ``options``."""

    id: int
    name: str
    options: dict[str, Any]


def _account(row: Sequence[Any] | None) -> Account | None:
    return None if row is None else Account(row[0], row[1], json.loads(row[2]))


class Accounts:
    """The accounts in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def find(self, name: str) -> Account | None:
        """The account named ``name`` (ignoring case), or ``None``."""
        return await self.database.query(lambda db: _account(db.execute(
            "SELECT id, name, options FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()))

    async def get(self, account_id: int) -> Account | None:
        """The account whose id is ``account_id``, or ``None``."""
        return await self.database.query(lambda db: _account(db.execute(
            "SELECT id, name, options FROM accounts WHERE id = ?", (account_id,)).fetchone()))

    async def names(self, account_ids: Iterable[int]) -> dict[int, str]:
        """The names of the accounts of ``account_ids`` (those that exist),
        by id, in one query (a list of offers names its makers at once)."""
        ids = sorted(set(account_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        return await self.database.query(lambda db: {row[0]: row[1] for row in db.execute(
            f"SELECT id, name FROM accounts WHERE id IN ({marks})", tuple(ids)).fetchall()})

    async def password_hash(self, account_id: int) -> str:
        """The stored scrypt hash of an account."""
        return await self.database.query(lambda db: str(db.execute(
            "SELECT password_hash FROM accounts WHERE id = ?", (account_id,)).fetchone()[0]))

    async def create(self, name: str, password_hash: str, address: str = "",
                     limit: RegistrationLimit | None = None) -> Account:
        """Register ``name`` with a hash from :func:`door.records.passwords.hash_password`,
        from the caller's ``address`` (empty: not a caller's, such as a
        BBS user's account).  Raises :class:`NameTaken` when the name
        (ignoring case) exists, and with a ``limit``,
        :class:`TooManyRegistrations` when it is reached (checked in the
        same transaction: on SQLite no two registrations pass it together)."""
        def tx(db: Connection) -> Account:
            if limit is not None:
                refusal = _over(db, limit, address, self.clock())
                if refusal:
                    raise TooManyRegistrations(refusal)
            row = db.execute("INSERT INTO accounts (name, name_key, password_hash, created, created_from) "
                             "VALUES (?, ?, ?, ?, ?) RETURNING id",
                             (name, name_key(name), password_hash, self.clock(), address)).fetchone()
            return Account(int(row[0]), name, {})
        try:
            return await self.database.tx(tx)
        except Conflict:
            raise NameTaken(f"the name {name!r} is taken") from None

    async def registration_refused(self, address: str, limit: RegistrationLimit) -> str:
        """Why a caller from ``address`` may not register now (``limit``
        reached), or ``""`` when they may."""
        return await self.database.query(lambda db: _over(db, limit, address, self.clock()))

    async def add_ssh_key(self, account_id: int, key: str) -> None:
        """Let the OpenSSH public key ``key`` (``"ssh-ed25519 AAAA..."``) log
        in to the account (keys are linked per account: linking a key to one
        account never changes another)."""
        await self.database.tx(lambda db: db.execute(
            "INSERT INTO ssh_keys (account_id, key, added) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (account_id, key, self.clock())))

    async def has_ssh_keys(self, account_id: int) -> bool:
        """True when at least one SSH key is linked to the account."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM ssh_keys WHERE account_id = ? LIMIT 1", (account_id,)).fetchone() is not None)

    async def key_matches(self, account_id: int, key: str) -> bool:
        """True when ``key`` is linked to the account."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM ssh_keys WHERE account_id = ? AND key = ?", (account_id, key)).fetchone() is not None)

    async def set_password(self, account_id: int, password_hash: str) -> None:
        """Change the account's password to the one ``password_hash``
        (from :func:`door.records.passwords.hash_password`) stands for."""
        await self.database.tx(lambda db: db.execute(
            "UPDATE accounts SET password_hash = ? WHERE id = ?", (password_hash, account_id)))

    async def save_options(self, account_id: int, options: dict[str, Any]) -> None:
        """Remember a caller's options."""
        await self.database.tx(lambda db: db.execute(
            "UPDATE accounts SET options = ? WHERE id = ?", (json.dumps(options), account_id)))

    async def remove(self, name: str) -> int:
        """Remove a player's account and every game that player took part
        in (Cribbage Champ's ``CRIB xxx /R``, as in Cribbage Champ); returns the games
        removed, or -1 when there is no such account."""
        def tx(db: Connection) -> int:
            row = db.execute("SELECT id FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
            if row is None:
                return -1
            n = db.execute("DELETE FROM games WHERE account0 = ? OR account1 = ?", (row[0], row[0])).rowcount
            db.execute("DELETE FROM accounts WHERE id = ?", (row[0],))
            return int(n)
        return await self.database.tx(tx)

    async def remove_all(self) -> int:
        """Remove every record and account (``CRIB /X``, as in Cribbage Champ); returns
        the games removed."""
        def tx(db: Connection) -> int:
            n = db.execute("DELETE FROM games").rowcount
            db.execute("DELETE FROM accounts")
            return int(n)
        return await self.database.tx(tx)


def _over(db: Connection, limit: RegistrationLimit, address: str, now: float) -> str:
    """Why ``limit`` refuses a registration from ``address`` at ``now`` (seconds since the epoch), or ``""``."""
    since = now - limit.window
    froms = [str(row[0] or "") for row in db.execute(
        "SELECT created_from FROM accounts WHERE created > ?", (since,)).fetchall()]
    if address and sum(1 for f in froms if f == address) >= limit.per_address:
        return "Too many names were registered from your address lately."
    network = network_of(address) if address else ""
    in_network = sum(1 for f in froms if f and network_of(f) == network) if network else 0
    if network and in_network >= limit.per_network:
        return "Too many names were registered from your network lately."
    if len(froms) >= limit.total + (0 if in_network else limit.reserve):
        return "Too many names were registered lately."
    return ""
