"""Paging the sysop from the menu, as BBS pages were: the caller gives a
reason, the sysop's console rings for ``page_timeout`` seconds, and an
accepted page seats the caller against the sysop (the caller chooses how
runs count; the other rules are the house rules).  Unanswered, the
computer is offered instead; a kept game against the sysop goes on only
when the page is answered, and stays kept otherwise."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

from door.caller.side import Asked, CallerSide, Side
from door.games.kinds import sysop_game
from door.net.terminal import HungUp
from door.play.human_seat import HumanSeat
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.sysop.presence import Invitation, sysop_identity
from door.ui.prompts import REASON_LIMIT, ask_choice, ask_line, show_page
from engine.scoring import RunMode

__all__ = ["page_sysop", "ring", "play_sysop"]


async def page_sysop(side: CallerSide, play_computer: Callable[[], Awaitable[None]],
                     resume: SavedGame | None = None) -> None:
    """Page the sysop (with a reason); play the sysop when the page is
    accepted, else offer the computer (``play_computer()``).  With
    ``resume`` (a kept game against the sysop) the page says so, and the
    game goes on as it was saved; unanswered, it stays kept.  Raises
    :class:`~door.net.terminal.HungUp` when the line drops (the page
    withdrawn)."""
    if resume is not None:
        reason = f"to go on with game #{resume.number}"
    else:
        reason = await ask_line(side.display, "Page the sysop", [
            "Page the sysop for a game.",
            "Say why if you like, then press RETURN to page.",
        ], "Reason: ", "", REASON_LIMIT)
    invitation, _ = await ring(side, reason)
    if invitation is None and resume is not None:
        await show_page(side.display, "Paging", [
            "The sysop is not available right now.", "",
            f"Your game #{resume.number} is kept: the main menu offers it."])
        return
    if invitation is None:
        answer = await ask_choice(side.display, "Paging", [
            "The sysop is not available right now.", "", "Play the computer instead? (Y/N)"], "YN")
        if answer == "Y":
            await play_computer()
        return
    runs = resume.rules.run_mode if resume is not None else await _runs(side, invitation)  # (a kept game: its rules)
    await play_sysop(side, invitation, runs, resume)


async def ring(side: Side, reason: str) -> tuple[Invitation | None, bool]:
    """Page the sysop with ``reason``: the console rings for
    ``page_timeout`` seconds, shown with the seconds left, until the
    sysop answers or the side stops it (ESC or Q at a screen, ``leave``
    by the protocol).  One flow for the screens and the game protocol.
    Returns the sysop's invitation (``None``: not answered, or stopped)
    and whether a program left.  Raises
    :class:`~door.net.terminal.HungUp` when the line drops (the page
    withdrawn; accepted meanwhile, the console stops waiting)."""
    lobby, presence = side.ctx.lobby, side.presence
    side.doing(Doing.PAGING)
    page = asyncio.create_task(lobby.page(presence, reason))

    def seconds_left() -> int:
        """All the seconds until the lobby holds the page (the task has not run yet)."""
        full = 0 if page.done() else int(side.ctx.paging.page_timeout)
        return next((p.seconds_left for p in lobby.pages if p.presence is presence), full)

    asked = Asked("Paging", lambda s: [f"Paging the sysop... {s} s", "",
                                       "The sysop's console is ringing. ESC stops paging."],
                  lambda s: [f"Paging the sysop for up to {s} seconds. Your reason: {reason or 'none'}.",
                             "Press ESC to stop paging."],
                  lambda s: f"Paging the sysop for up to {s} seconds.", "paging the sysop: only leave stops it",
                  seconds_left, note=f"Your reason: {reason or '(none)'}")
    try:
        left = await side.wait_on(page, lambda: lobby.cancel_page(presence), asked)
    except HungUp:
        if (invitation := await page) is not None:
            invitation.handoff.set_result(None)  # (accepted as the line dropped: the console stops waiting)
        raise
    invitation = page.result()
    if left and invitation is not None:
        invitation.handoff.set_result(None)
        invitation = None
    return invitation, left


async def _runs(side: CallerSide, invitation: Invitation) -> RunMode:
    """How runs count, as the caller chooses for a game against the sysop
    who accepted (``invitation``).  A line that drops here lets
    the sysop's console stop waiting."""
    try:
        answer = await ask_choice(side.display, "Playing the sysop", [
            f"{invitation.console.name} accepted your page! You are player 1.",
            "",
            "How do runs count during the play?",
            "  1  Runs need not be in order: 7-5-6 is a run worth 3.",
            "  2  Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6.",
            "Press 1 or 2. (The other rules are the house rules.)",
        ], "12")
    except HungUp:
        invitation.handoff.set_result(None)  # the sysop's console stops waiting for the game
        raise
    return RunMode.UNORDERED if answer == "1" else RunMode.ORDERED


async def play_sysop(side: Side, invitation: Invitation, runs: RunMode, resume: SavedGame | None = None) -> bool:
    """The side against the sysop who accepted (``invitation``), under the
    house rules with ``runs`` (a kept game, ``resume``: its own rules),
    until the game is over; a registered player's game is kept.  One flow
    for the screens and the game protocol; True when a program left
    meanwhile."""
    ctx = side.ctx
    rules = resume.rules if resume is not None else dataclasses.replace(ctx.rules, run_mode=runs)
    mine = side.new_seat()
    theirs = HumanSeat(invitation.console.display, invitation.console.name, chat_limit=ctx.paging.chat_limit,
                       identity=sysop_identity(invitation.console.name))
    table = sysop_game(ctx.games, rules, (mine, theirs), side.account.id if side.account else None, side.seeds,
                       resume)
    invitation.handoff.set_result(theirs)
    side.log.info("%s plays the sysop %s%s", side.name, invitation.console.name,
                  f" (game {resume.number} resumed)" if resume is not None else "")
    return await side.play(mine, table, Doing.VS_SYSOP)
