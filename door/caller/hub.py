"""Callers from other boards: which member board sent a caller
over rlogin, and their account on this hub.

A board proves itself by its shared secret, in the handshake's client-user
field (both handshakes); Synchronet's game servers name the caller in the
server-user field, DoorParty as ``[TAG]alias``.  A wrong secret counts as a
wrong password (:class:`~door.records.throttle.LoginThrottle`): too many
from one address and it is not even checked.  The caller's account is
``alias@TAG``: a local name never holds an ``@`` (the name prompt refuses
one), so a hub caller never meets a local account of the same alias, and
two boards' callers of one alias stay apart.
"""

from __future__ import annotations

import asyncio
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass

from door.config import BoardConfig, Handshake
from door.net.gate import in_networks
from door.net.rlogin import Handshake as RloginHandshake
from door.records.accounts import Account, NameTaken
from door.records.names import clean_name
from door.records.store import Store
from door.records.throttle import LoginThrottle

__all__ = ["HubCaller", "hub_login", "hub_account", "board_caller", "ALIAS_LIMIT"]

ALIAS_LIMIT = 20
"""The longest alias a board may send, in characters (as a local name)."""

_DOORPARTY = re.compile(r"\[([A-Za-z0-9]{1,8})\](.*)", re.S)


@dataclass(frozen=True)
class HubCaller:
    """A caller a member ``board`` vouched for, as ``alias`` there."""

    board: BoardConfig
    alias: str

    @property
    def name(self) -> str:
        """``"alias@TAG"``: how the door shows them everywhere."""
        return f"{self.alias}@{self.board.tag}"


def _same(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8"), secret.encode("utf-8"))


def _alias(raw: str) -> str | None:
    alias = clean_name(raw)
    if not alias or alias != raw.strip() or len(alias) > ALIAS_LIMIT or "@" in alias:
        return None
    return alias


async def hub_login(handshake: RloginHandshake, boards: Sequence[BoardConfig], throttle: LoginThrottle,
                    address: str) -> HubCaller | str:
    """The caller ``handshake`` brings from ``address``, or a sentence
    saying why not (no such board, a wrong secret, a bad alias, too many
    wrong secrets lately).  A wrong secret waits as a wrong password does."""
    board: BoardConfig | None = None
    match = _DOORPARTY.fullmatch(handshake.server_user)
    if match is not None:
        claimed, raw_alias = match.group(1).upper(), match.group(2)
        board = next((b for b in boards if b.tag == claimed and b.handshake is Handshake.DOORPARTY), None)
        who = f"board {claimed}"
    else:
        raw_alias = handshake.server_user
        who = "a Synchronet-style board"
    refusal = throttle.admit(who, address)
    if refusal is not None:
        return refusal
    if match is None:
        board = next((b for b in boards if b.handshake is Handshake.SYNCHRONET
                      and _same(handshake.client_user, b.secret)), None)
    elif board is not None and not _same(handshake.client_user, board.secret):
        board = None
    if board is not None and board.addresses and not in_networks(address, board.addresses):
        board = None  # its secret, from an address the board does not call from: a replay, not the board
    if board is None:
        await asyncio.sleep(throttle.failure(who, address, "rlogin"))
        return "This board is not a member of the cribbage hub (or its secret is wrong)."
    throttle.success(who, address)
    alias = _alias(raw_alias)
    if alias is None:
        return f"The alias {raw_alias[:ALIAS_LIMIT]!r} cannot be used here: 1 to {ALIAS_LIMIT} printable characters, no @."
    return HubCaller(board, alias)


def board_caller(name: str, boards: Sequence[BoardConfig]) -> HubCaller | str:
    """The caller of a member board named ``name`` (``alias@TAG``, the tag
    in any case), or a sentence saying why it names none (no such board
    among ``boards``, a bad alias): how a caller of the hub names one of
    another board, to offer them a game by correspondence before they
    have ever called."""
    raw_alias, _, tag = name.rpartition("@")
    board = next((b for b in boards if b.tag.upper() == tag.strip().upper()), None)
    if board is None:
        return f"No board {tag.strip()[:8]!r} is a member of this hub: a caller of another board is alias@BOARD."
    alias = _alias(raw_alias)
    if alias is None:
        return f"The alias {raw_alias[:ALIAS_LIMIT]!r} cannot be used here: 1 to {ALIAS_LIMIT} printable characters, no @."
    return HubCaller(board, alias)


async def hub_account(store: Store, caller: HubCaller) -> Account:
    """The account of ``caller`` (``alias@TAG``), made on their first call
    (or by the first offer of a game by correspondence made to them) with
    no usable password: their board vouches for them.  Raises
    :class:`~door.records.store.StoreError` when the store fails."""
    account = await store.accounts.find(caller.name)
    if account is None:
        try:
            account = await store.accounts.create(caller.name, "!hub")
        except NameTaken:  # two calls of the same caller at once: the other made it
            account = await store.accounts.find(caller.name)
            assert account is not None
    return account
