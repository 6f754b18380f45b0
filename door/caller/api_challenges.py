"""Challenges and pages by the game protocol, messages read over the
screens' flows (:mod:`door.caller.challenges`, :mod:`door.caller.paging`):
who is at the menu (``lobby``), ``page``, ``challenge``, and a challenge
to a program, answered by itself (:func:`~door.caller.challenges.answer`)."""

from __future__ import annotations

from typing import Any

from door.caller.challenges import answer
from door.caller.challenges import challenge as challenge_to
from door.caller.paging import play_sysop, ring
from door.caller.program_side import ProgramSide
from door.caller.watching import watchable_tables
from door.records.ranked.match import MatchTerms
from door.sysop.presence import account_of
from engine.scoring import RunMode

__all__ = ["lobby_message", "challenge", "answer", "page"]


async def lobby_message(side: ProgramSide) -> dict[str, Any]:
    """The ``lobby`` message: who the program may challenge now (at the
    main menu here), each a bot or not, a guest or not; and the games it
    may watch (each as its two players' names)."""
    lobby = side.ctx.lobby
    players = [{"name": p.name, "guest": account_of(p.identity) is None, "bot": p.bot}
               for p in lobby.opponents(side.presence)]
    games = [{"players": [t.seats[0].name, t.seats[1].name]} for t in watchable_tables(lobby.tables, side.presence)]
    return {"type": "lobby", "players": players, "games": games}


def _runs(message: dict[str, Any]) -> RunMode:
    """How runs count, as ``message`` asks (``"order"``: in exact order)."""
    return RunMode.ORDERED if message.get("runs") == "order" else RunMode.UNORDERED


async def challenge(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``challenge``: the player ``name`` (at the main menu here) to a
    game or a match (``best_of``), rated when asked, with the ``runs``
    asked for (:func:`~door.caller.challenges.challenge`: an ``error`` on
    the field that may not be).  True when the program left meanwhile."""
    rated = bool(message.get("rated", False))
    terms = MatchTerms(message.get("best_of", 3 if rated else 1), rated)
    return await challenge_to(side, message["name"], terms, _runs(message))


async def page(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``page``: the sysop paged with the ``reason`` asked, and played if
    a sysop accepts, with the ``runs`` asked for.  True when the program
    left meanwhile."""
    invitation, left = await ring(side, message.get("reason", ""))
    if invitation is None:
        side.notice("The sysop is not available right now.")
        return left
    side.notice(f"{invitation.console.name} accepted your page.")
    return await play_sysop(side, invitation, _runs(message))
