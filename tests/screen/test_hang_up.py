"""A hang-up is one exception: the key loop raises
:class:`HungUp` when the line ends, every screen lets it go up, and a seat
at a table leaves the table first.  No screen returns a "hung up" value
that its caller must remember to check."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from door.caller.identity import Caller
from door.caller.menu import main_menu
from door.net.terminal import HungUp
from door.play.human_seat import HumanSeat
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.ui.display import Display
from door.ui.prompts import ask_choice, ask_line, charset_test, show_page
from engine.rules import Rules
from tests.support.memory_terminal import MemoryTerminal

Screen = Callable[[Display], Awaitable[object]]

SCREENS: dict[str, Screen] = {
    "a line of input": lambda d: ask_line(d, "Name", ["Your name?"], "Name: "),
    "a choice of keys": lambda d: ask_choice(d, "Yes or no", ["Well?"], "YN"),
    "a page of text": lambda d: show_page(d, "Statistics", ["Nothing yet."]),
    "the charset test": charset_test,
    "the main menu": lambda d: main_menu(d, Caller("Ann", None)),
}


@pytest.mark.parametrize("name", SCREENS)
async def test_every_screen_raises_hung_up_when_the_line_ends(name: str) -> None:
    terminal = MemoryTerminal()
    screen = asyncio.create_task(SCREENS[name](Display(terminal)))
    await asyncio.sleep(0.05)
    assert not screen.done()  # waiting for a key
    terminal.lost()
    with pytest.raises(HungUp):
        await asyncio.wait_for(screen, 2)


async def test_keys_already_typed_are_handled_before_the_hang_up() -> None:
    terminal = MemoryTerminal()
    terminal.feed(b"Ann\r")
    terminal.lost()
    assert await ask_line(Display(terminal), "Name", ["Your name?"], "Name: ") == "Ann"


async def test_a_seat_whose_line_ends_leaves_the_table_then_raises_hung_up() -> None:
    terminal = MemoryTerminal()
    mine = HumanSeat(Display(terminal), "Ann", identity=Identity.of_account(1))
    theirs = HumanSeat(Display(MemoryTerminal()), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(), [mine, theirs], TableSettings(rejoin_timeout=60))
    running = asyncio.create_task(table.run())
    playing = asyncio.create_task(mine.play())
    await asyncio.sleep(0.1)
    terminal.lost()
    with pytest.raises(HungUp):
        await asyncio.wait_for(playing, 2)
    assert table.absent == {0}  # the table waits for Ann to come back
    running.cancel()
