"""Screens that wait: a caller who reads the menu or thinks over a hand
costs the door next to nothing (at 1,000 callers, the menu's
once-a-second repaint and the scattered clock ticks were a fifth of the
door's CPU)."""

import asyncio

from door.caller.identity import Caller
from door.caller.menu import MenuState, main_menu
from door.ui.display import Display
from tests.support.memory_terminal import MemoryTerminal


async def test_the_menu_repaints_only_when_what_it_shows_changes() -> None:
    terminal = MemoryTerminal()
    display = Display(terminal)
    sysop = False
    messages: list[str] = []
    menu = asyncio.create_task(main_menu(display, Caller("Ann", None), MenuState(sysop_available=lambda: sysop), messages))
    try:
        await asyncio.sleep(2.3)  # two ticks of the menu's clock, nothing new
        assert display.renderer.frames == 1
        assert "Play the sysop" not in terminal.text()
        sysop = True
        await asyncio.sleep(1.2)
        assert display.renderer.frames == 2 and "Play the sysop" in terminal.text()
        messages.append("The sysop says: back in five minutes.")
        await asyncio.sleep(1.2)
        assert display.renderer.frames == 3 and "back in five minutes" in terminal.text()
    finally:
        menu.cancel()


async def test_every_session_ticks_at_the_same_moments() -> None:
    """Ticks fall on whole multiples of the tick on the loop's clock, so a
    thousand waiting sessions wake the door once per tick, not a thousand
    times at scattered moments."""
    tick = 0.1
    loop = asyncio.get_running_loop()
    times: list[list[float]] = [[], []]

    async def session(index: int) -> None:
        display = Display(MemoryTerminal())
        async for key in display.keys(tick=tick):
            if key is None:
                times[index].append(loop.time())
                if len(times[index]) == 5:
                    return

    first = asyncio.create_task(session(0))
    await asyncio.sleep(0.043)  # the second session starts out of step with the first
    await asyncio.wait_for(asyncio.gather(first, session(1)), 5)
    for t in times[0][1:] + times[1][1:]:
        assert min(t % tick, tick - t % tick) < 0.02, times
    shared = set(round(t / tick) for t in times[0]) & set(round(t / tick) for t in times[1])
    assert len(shared) >= 3, times
