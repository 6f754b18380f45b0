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
from collections.abc import Callable
from typing import Any

from door.caller.api_play import IDLE_LOOK, next_message, play_seat
from door.caller.api_watching import watchable_games
from door.caller.challenges import rules_words
from door.caller.match_table import set_table, why_unrated
from door.caller.program import Program
from door.caller.side import Log
from door.context import DoorContext
from door.games.kinds import sysop_game
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import error_message
from door.play.human_seat import HumanSeat
from door.records.names import name_key
from door.records.ranked.match import MatchTerms, ranked_rules
from door.sysop.doing import Doing
from door.sysop.presence import Challenge, Presence, account_of, sysop_identity
from engine.rules import Rules
from engine.scoring import RunMode

__all__ = ["lobby_message", "send_challenge", "answer", "accept", "page_sysop"]


def lobby_message(ctx: DoorContext, presence: Presence) -> dict[str, Any]:
    """The ``lobby`` message: who ``presence`` may challenge now (at the
    main menu here), each a bot or not, a guest or not; and the games it
    may watch."""
    players = [{"name": p.name, "guest": account_of(p.identity) is None, "bot": p.bot}
               for p in ctx.lobby.opponents(presence)]
    return {"type": "lobby", "players": players, "games": watchable_games(ctx, presence)}


async def send_challenge(link: ApiLink, ctx: DoorContext, presence: Presence, who: Program,
                         message: dict[str, Any], log: Log) -> bool:
    """The program challenges the player named in ``message`` (one at the
    main menu here: a caller, or a bot, which accepts by itself) to a game
    or a match, rated when asked and fair play allows; on a yes this
    session sets the table, and the program plays its seat to the end of
    the match.  True when the program left meanwhile."""
    name = who.name
    target = next((p for p in ctx.lobby.opponents(presence) if name_key(p.name) == name_key(message["name"])), None)
    if target is None:
        link.send(error_message("name", f"{message['name']} is not at the main menu to be challenged "
                                        "(the lobby message lists who is)"))
        return False
    rated = bool(message.get("rated", False))
    best_of = message.get("best_of", 3 if rated else 1)
    if rated and best_of != 3:
        link.send(error_message("best_of", "a rated match is a best of three"))
        return False
    rules = dataclasses.replace(ctx.rules, run_mode=RunMode.ORDERED if message.get("runs") == "order"
                                else RunMode.UNORDERED)
    if rated:
        why = await why_unrated(ctx, presence, target)
        if why is not None:
            link.send(error_message("rated", f"no rated match: {why}"))
            return False
        rules = ranked_rules(rules)
    terms = MatchTerms(best_of, rated)
    if not ctx.lobby.challenges_left(presence):
        link.send(error_message("name", "too many challenges were sent from your address: wait a minute"))
        return False
    link.send({"type": "notice", "text": f"You challenged {target.name} to {rules_words(rules, terms)}: "
                                         f"waiting up to {ctx.paging.page_timeout:.0f} seconds for an answer."})
    ctx.lobby.update(presence, Doing.CHALLENGING, whom=target.name)
    try:
        challenge, left = await _answered(link, ctx, presence, target, (rules, terms))
    except ValueError as exc:  # (they left the menu, or took another challenge, while fair play was asked)
        link.send(error_message("name", str(exc)))
        return False
    theirs = challenge.answer.result()
    if left or theirs is None:
        if theirs is not None:
            theirs.finish()  # (accepted as the program left: the other player goes back to the menu)
        link.send({"type": "notice", "text": f"{target.name} declined." if challenge.declined else
                   "The challenge is withdrawn." if challenge.withdrawn else f"{target.name} did not answer."})
        return left
    seat = who.seat(link.send)
    table = await set_table(ctx, challenge, (seat, theirs), 0, who.seeds, log)
    ctx.lobby.update(presence, Doing.VS_CALLER, table, target.name, seat)
    ctx.lobby.update(target, Doing.VS_CALLER, table, name, theirs)
    return await play_seat(link, seat)


async def _answered(link: ApiLink, ctx: DoorContext, presence: Presence, target: Presence,
                    offer: tuple[Rules, MatchTerms]) -> tuple[Challenge, bool]:
    """Send the challenge and wait for its answer (``page_timeout``
    seconds at most; :func:`_while_asked`).  Returns the challenge and
    whether the program left.  Raises :class:`~door.net.terminal.HungUp`
    when the connection ends (the challenge withdrawn), and ``ValueError``
    when ``target`` may not be challenged now (:meth:`~door.sysop.lobby.Lobby.challenge`)."""
    waiting = asyncio.create_task(ctx.lobby.challenge(presence, target, offer[0], None, offer[1]))
    try:
        left = await _while_asked(link, waiting, lambda: ctx.lobby.withdraw(presence),
                                  f"waiting for {target.name} to answer the challenge: only leave withdraws it")
    except HungUp:
        with contextlib.suppress(ValueError):  # (a challenge never sent: nothing to release)
            if (seat := (await waiting).answer.result()) is not None:
                seat.finish()  # accepted as the line dropped: the other player goes back to the menu
        raise
    return await waiting, left


async def _while_asked(link: ApiLink, waiting: asyncio.Task[Any], withdraw: Callable[[], None], busy: str) -> bool:
    """Wait for ``waiting`` (a challenge's or a page's answer); the
    program's messages meanwhile are answered with an error saying
    ``busy``, but ``leave`` withdraws the question (``withdraw()``).
    Returns whether the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (after
    ``withdraw()``)."""
    left = False
    try:
        while not waiting.done():
            reading = asyncio.create_task(next_message(link))
            await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                reading.add_done_callback(lambda task: task.cancelled() or task.exception())
                break
            message = reading.result()
            if message is not None and message["type"] == "leave":
                withdraw()
                left = True
            elif message is not None:
                link.send(error_message("type", busy))
    except HungUp:
        withdraw()
        raise
    return left


async def page_sysop(link: ApiLink, ctx: DoorContext, presence: Presence, who: Program,
                     message: dict[str, Any], log: Log) -> bool:
    """The program pages the sysop (with the ``reason`` in ``message``, as
    a caller does from the menu) and plays them if a sysop accepts, under
    the house rules with the runs the program asked for; a registered
    caller's or a bot's game is kept.  True when the program left
    meanwhile."""
    name, account = who.name, who.account
    reason = message.get("reason", "")
    link.send({"type": "notice", "text": f"Paging the sysop for up to {ctx.paging.page_timeout:.0f} seconds."})
    ctx.lobby.update(presence, Doing.PAGING)
    paging = asyncio.create_task(ctx.lobby.page(presence, reason))
    try:
        left = await _while_asked(link, paging, lambda: ctx.lobby.cancel_page(presence),
                                  "paging the sysop: only leave stops it")
    except HungUp:
        if (invitation := await paging) is not None:
            invitation.handoff.set_result(None)  # (accepted as the line dropped: the console stops waiting)
        raise
    invitation = paging.result()
    if invitation is None or left:
        if invitation is not None:
            invitation.handoff.set_result(None)
        link.send({"type": "notice", "text": "The sysop is not available right now."})
        return left
    rules = dataclasses.replace(ctx.rules, run_mode=RunMode.ORDERED if message.get("runs") == "order"
                                else RunMode.UNORDERED)
    seat = who.seat(link.send)
    theirs = HumanSeat(invitation.console.display, invitation.console.name, chat_limit=ctx.paging.chat_limit,
                       identity=sysop_identity(invitation.console.name))
    table = sysop_game(ctx.games, rules, (seat, theirs), account.id if account is not None else None, who.seeds)
    invitation.handoff.set_result(theirs)
    log.info("%s plays the sysop %s by the game protocol", name, invitation.console.name)
    link.send({"type": "notice", "text": f"{invitation.console.name} accepted your page."})
    ctx.lobby.update(presence, Doing.VS_SYSOP, table, seat=seat)
    return await play_seat(link, seat)


async def answer(link: ApiLink, ctx: DoorContext, who: Program, challenge: Challenge) -> bool:
    """The program answers ``challenge`` itself (``challenged``, then
    ``accept`` or ``decline``, within the challenge's seconds); on accept
    it plays, as a bot does.  True when the program left meanwhile.
    Raises :class:`~door.net.terminal.HungUp` when the connection ends
    (the challenge declined)."""
    offer = (f"to go on with game #{challenge.resume.number}" if challenge.resume is not None
             else rules_words(challenge.rules, challenge.terms))
    link.send({"type": "challenged", "name": challenge.challenger.name, "offer": offer,
               "seconds": challenge.seconds_left})
    try:
        while not challenge.answer.done():
            message = await next_message(link, IDLE_LOOK)
            if message is None:
                continue
            if message["type"] == "accept":
                return await accept(link, ctx, who, challenge)
            if message["type"] in ("decline", "leave"):
                ctx.lobby.answer_challenge(challenge, None)
                return bool(message["type"] == "leave")
            link.send(error_message("type", f"{challenge.challenger.name} challenges you: accept or decline"))
    except HungUp:
        ctx.lobby.answer_challenge(challenge, None)
        raise
    link.send({"type": "notice", "text": f"{challenge.challenger.name} is no longer waiting for an answer."})
    return False


async def accept(link: ApiLink, ctx: DoorContext, who: Program, challenge: Challenge) -> bool:
    """A bot accepts ``challenge``: the challenger's session sets the table
    and runs it; the bot plays its seat there until the match is over.
    True when the program left meanwhile."""
    seat = who.seat(link.send)
    if not ctx.lobby.answer_challenge(challenge, seat):
        link.send({"type": "notice", "text": f"{challenge.challenger.name} is no longer waiting for an answer."})
        return False
    link.send({"type": "notice", "text": f"{challenge.challenger.name} challenges you: accepted."})
    return await play_seat(link, seat)
