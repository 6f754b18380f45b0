"""The line presentation's display: a screen is said once as
plain lines, Ctrl-L says it again, a window change says nothing, typed
keys are echoed, cards are named in full, and no escape sequence is sent."""

from __future__ import annotations

import asyncio

from door.net.keys import Key, KeyName
from door.ui.line_display import LineDisplay
from door.ui.prompts import ask_choice, ask_line
from tests.support.memory_terminal import MemoryTerminal


class Recorder(MemoryTerminal):
    """A memory terminal that keeps the bytes too."""

    def __init__(self) -> None:
        super().__init__()
        self.raw = bytearray()

    def _write(self, data: bytes) -> None:
        self.raw.extend(data)
        super()._write(data)


async def test_a_choice_is_said_once_and_again_on_ctrl_l() -> None:
    terminal = Recorder()
    display = LineDisplay(terminal)
    choice = asyncio.create_task(ask_choice(display, "Yes or no", ["Keep the 5\u2665?", ""], "YN"))
    await asyncio.sleep(0.05)
    assert bytes(terminal.raw) == b"Keep the five of hearts?\r\nPress Y or N.\r\n"
    terminal.resized(100, 40)
    terminal.feed(b"x")
    await asyncio.sleep(0.05)
    assert bytes(terminal.raw).endswith(b"Press Y or N.\r\nPress Y or N.\r\n")  # a wrong key: the keys again
    terminal.feed(b"\x0c")  # Ctrl-L
    await asyncio.sleep(0.05)
    assert bytes(terminal.raw).endswith(b"Keep the five of hearts?\r\nPress Y or N.\r\n")
    terminal.feed(b"y")
    assert await asyncio.wait_for(choice, 2) == "Y"
    assert b"\x1b" not in terminal.raw


async def test_a_line_of_input_is_echoed_and_erased() -> None:
    terminal = Recorder()
    display = LineDisplay(terminal)
    typed = asyncio.create_task(ask_line(display, "Name", ["Your name, please."], "Name: "))
    terminal.feed(b"Anz\x7fn\r")
    assert await asyncio.wait_for(typed, 2) == "Ann"
    assert bytes(terminal.raw).endswith(b"Name: Anz\x08 \x08n\r\n")
    assert b"\x1b" not in terminal.raw and display.too_small() is False


def test_resize_and_ctrl_l_are_the_display_s_own_keys() -> None:
    display = LineDisplay.__new__(LineDisplay)
    display.text = None
    assert display.screen_key(Key(KeyName.RESIZE)) and display.screen_key(Key(KeyName.CTRL_L))
    assert not display.screen_key(Key(KeyName.CHAR, "a"))


async def test_a_pasted_flood_of_wrong_keys_or_ctrl_l_is_answered_once() -> None:
    """A paste (or a flood) is one burst of keys: the line presentation
    answers its last key, as the full screen paints one frame for it; one
    line a key would turn 5,000 bytes in into 75,000 out."""
    terminal = Recorder()
    display = LineDisplay(terminal)
    choice = asyncio.create_task(ask_choice(display, "Yes or no", ["Keep it?"], "YN"))
    await asyncio.sleep(0.05)
    said = len(terminal.raw)
    terminal.feed(b"x" * 5000 + b"\x0c" * 5000)
    await asyncio.sleep(0.5)
    assert len(terminal.raw) - said < 200, bytes(terminal.raw[said:said + 200])
    assert bytes(terminal.raw).endswith(b"Keep it?\r\nPress Y or N.\r\n")  # the last key: Ctrl-L, answered
    terminal.feed(b"n")
    assert await asyncio.wait_for(choice, 2) == "N"
