"""Password hashes with :func:`hashlib.scrypt`; passwords are never stored
or logged in plain text.

A hash is one string: ``scrypt$N$r$p$SALT$HASH`` (salt and hash in hex), so
the cost can be raised later without breaking old hashes.

A password is compared in one form whatever the transport:
:func:`normalize_password` (NFKC, as SASLprep, RFC 4013, maps it; spaces
kept), so ``"ｐａｓｓ"`` typed over telnet in full width, the same word
composed differently by an SSH client, and plain ``"pass"`` are one
password.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor

__all__ = ["hash_password", "verify_password", "normalize_password", "check_password", "new_hash", "SCRYPT_N",
           "HASH_WORKERS", "decoy_hash"]

HASH_WORKERS = 2
"""Threads that run scrypt (16 MiB each while it runs): the door's memory
for password checks is bounded by this, whatever a password guesser does
(with asyncio's default executor, six threads kept their arenas)."""

_hashing = ThreadPoolExecutor(max_workers=HASH_WORKERS, thread_name_prefix="scrypt")

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
"""scrypt cost: about 16 MiB of memory and 30-60 ms per hash here."""


def normalize_password(password: str) -> str:
    """The one form a password is hashed and checked in: NFKC, with every
    kind of space as U+0020 (SASLprep's mapping, RFC 4013 2.1-2.2).

    >>> normalize_password("\uff50\uff41\uff53\uff53") == normalize_password("pass") == "pass"
    True
    """
    spaced = "".join(" " if ch.isspace() and ch not in "\t\r\n" else ch for ch in password)
    return unicodedata.normalize("NFKC", spaced)


def hash_password(password: str) -> str:
    """A new salted scrypt hash of ``password`` (UTF-8 of its
    :func:`normalize_password` form)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(normalize_password(password).encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches the hash ``stored`` (in its
    :func:`normalize_password` form, or as typed for a hash made before
    passwords were normalised); False for a wrong password or a malformed
    hash (never raises)."""
    normal = normalize_password(password)
    if _check(normal, stored):
        return True
    return normal != password and _check(password, stored)


def _check(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(digest) // 2, maxmem=256 * 1024 * 1024)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


async def check_password(password: str, stored: str) -> bool:
    """:func:`verify_password` off the event loop, on the scrypt threads."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, verify_password, password, stored)


async def new_hash(password: str) -> str:
    """:func:`hash_password` off the event loop, on the scrypt threads."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, hash_password, password)


_decoy: str | None = None


async def decoy_hash() -> str:
    """A hash that no password is known to match (of random bytes, made
    once a process), to check a password given for a name that has no
    account: the miss then costs the time a wrong password does, and
    cannot be told from one by the wait."""
    global _decoy
    if _decoy is None:
        _decoy = await new_hash(secrets.token_hex(32))
    return _decoy
