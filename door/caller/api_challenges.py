"""Challenges by the game protocol: who is at the menu (``lobby``), a
program's challenge to a caller or a bot (the table set up by the
challenger's session, :mod:`door.caller.match_table`), and a challenge to
a program, answered by itself (a bot accepts at once; another program is
shown the offer and says ``accept`` or ``decline``)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from door.caller.api_play import IDLE_LOOK, next_message, play_seat
from door.caller.challenges import rules_words
from door.caller.match_table import set_table, why_unrated
from door.caller.side import Log
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_messages import error_message
from door.play.api_seat import ApiSeat
from door.play.deals import new_chain, new_seed
from door.records.accounts import Account
from door.records.names import name_key
from door.records.ranked.match import MatchTerms, ranked_rules
from door.sysop.doing import Doing
from door.sysop.presence import Challenge, Presence, account_identity, account_of
from engine.rules import Rules
from engine.scoring import RunMode

__all__ = ["lobby_message", "send_challenge", "answer", "accept"]


async def lobby_message(ctx: DoorContext, presence: Presence) -> dict[str, Any]:
    """The ``lobby`` message: who ``presence`` may challenge now (at the
    main menu here), each a bot or not, a guest or not."""
    players = [{"name": p.name, "guest": account_of(p.identity) is None, "bot": p.bot}
               for p in ctx.lobby.opponents(presence)]
    return {"type": "lobby", "players": players}


async def send_challenge(link: ApiLink, ctx: DoorContext, presence: Presence, who: tuple[str, Account | None],
                     message: dict[str, Any], log: Log) -> bool:
    """The program challenges the player named in ``message`` (one at the
    main menu here: a caller, or a bot, which accepts by itself) to a game
    or a match, rated when asked and fair play allows; on a yes this
    session sets the table, and the program plays its seat to the end of
    the match.  True when the program left meanwhile."""
    name, bot = who
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
    challenge, left = await _answered(link, ctx, presence, target, (rules, terms))
    theirs = challenge.answer.result()
    if left or theirs is None:
        if theirs is not None:
            theirs.finish()  # (accepted as the program left: the other player goes back to the menu)
        link.send({"type": "notice", "text": f"{target.name} declined." if challenge.declined else
                   "The challenge is withdrawn." if challenge.withdrawn else f"{target.name} did not answer."})
        return left
    seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id) if bot is not None else None)
    table = await set_table(ctx, challenge, (seat, theirs), 0, new_chain(), log)
    ctx.lobby.update(presence, Doing.VS_CALLER, table, target.name)
    ctx.lobby.update(target, Doing.VS_CALLER, table, name)
    return await play_seat(link, seat)


async def _answered(link: ApiLink, ctx: DoorContext, presence: Presence, target: Presence,
                    offer: tuple[Rules, MatchTerms]) -> tuple[Challenge, bool]:
    """Send the challenge and wait for its answer (``page_timeout``
    seconds at most); the program's messages meanwhile are answered with
    an error, but ``leave`` withdraws it.  Returns the challenge and
    whether the program left.  Raises :class:`~door.net.terminal.HungUp`
    when the connection ends (the challenge withdrawn)."""
    waiting = asyncio.create_task(ctx.lobby.challenge(presence, target, offer[0], None, offer[1]))
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
                ctx.lobby.withdraw(presence)
                left = True
            elif message is not None:
                link.send(error_message("type", f"waiting for {target.name} to answer the challenge: "
                                                "only leave withdraws it"))
    except HungUp:
        ctx.lobby.withdraw(presence)
        challenge = await waiting
        if (seat := challenge.answer.result()) is not None:
            seat.finish()  # accepted as the line dropped: the other player goes back to the menu
        raise
    return await waiting, left


async def answer(link: ApiLink, ctx: DoorContext, who: tuple[str, Account | None], challenge: Challenge) -> bool:
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


async def accept(link: ApiLink, ctx: DoorContext, who: tuple[str, Account | None], challenge: Challenge) -> bool:
    """A bot accepts ``challenge``: the challenger's session sets the table
    and runs it; the bot plays its seat there until the match is over.
    True when the program left meanwhile."""
    name, bot = who
    seat = ApiSeat(name, link.send, new_seed(), account_identity(bot.id) if bot is not None else None)
    if not ctx.lobby.answer_challenge(challenge, seat):
        link.send({"type": "notice", "text": f"{challenge.challenger.name} is no longer waiting for an answer."})
        return False
    link.send({"type": "notice", "text": f"{challenge.challenger.name} challenges you: accepted."})
    return await play_seat(link, seat)
