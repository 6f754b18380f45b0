"""Challenges and pages by the game protocol, as messages over the
screens' flows (:func:`~door.caller.challenges.send_challenge`,
:func:`~door.caller.challenges.accept`, :mod:`door.caller.paging`): who
is at the menu (``lobby``), paging the sysop (``page``), a program's
challenge (``challenge``), and a challenge to a program, answered by
itself (a bot accepts at once; another program says ``accept`` or
``decline``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from door.caller.challenges import accept, rules_words, send_challenge
from door.caller.match_table import why_unrated
from door.caller.paging import play_sysop, ring
from door.caller.program_side import ProgramSide
from door.caller.watching import watchable_tables
from door.net.terminal import HungUp
from door.play.api_moves import IDLE_LOOK, next_message
from door.records.names import name_key
from door.records.ranked.match import MatchTerms, ranked_rules
from door.sysop.presence import Challenge, account_of
from engine.rules import Rules
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


def _runs(rules: Rules, message: dict[str, Any]) -> Rules:
    """``rules`` with the runs ``message`` asked for (``"order"``: in exact order)."""
    return dataclasses.replace(rules, run_mode=RunMode.ORDERED if message.get("runs") == "order" else RunMode.UNORDERED)


async def challenge(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``challenge``: the player ``name`` (at the main menu here) to a
    game or a match (``best_of``), rated when asked (a best of three) and
    fair play allows, with the ``runs`` asked for; an ``error`` on the
    field that may not be.  True when the program left meanwhile."""
    presence, name = side.presence, message["name"]
    target = next((p for p in side.ctx.lobby.opponents(presence) if name_key(p.name) == name_key(name)), None)
    rated = bool(message.get("rated", False))
    best_of = message.get("best_of", 3 if rated else 1)
    if target is None:
        side.error("name", f"{name} is not at the main menu to be challenged (the lobby message lists who is)")
    elif rated and best_of != 3:
        side.error("best_of", "a rated match is a best of three")
    elif rated and (why := await why_unrated(side, presence, target)) is not None:
        side.error("rated", f"no rated match: {why}")
    else:
        rules = _runs(side.ctx.rules, message)
        return await send_challenge(side, target, ranked_rules(rules) if rated else rules, None,
                                    MatchTerms(best_of, rated))
    return False


async def page(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``page``: the sysop paged with the ``reason`` asked, and played if
    a sysop accepts, with the ``runs`` asked for.  True when the program
    left meanwhile."""
    invitation, left = await ring(side, message.get("reason", ""))
    if invitation is None:
        side.notice("The sysop is not available right now.")
        return left
    side.notice(f"{invitation.console.name} accepted your page.")
    return await play_sysop(side, invitation, _runs(side.ctx.rules, message))


async def answer(side: ProgramSide, asked: Challenge) -> bool:
    """A challenge to the program: a bot accepts at once; another program
    is told (``challenged``) and says ``accept`` or ``decline`` within the
    challenge's seconds.  True when the program left meanwhile.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (the
    challenge declined)."""
    lobby, challenger = side.ctx.lobby, asked.challenger.name
    if side.who.bot:
        return await _accept(side, asked)
    offer = (f"to go on with game #{asked.resume.number}" if asked.resume is not None
             else rules_words(asked.rules, asked.terms))
    side.send({"type": "challenged", "name": challenger, "offer": offer, "seconds": asked.seconds_left})
    try:
        while not asked.answer.done():
            message = await next_message(side.link, IDLE_LOOK)
            if message is None:
                continue
            if message["type"] == "accept":
                return await _accept(side, asked)
            if message["type"] in ("decline", "leave"):
                lobby.answer_challenge(asked, None)
                return bool(message["type"] == "leave")
            side.error("type", f"{challenger} challenges you: accept or decline")
    except HungUp:
        lobby.answer_challenge(asked, None)
        raise
    side.notice(f"{challenger} is no longer waiting for an answer.")
    return False


async def _accept(side: ProgramSide, asked: Challenge) -> bool:
    """The program accepts ``asked`` (told so), and plays (:func:`~door.caller.challenges.accept`)."""
    side.notice(f"{asked.challenger.name} challenges you: accepted.")
    return await accept(side, asked)
