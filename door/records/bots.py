"""Bots: accounts that a program plays by the game protocol.  The sysop
makes one (``cribbage-door records bot NAME``), which gives it a token; the
store keeps the token's SHA-256 only (a token is 256 random bits: no
password hashing is needed to make it unguessable), and a program logs in
with the name and the token.

A bot plays rated matches in a pool (:data:`POOLS`): by default its own,
``"bots"``, so that a program's rating is never ranked beside a person's
and bots farming each other move no person's standing; the sysop may put
a bot in ``"people"`` (rated with callers, under the same fair-play
rules) or keep it ``"unrated"``."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from door.records.accounts import Account, Accounts
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database

__all__ = ["Bots", "TOKEN_BYTES", "POOLS", "PEOPLE", "BOTS"]

TOKEN_BYTES = 32
"""A token's random bytes (it is shown as 64 hex digits)."""

PEOPLE = "people"
"""The pool of every account that is no bot."""

BOTS = "bots"
"""The bots' own pool, a new bot's."""

POOLS = (BOTS, PEOPLE, "unrated")
"""The rating pools a bot may be in: its own (the default), people's, or none."""

NO_PASSWORD = "bot"
"""A bot account's password hash: no password verifies against it (it is no scrypt hash), so a
bot cannot log in by the name prompt."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Bots:
    """The ``bots`` table in ``database``, beside ``accounts``."""

    def __init__(self, database: Database, accounts: Accounts, clock: Clock = WALL) -> None:
        self.database = database
        self.accounts = accounts
        self.clock = clock

    async def make(self, name: str, pool: str | None = None) -> tuple[Account, str]:
        """Make ``name`` a bot (a new account when there is none by that
        name) with a fresh token, which replaces any it had, rated in
        ``pool`` (one of :data:`POOLS`; ``None`` keeps a bot's pool, and a
        new bot's is ``"bots"``); returns the account and the token, to
        show once.  An existing account of that name becomes the bot.
        Raises ``ValueError`` for a pool not in :data:`POOLS`."""
        if pool is not None and pool not in POOLS:
            raise ValueError(f"a bot's pool is one of {', '.join(POOLS)}, not {pool!r}")
        account = await self.accounts.find(name)
        if account is None:
            account = await self.accounts.create(name, NO_PASSWORD)
        token = secrets.token_hex(TOKEN_BYTES)
        digest, made, account_id = _digest(token), self.clock(), account.id

        def tx(db: Connection) -> None:
            db.execute("INSERT INTO bots (account_id, token_hash, made) VALUES (?, ?, ?) "
                       "ON CONFLICT (account_id) DO UPDATE SET token_hash = excluded.token_hash, made = excluded.made",
                       (account_id, digest, made))
            if pool is not None:
                db.execute("UPDATE bots SET pool = ? WHERE account_id = ?", (pool, account_id))
        await self.database.tx(tx)
        return account, token

    async def log_in(self, name: str, token: str) -> Account | None:
        """The bot called ``name`` when ``token`` is its token, else ``None``
        (the same for a wrong token and a name that is no bot)."""
        account = await self.accounts.find(name)
        if account is None:
            return None
        account_id = account.id
        row = await self.database.query(lambda db: db.execute(
            "SELECT token_hash FROM bots WHERE account_id = ?", (account_id,)).fetchone())
        if row is None or not hmac.compare_digest(str(row[0]), _digest(token)):
            return None
        return account

    async def pool_of(self, account_id: int) -> str:
        """The rating pool of ``account_id``: its pool when it is a bot's
        (one of :data:`POOLS`), else :data:`PEOPLE`."""
        row = await self.database.query(lambda db: db.execute(
            "SELECT pool FROM bots WHERE account_id = ?", (account_id,)).fetchone())
        return PEOPLE if row is None else str(row[0])

    async def is_bot(self, account_id: int) -> bool:
        """True when ``account_id`` is a bot's."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM bots WHERE account_id = ?", (account_id,)).fetchone()) is not None
