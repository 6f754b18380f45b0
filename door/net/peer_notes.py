"""The signed one-line requests one node sends another's peer port
(:mod:`door.net.peer_socket`) instead of handing it a caller: a sysop
ending a call there (:class:`PeerKick`), a game by turns now waiting on a
player on line there (:class:`PeerTurn`), an account logging in at the
sending node by the game protocol taking over its session there
(:class:`PeerTakeOver`).  Each is JSON after its word,
with a fresh nonce, and HMAC-SHA256 under the peer secret of the port's
nonce and every field, under a label of its own (so that no signed line
can be taken for another kind)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from door.net.hello import check_name, hello_fields

__all__ = ["NONCE_BYTES", "PeerKick", "PeerTakeOver", "PeerTurn", "canonical", "sign"]

NONCE_BYTES = 32
"""The length of every nonce of the peer link, in bytes."""

_KICK_LABEL = b"cribbage-door peer kick v1"
_TURN_LABEL = b"cribbage-door peer turn v1"
_TAKE_LABEL = b"cribbage-door peer take-over v1"


def sign(secret: bytes, label: bytes, *parts: bytes) -> str:
    """HMAC-SHA256 under ``secret`` of ``label`` and ``parts``, joined by NUL bytes, as 64 hex digits."""
    return hmac.new(secret, b"\0".join((label, *parts)), hashlib.sha256).hexdigest()


def canonical(fields: dict[str, Any]) -> bytes:
    """The fields as the MAC covers them: JSON, keys sorted, ASCII only."""
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _line(word: bytes, label: bytes, note: Any, secret: bytes, nonce: bytes) -> bytes:
    """The line ``WORD {json}\n`` of ``note`` (a dataclass) for the port
    that sent ``nonce``: its fields, a fresh nonce and their MAC under
    ``label``."""
    fields: dict[str, Any] = {**asdict(note), "nonce": secrets.token_bytes(NONCE_BYTES).hex()}
    mac = sign(secret, label, nonce, canonical(fields))
    return word + b" " + json.dumps({**fields, "mac": mac}).encode("utf-8") + b"\n"


def _fields(line: bytes, word: str, label: bytes, names: list[str], secret: bytes, nonce: bytes) -> dict[str, Any]:
    """The fields ``names`` of a ``word`` line sent to the port that sent
    ``nonce``.  Raises ``ValueError`` for anything but a well-formed one
    whose MAC under ``secret`` and ``label`` is right."""
    fields = hello_fields(line, word, [*names, "nonce", "mac"])
    mac = fields.pop("mac")
    if not isinstance(mac, str) or not hmac.compare_digest(
            mac.encode("ascii", "replace"), sign(secret, label, nonce, canonical(fields)).encode()):
        raise ValueError("wrong MAC (not signed with this store's peer secret, or not for this connection)")
    return fields


def _positive(fields: dict[str, Any], label: str) -> int:
    """``fields[label]``, a whole number of at least 1.  Raises ``ValueError``."""
    value = fields[label]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{label}: a positive whole number")
    return value


@dataclass(frozen=True)
class PeerKick:
    """A sysop at another node ends the call of somebody on line at this
    one: the caller's ``name`` and the sysop's (``by``).  Sent as
    ``KICK {json}`` instead of a hello, signed as a hello is (a fresh
    nonce each way, HMAC-SHA256 under the peer secret, with a label of its
    own); the port answers ``KICKED`` or ``NOBODY`` and closes."""

    name: str
    by: str

    def encode(self, secret: bytes, nonce: bytes) -> bytes:
        """The line ``KICK {json}\n`` for the port that sent ``nonce``."""
        return _line(b"KICK", _KICK_LABEL, self, secret, nonce)

    @classmethod
    def decode(cls, line: bytes, secret: bytes, nonce: bytes) -> PeerKick:
        """Read a ``KICK`` line sent to the port that sent ``nonce``.
        Raises ``ValueError`` for anything but a well-formed one whose MAC
        under ``secret`` is right."""
        fields = _fields(line, "KICK", _KICK_LABEL, [*cls.__dataclass_fields__], secret, nonce)
        return cls(check_name(fields["name"]), check_name(fields["by"]))


@dataclass(frozen=True)
class PeerTurn:
    """A game played by turns now waits on a player on line at the node
    this is sent to: the player's ``account`` id, the kept ``game``'s id,
    its ``number`` (the game's number in its match, as the menu says it)
    and the ``other`` player's name.  Sent as ``TURN {json}``, signed as a
    :class:`PeerKick` is (with a label of its own); the port answers
    ``TOLD`` when the player was told there, ``NOBODY`` when they are not
    on line there, and closes."""

    account: int
    game: int
    number: int
    other: str

    def encode(self, secret: bytes, nonce: bytes) -> bytes:
        """The line ``TURN {json}\n`` for the port that sent ``nonce``."""
        return _line(b"TURN", _TURN_LABEL, self, secret, nonce)

    @classmethod
    def decode(cls, line: bytes, secret: bytes, nonce: bytes) -> PeerTurn:
        """Read a ``TURN`` line sent to the port that sent ``nonce``.
        Raises ``ValueError`` (saying what is wrong) for anything but a
        well-formed one whose MAC under ``secret`` is right."""
        fields = _fields(line, "TURN", _TURN_LABEL, [*cls.__dataclass_fields__], secret, nonce)
        return cls(_positive(fields, "account"), _positive(fields, "game"), _positive(fields, "number"),
                   check_name(fields["other"]))


@dataclass(frozen=True)
class PeerTakeOver:
    """The account whose id is ``account`` logs in at the sending node by
    the game protocol (a program cannot be handed to another node): its
    sessions at the node this is sent to are closed, their players told
    why.  Sent as ``TAKE {json}``, signed as a :class:`PeerKick` is (with
    a label of its own); the port answers ``TAKEN`` once no session of the
    account is on line there, ``HELD`` when one did not end in time, and
    closes."""

    account: int

    def encode(self, secret: bytes, nonce: bytes) -> bytes:
        """The line ``TAKE {json}\n`` for the port that sent ``nonce``."""
        return _line(b"TAKE", _TAKE_LABEL, self, secret, nonce)

    @classmethod
    def decode(cls, line: bytes, secret: bytes, nonce: bytes) -> PeerTakeOver:
        """Read a ``TAKE`` line sent to the port that sent ``nonce``.
        Raises ``ValueError`` (saying what is wrong) for anything but a
        well-formed one whose MAC under ``secret`` is right."""
        return cls(_positive(_fields(line, "TAKE", _TAKE_LABEL, [*cls.__dataclass_fields__], secret, nonce),
                             "account"))
