"""Letting a caller or a program in once it has said who it is, for the
screens and the game protocol alike: an account the sysop banned is
turned away; an account's older session (at this node) is closed, and one
that does not answer keeps the newer one out; the lobby and the log then
name the caller.  On a store shared by several nodes an account has one
session across them: it is claimed in the store as it is let in (the
screens hand a caller to the node that holds it; a program, which cannot
be handed over, has that node close the older session:
:func:`take_session`), and released as the session ends, or once the
games it left going on here end (:func:`release`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from door.caller.side import Side
from door.net.logs import ACCOUNT
from door.net.metrics import refused
from door.records.accounts import Account
from door.sysop.doing import Doing
from door.sysop.presence import account_identity

__all__ = ["TurnedAway", "admit", "release", "take_session"]


@dataclass(frozen=True)
class TurnedAway:
    """Why a side is not let in: ``text``, one sentence; ``banned`` when
    the sysop banned the account (said as the line ends), else the
    account is on line on another connection that does not answer."""

    text: str
    banned: bool = False


async def admit(side: Side, claim: Callable[[Account], Awaitable[bool]] | None = None) -> TurnedAway | None:
    """Let ``side`` in (``None``), or say why not (:class:`TurnedAway`).
    A registered account the sysop banned (``[bans]``) is turned away;
    otherwise the connection leaves the gate's pre-login budget, the
    lobby and every log line from now on name it, ``claim(account)`` (one
    session an account across the nodes: the screens' hand-over, or
    :func:`take_session`) runs, and the account's older session here is
    closed (:meth:`~door.sysop.lobby.Lobby.take_over`): an older session
    that does not answer, here or at the node that holds the claim
    (``claim`` False), turns this one away."""
    ctx, presence, account = side.ctx, side.presence, side.account
    banned = ctx.bans.account(side.name) if ctx.bans is not None and account is not None else None
    if banned is not None:
        side.log.warning("refused: account %r is banned", side.name)
        refused("banned")
        return TurnedAway(f"Sorry, {banned}", banned=True)
    side.terminal.logged_in()  # out of the gate's pre-login budget: a flood of strangers no longer reaches it
    presence.name = side.name
    ACCOUNT.set(side.name)  # (every line logged for this session from now on names its account)
    if account is not None:
        claimed = await claim(account) if claim is not None else True
        if not claimed or not await ctx.lobby.take_over(presence, account_identity(account.id)):
            return TurnedAway(f"{side.name} is on line on another connection that does not answer.")
    side.doing(Doing.LOGGED_IN)
    return None


async def take_session(side: Side, account: Account) -> bool:
    """The game protocol's claim of ``account``'s one session across the
    nodes (a ``claim`` for :func:`admit`): where another live node holds
    it, that node is asked to close the older session there (a program
    cannot be handed over to it as a caller at the screens is), and the
    claim is taken here.  False when the older session there did not end
    in time; a node that cannot be reached is taken for gone (the claim is
    taken here, as the screens do).  Raises
    :class:`~door.records.database.StoreError`."""
    link, conn = side.ctx.link, side.presence.conn
    if link is None:
        return True
    node = await link.claim(account.id, conn)
    if node is None:
        return True
    side.log.info("%r is on line at node %d: closing that session", side.name, node.id)
    if await link.take_over(node, account.id) is False:
        return False
    await link.claim(account.id, conn, force=True)
    return True


async def release(side: Side) -> None:
    """``side``'s session ended (the screens' or the protocol's): its claim
    of the account's one session across the nodes is released, at once,
    or when the games it left going on here end
    (:meth:`~door.sysop.node_link.NodeLink.release_after`: a game that
    waits for them keeps the claim, so that calling any node takes a
    caller back to it; then the store keeps the game, and any node may
    take it up).  A claim another session took over is left alone."""
    ctx, presence = side.ctx, side.presence
    identity = presence.identity
    if ctx.link is None or identity is None or identity.account is None:
        return
    tables = [t for t in ctx.lobby.tables if any(s.identity == identity for s in t.seats)]
    if tables:
        ctx.link.release_after([t.ended for t in tables], identity.account, presence.conn)
    else:
        await ctx.link.release(identity.account, presence.conn)
