"""A caller at the club night: joining from the menu, waiting
between rounds with the standings on screen, and each round's game."""

from __future__ import annotations

from collections.abc import Sequence

from door.caller.seated import seated
from door.caller.side import CallerSide
from door.net.keys import KeyName
from door.records.ranked.club_scoring import Standing
from door.sysop.club_night import Assignment, ClubNight, Night
from door.sysop.doing import Doing
from door.ui.canvas import Canvas
from door.ui.prompts import frame, show_page

__all__ = ["club_night", "final_lines"]


def final_lines(standings: Sequence[Standing]) -> list[str]:
    """The final standings page: place, name, points, won-lost, spread."""
    return ["Club night: the final standings (points, won-lost, spread)", "",
            *(s.line(place) for place, s in enumerate(standings, 1))]


def _lines(night: ClubNight, name: str, note: str) -> list[str]:
    """The waiting screen: where the night stands and its standings."""
    if night.state is Night.OPEN:
        head = [f"Club night: {night.words()}.", "Joined: " + ", ".join(e.name for e in night.entrants), "",
                "ACC scoring: 2 points a win, 3 a skunk. ESC or Q leaves before the start."]
    else:
        head = [f"Club night, round {night.round} of {night.games}: waiting for the other tables.", "",
                "Standings (points, won-lost, spread):"]
        head += [s.line(place) for place, s in enumerate(night.standings(), 1)][:12]
    return head + ([note] if note else [])


async def _wait(side: CallerSide, night: ClubNight) -> Assignment | None:
    """Until the night seats this caller (their table), it ends, or they
    leave (``None``)."""
    display, name = side.display, side.caller.name
    note = ""

    def paint(canvas: Canvas) -> None:
        frame(canvas, "Club night", _lines(night, name, note), banner=False)
        canvas.cursor = None

    display.show(paint, text=lambda: _lines(night, name, note))
    async for key in display.keys(tick=0.5):
        if (a := night.assignment(name)) is not None:
            return a
        if night.state is Night.OVER:
            return None
        if key is None:
            display.refresh_soon()
            continue
        if key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "qQ"):
            return None
        note = "Your next game starts when the round does. ESC or Q leaves."
        display.refresh_soon()
    return None


async def club_night(side: CallerSide) -> None:
    """J at the menu: join tonight's club night and play its rounds; at
    its end, the final standings.  Raises
    :class:`~door.net.terminal.HungUp` on hang-up."""
    display, ctx, name = side.display, side.ctx, side.caller.name
    night = ctx.lobby.club
    if not isinstance(night, ClubNight) or night.state is not Night.OPEN:
        await show_page(display, "Club night", ["No club night is taking players right now."])
        return
    refusal = night.join(name, side.presence.identity)
    if refusal is not None:
        await show_page(display, "Club night", [refusal])
        return
    side.doing(Doing.CLUB_NIGHT)
    try:
        while (a := await _wait(side, night)) is not None:
            seat = side.new_seat()
            table = await night.sit(name, seat)
            if table is None:
                continue  # the other player never came: a win by forfeit
            await seated(side, seat, table, Doing.VS_CALLER, a.opponent(name))
            side.doing(Doing.CLUB_NIGHT)
    finally:
        night.leave(name)
    if night.results and not night.assignments:  # (the night is over: its last standings)
        await show_page(display, "Club night", final_lines(night.standings()))
