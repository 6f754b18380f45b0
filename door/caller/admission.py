"""Letting a caller or a program in once it has said who it is, for the
screens and the game protocol alike: an account the sysop banned is
turned away; an account's older session (at this node) is closed, and one
that does not answer keeps the newer one out; the lobby and the log then
name the caller."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from door.caller.side import Side
from door.net.logs import ACCOUNT
from door.net.metrics import refused
from door.records.accounts import Account
from door.sysop.doing import Doing
from door.sysop.presence import account_identity

__all__ = ["TurnedAway", "admit"]


@dataclass(frozen=True)
class TurnedAway:
    """Why a side is not let in: ``text``, one sentence; ``banned`` when
    the sysop banned the account (said as the line ends), else the
    account is on line on another connection that does not answer."""

    text: str
    banned: bool = False


async def admit(side: Side, claim: Callable[[Account], Awaitable[None]] | None = None) -> TurnedAway | None:
    """Let ``side`` in (``None``), or say why not (:class:`TurnedAway`).
    A registered account the sysop banned (``[bans]``) is turned away;
    otherwise the connection leaves the gate's pre-login budget, the
    lobby and every log line from now on name it, ``claim(account)`` (the
    screens': one session an account across the nodes) runs, and the
    account's older session here is closed
    (:meth:`~door.sysop.lobby.Lobby.take_over`): one that does not
    answer turns this one away."""
    ctx, presence, account = side.ctx, side.presence, side.account
    banned = ctx.bans.account(side.name) if ctx.bans is not None and account is not None else None
    if banned is not None:
        side.log.warning("refused: account %r is banned", side.name)
        refused("banned")
        return TurnedAway(f"Sorry, {banned}", banned=True)
    side.terminal.logged_in()  # out of the gate's pre-login budget: a flood of strangers no longer reaches it
    presence.name = side.name
    ACCOUNT.set(side.name)  # (every line logged for this session from now on names its account)
    if account is not None and claim is not None:
        await claim(account)
    if account is not None and not await ctx.lobby.take_over(presence, account_identity(account.id)):
        return TurnedAway(f"{side.name} is on line on another connection that does not answer.")
    side.doing(Doing.LOGGED_IN)
    return None
