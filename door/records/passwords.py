"""Password hashes with :func:`hashlib.scrypt`; passwords are never stored
or logged in plain text.

A hash is one string: ``scrypt$N$r$p$SALT$HASH`` (salt and hash in hex), so
the cost can be raised later without breaking old hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["hash_password", "verify_password", "SCRYPT_N"]

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
"""scrypt cost: about 16 MiB of memory and 30-60 ms per hash here."""


def hash_password(password: str) -> str:
    """A new salted scrypt hash of ``password`` (UTF-8)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches the hash ``stored``; False for a
    wrong password or a malformed hash (never raises)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(digest) // 2, maxmem=256 * 1024 * 1024)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)
