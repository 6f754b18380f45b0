"""Challenges and pages by the game protocol: who is at the menu
(``lobby``), paging the sysop for a game (``page``), a program's
challenge to a caller or a bot (the table set up by the
challenger's session, :mod:`door.caller.match_table`), and a challenge to
a program, answered by itself (a bot accepts at once; another program is
shown the offer and says ``accept`` or ``decline``)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import Any

from door.caller.challenges import rules_words
from door.caller.match_table import set_table, why_unrated
from door.caller.program_side import ProgramSide
from door.caller.watching import watchable_tables
from door.games.kinds import sysop_game
from door.net.terminal import HungUp
from door.play.api_moves import IDLE_LOOK, next_message, play_seat, while_asked
from door.play.human_seat import HumanSeat
from door.records.names import name_key
from door.records.ranked.match import MatchTerms, ranked_rules
from door.sysop.doing import Doing
from door.sysop.presence import Challenge, Presence, account_of, sysop_identity
from engine.rules import Rules
from engine.scoring import RunMode

__all__ = ["lobby_message", "send_challenge", "answer", "accept", "page_sysop"]


def lobby_message(side: ProgramSide) -> dict[str, Any]:
    """The ``lobby`` message: who the program may challenge now (at the
    main menu here), each a bot or not, a guest or not; and the games it
    may watch (each as its two players' names)."""
    lobby = side.ctx.lobby
    players = [{"name": p.name, "guest": account_of(p.identity) is None, "bot": p.bot}
               for p in lobby.opponents(side.presence)]
    games = [{"players": [t.seats[0].name, t.seats[1].name]} for t in watchable_tables(lobby.tables, side.presence)]
    return {"type": "lobby", "players": players, "games": games}


def _runs(ctx_rules: Rules, message: dict[str, Any]) -> Rules:
    """The house rules with the runs ``message`` asked for (``"order"``: in exact order)."""
    return dataclasses.replace(ctx_rules, run_mode=RunMode.ORDERED if message.get("runs") == "order"
                               else RunMode.UNORDERED)


async def _offer(side: ProgramSide, target: Presence, message: dict[str, Any]) -> tuple[Rules, MatchTerms] | None:
    """The rules and terms of the challenge ``message`` asks for, or
    ``None`` after an ``error`` saying why it may not be sent."""
    rated = bool(message.get("rated", False))
    best_of = message.get("best_of", 3 if rated else 1)
    if rated and best_of != 3:
        side.error("best_of", "a rated match is a best of three")
        return None
    rules = _runs(side.ctx.rules, message)
    if rated:
        why = await why_unrated(side, side.presence, target)
        if why is not None:
            side.error("rated", f"no rated match: {why}")
            return None
        rules = ranked_rules(rules)
    if not side.ctx.lobby.challenges_left(side.presence):
        side.error("name", "too many challenges were sent from your address: wait a minute")
        return None
    return rules, MatchTerms(best_of, rated)


async def send_challenge(side: ProgramSide, message: dict[str, Any]) -> bool:
    """The program challenges the player named in ``message`` (one at the
    main menu here: a caller, or a bot, which accepts by itself) to a game
    or a match, rated when asked and fair play allows; on a yes this
    session sets the table, and the program plays its seat to the end of
    the match.  True when the program left meanwhile."""
    ctx, presence, who = side.ctx, side.presence, side.who
    target = next((p for p in ctx.lobby.opponents(presence) if name_key(p.name) == name_key(message["name"])), None)
    if target is None:
        side.error("name", f"{message['name']} is not at the main menu to be challenged "
                           "(the lobby message lists who is)")
        return False
    offer = await _offer(side, target, message)
    if offer is None:
        return False
    side.notice(f"You challenged {target.name} to {rules_words(*offer)}: "
                f"waiting up to {ctx.paging.page_timeout:.0f} seconds for an answer.")
    side.doing(Doing.CHALLENGING, whom=target.name)
    try:
        challenge, left = await _answered(side, target, offer)
    except ValueError as exc:  # (they left the menu, or took another challenge, while fair play was asked)
        side.error("name", str(exc))
        return False
    theirs = challenge.answer.result()
    if left or theirs is None:
        if theirs is not None:
            theirs.finish()  # (accepted as the program left: the other player goes back to the menu)
        side.notice(f"{target.name} declined." if challenge.declined else
                    "The challenge is withdrawn." if challenge.withdrawn else f"{target.name} did not answer.")
        return left
    seat = who.seat(side.send)
    table = await set_table(side, challenge, (seat, theirs), 0, who.seeds)
    side.doing(Doing.VS_CALLER, table, target.name, seat)
    ctx.lobby.update(target, Doing.VS_CALLER, table, who.name, theirs)
    return await play_seat(side.link, seat)


async def _answered(side: ProgramSide, target: Presence, offer: tuple[Rules, MatchTerms]) -> tuple[Challenge, bool]:
    """Send the challenge and wait for its answer (``page_timeout``
    seconds at most; :func:`~door.play.api_moves.while_asked`).  Returns
    the challenge and whether the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (the
    challenge withdrawn), and ``ValueError`` when ``target`` may not be
    challenged now (:meth:`~door.sysop.lobby.Lobby.challenge`)."""
    lobby = side.ctx.lobby
    waiting = asyncio.create_task(lobby.challenge(side.presence, target, offer[0], None, offer[1]))
    try:
        left = await while_asked(side.link, waiting, lambda: lobby.withdraw(side.presence),
                                 f"waiting for {target.name} to answer the challenge: only leave withdraws it")
    except HungUp:
        with contextlib.suppress(ValueError):  # (a challenge never sent: nothing to release)
            if (seat := (await waiting).answer.result()) is not None:
                seat.finish()  # accepted as the line dropped: the other player goes back to the menu
        raise
    return await waiting, left


async def page_sysop(side: ProgramSide, message: dict[str, Any]) -> bool:
    """The program pages the sysop (with the ``reason`` in ``message``, as
    a caller does from the menu) and plays them if a sysop accepts, under
    the house rules with the runs the program asked for; a registered
    caller's or a bot's game is kept.  True when the program left
    meanwhile."""
    ctx, presence, who = side.ctx, side.presence, side.who
    side.notice(f"Paging the sysop for up to {ctx.paging.page_timeout:.0f} seconds.")
    side.doing(Doing.PAGING)
    paging = asyncio.create_task(ctx.lobby.page(presence, message.get("reason", "")))
    try:
        left = await while_asked(side.link, paging, lambda: ctx.lobby.cancel_page(presence),
                                 "paging the sysop: only leave stops it")
    except HungUp:
        if (invitation := await paging) is not None:
            invitation.handoff.set_result(None)  # (accepted as the line dropped: the console stops waiting)
        raise
    invitation = paging.result()
    if invitation is None or left:
        if invitation is not None:
            invitation.handoff.set_result(None)
        side.notice("The sysop is not available right now.")
        return left
    seat = who.seat(side.send)
    theirs = HumanSeat(invitation.console.display, invitation.console.name, chat_limit=ctx.paging.chat_limit,
                       identity=sysop_identity(invitation.console.name))
    table = sysop_game(ctx.games, _runs(ctx.rules, message), (seat, theirs),
                       who.account.id if who.account is not None else None, who.seeds)
    invitation.handoff.set_result(theirs)
    side.log.info("%s plays the sysop %s by the game protocol", who.name, invitation.console.name)
    side.notice(f"{invitation.console.name} accepted your page.")
    side.doing(Doing.VS_SYSOP, table, seat=seat)
    return await play_seat(side.link, seat)


async def answer(side: ProgramSide, challenge: Challenge) -> bool:
    """The program answers ``challenge`` itself (``challenged``, then
    ``accept`` or ``decline``, within the challenge's seconds); on accept
    it plays, as a bot does.  True when the program left meanwhile.
    Raises :class:`~door.net.terminal.HungUp` when the connection ends
    (the challenge declined)."""
    lobby, challenger = side.ctx.lobby, challenge.challenger.name
    offer = (f"to go on with game #{challenge.resume.number}" if challenge.resume is not None
             else rules_words(challenge.rules, challenge.terms))
    side.send({"type": "challenged", "name": challenger, "offer": offer, "seconds": challenge.seconds_left})
    try:
        while not challenge.answer.done():
            message = await next_message(side.link, IDLE_LOOK)
            if message is None:
                continue
            if message["type"] == "accept":
                return await accept(side, challenge)
            if message["type"] in ("decline", "leave"):
                lobby.answer_challenge(challenge, None)
                return bool(message["type"] == "leave")
            side.error("type", f"{challenger} challenges you: accept or decline")
    except HungUp:
        lobby.answer_challenge(challenge, None)
        raise
    side.notice(f"{challenger} is no longer waiting for an answer.")
    return False


async def accept(side: ProgramSide, challenge: Challenge) -> bool:
    """The program accepts ``challenge``: the challenger's session sets the
    table and runs it; the program plays its seat there until the match is
    over.  True when the program left meanwhile."""
    seat = side.who.seat(side.send)
    if not side.ctx.lobby.answer_challenge(challenge, seat):
        side.notice(f"{challenge.challenger.name} is no longer waiting for an answer.")
        return False
    side.notice(f"{challenge.challenger.name} challenges you: accepted.")
    return await play_seat(side.link, seat)
