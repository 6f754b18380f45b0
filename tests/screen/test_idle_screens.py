"""Screens that wait: a caller who reads the menu or thinks over a hand
costs the door next to nothing (at 1,000 callers, the menu's
once-a-second repaint and the scattered clock ticks were a fifth of the
door's CPU)."""

import asyncio

from door.caller.identity import Caller
from door.caller.menu import MenuState, main_menu
from door.net.keys import Key
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


class _Asked(MemoryTerminal):
    """A terminal that keeps the moment (on the loop's clock) each wait for
    a key was asked to end at: where the door means its session to wake
    (read the moment after the display read the clock: later by the time
    between two lines of code, not by how late a busy loop wakes)."""

    def __init__(self) -> None:
        super().__init__()
        self.wakes: list[float] = []

    async def get_key(self, timeout: float | None = None) -> Key | None:
        if timeout is not None:
            self.wakes.append(asyncio.get_running_loop().time() + timeout)
        return await super().get_key(timeout)


async def test_every_session_ticks_at_the_same_moments() -> None:
    """Ticks fall on whole multiples of the tick on the loop's clock, so a
    thousand waiting sessions wake the door once per tick, not a thousand
    times at scattered moments.  (The moments each wait is asked to end
    at are checked, not when the loop woke: a busy machine wakes it late.)"""
    tick = 0.1
    terminals = [_Asked(), _Asked()]

    async def session(index: int) -> None:
        display = Display(terminals[index])
        ticks = 0
        async for key in display.keys(tick=tick):
            if key is None:
                ticks += 1
                if ticks == 5:
                    return

    first = asyncio.create_task(session(0))
    await asyncio.sleep(0.043)  # the second session starts out of step with the first
    await asyncio.wait_for(asyncio.gather(first, session(1)), 5)
    for t in terminals[0].wakes + terminals[1].wakes:
        assert min(t % tick, tick - t % tick) < 0.02, (terminals[0].wakes, terminals[1].wakes)
    shared = {round(t / tick) for t in terminals[0].wakes} & {round(t / tick) for t in terminals[1].wakes}
    assert len(shared) >= 3, (terminals[0].wakes, terminals[1].wakes)
