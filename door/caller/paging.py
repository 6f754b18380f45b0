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

from door.caller.seated import seated
from door.caller.side import CallerSide
from door.games.kinds import sysop_game
from door.net.keys import KeyName
from door.net.terminal import HungUp
from door.play.human_seat import HumanSeat
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.sysop.presence import Invitation, sysop_identity
from door.ui.canvas import Canvas
from door.ui.prompts import NOTE, REASON_LIMIT, ask_choice, ask_line, frame, show_page
from engine.rules import Rules
from engine.scoring import RunMode

__all__ = ["page_sysop"]


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
    invitation = await _ring(side, reason)
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
    rules = resume.rules if resume is not None else await _runs(side, invitation)  # (a kept game: its rules)
    await _play_sysop(side, invitation, rules, resume)


async def _ring(side: CallerSide, reason: str) -> Invitation | None:
    """The page, shown with the seconds left until the sysop answers or
    ESC (or Q) stops it; the sysop's invitation, or ``None``."""
    display, lobby, presence = side.display, side.ctx.lobby, side.presence
    side.doing(Doing.PAGING)
    page = asyncio.create_task(lobby.page(presence, reason))

    def seconds_left() -> int:
        return next((p.seconds_left for p in lobby.pages if p.presence is presence), 0)

    def paint(canvas: Canvas) -> None:
        row = frame(canvas, "Paging", [f"Paging the sysop... {seconds_left()} s", "",
                                       "The sysop's console is ringing. ESC stops paging."])
        canvas.put(row, 4, f"Your reason: {reason or '(none)'}", NOTE)

    display.show(paint, text=lambda: [f"Paging the sysop for up to {seconds_left()} seconds. Your reason: "
                                      f"{reason or 'none'}.", "Press ESC to stop paging."])
    shown = seconds_left()
    try:
        async for key in display.keys(tick=0.25):  # a quarter second: the sysop's answer shows at once
            if page.done():
                break
            if key is not None and (key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "qQ")):
                lobby.cancel_page(presence)
            elif key is None and seconds_left() == shown:
                continue  # nothing new to show
            shown = seconds_left()
            display.refresh_soon()
    except HungUp:
        lobby.cancel_page(presence)
        await page
        raise
    return page.result()


async def _runs(side: CallerSide, invitation: Invitation) -> Rules:
    """The house rules with the runs the caller chooses for a game against
    the sysop who accepted (``invitation``).  A line that drops here lets
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
    return dataclasses.replace(side.ctx.rules, run_mode=RunMode.UNORDERED if answer == "1" else RunMode.ORDERED)


async def _play_sysop(side: CallerSide, invitation: Invitation, rules: Rules, resume: SavedGame | None) -> None:
    """The caller against the sysop who accepted, under ``rules`` (from
    ``resume`` when it is a kept game), until the game is over."""
    ctx, caller = side.ctx, side.caller
    mine = side.new_seat()
    theirs = HumanSeat(invitation.console.display, invitation.console.name, chat_limit=ctx.paging.chat_limit,
                       identity=sysop_identity(invitation.console.name))
    table = sysop_game(ctx.games, rules, (mine, theirs), caller.account.id if caller.account else None,
                       side.seeds, resume)
    invitation.handoff.set_result(theirs)
    side.log.info("%s plays the sysop %s%s", caller.name, invitation.console.name,
                  f" (game {resume.number} resumed)" if resume is not None else "")
    await seated(side, mine, table, Doing.VS_SYSOP)
