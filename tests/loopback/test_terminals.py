"""Every caller's terminal: the screens at 80x24, 80x25 and 132x50 (text
and colours), the plain-ASCII and CP437 profiles byte by byte, the charset
test from the menu, and Ctrl-S / Ctrl-Q."""

from __future__ import annotations

import asyncio
import re

import pytest

from door.server import DoorServer
from tests.support.player import Player, TelnetCaller, log_in_as_guest, telnet_caller


async def settled(raw: bytearray, quiet: float = 0.4) -> None:
    """Wait until the door has sent nothing for ``quiet`` seconds (the diff
    renderer sends only what changed, so exact text may never arrive whole)."""
    while True:
        size = len(raw)
        await asyncio.sleep(quiet)
        if len(raw) == size:
            return


def bottom_right_unwritten(caller: TelnetCaller) -> bool:
    screen = caller.screen.screen
    return screen.buffer[screen.lines - 1][screen.columns - 1].data == " "


@pytest.mark.parametrize("cols,rows", [(80, 24), (80, 25), (132, 50)])
async def test_every_view_at_every_size(door: DoorServer, cols: int, rows: int) -> None:
    caller = await telnet_caller(door.telnet_port, cols, rows)
    s = caller.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    assert s.screen.buffer[0][0].bg == "blue" and len(s.lines()[0]) == cols  # the title bar spans the width
    await log_in_as_guest(caller, "Sizer")
    assert "Play the computer" in s.text() and "Terminal:" in s.text()
    await caller.send(b"3")
    await s.wait_for(lambda: "Guests have no statistics" in s.text())
    assert "Press any key." in s.lines()[rows - 1]
    await caller.send(b" ")
    await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Options for this game" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Chat" in s.lines()[rows - 1])
    chat_row = next(i for i, line in enumerate(s.lines()) if "\u2500 Chat \u2500" in line)
    assert s.screen.buffer[chat_row][0].fg == "magenta"
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    row = s.row_of("Your cards") + 2
    assert s.screen.buffer[row][2].bg == "cyan"
    # the message area grows with the window; the board stays 80 columns
    separator = next(i for i in range(row, rows) if s.lines()[i].startswith("\u2500"))
    assert rows - 1 - separator - 1 == rows - 19
    assert bottom_right_unwritten(caller)
    player = Player(s, caller.send, name="Sizer")
    await s.wait_for(lambda: True)
    # play on until the door asks for a count (the count view), then stop
    for _ in range(200):
        if s.prompt().startswith("Count your"):
            break
        await player.act(s.prompt(), s.text())
        await asyncio.sleep(0.05)
    assert s.prompt().startswith("Count your") and s.screen.cursor.y == rows - 1
    assert bottom_right_unwritten(caller)
    caller.close()


async def test_plain_ascii_profile_sends_nothing_above_7e(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port, term="vt52")
    raw = caller.screen.raw
    s = caller.screen
    await log_in_as_guest(caller, "Dumb")
    assert "Terminal: plain ASCII" in s.text()
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "blank line deals" in s.text())
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    assert max(raw) <= 0x7E
    assert set(re.findall(rb"\x1b\[([0-9;]*)m", bytes(raw))) <= {b"0", b"1", b"4", b"7", b"0;1", b"0;7", b"0;1;7",
                                                                   b"0;4", b"0;1;4", b"1;7", b"1;4"}
    row = s.row_of("Your cards") + 2
    assert re.search(r"(10|[A2-9JQK])[HDCS]", s.lines()[row])  # letters for suits
    assert s.screen.buffer[row][2].reverse  # the bar in reverse video
    assert "|" in s.text() and "." in s.lines()[2]  # lines and holes in ASCII
    caller.close()


async def test_cp437_profile_has_suit_bytes_and_no_utf8(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port, 80, 25, term="ansi")
    raw = caller.screen.raw
    await log_in_as_guest(caller, "Bbs", until="ANSI-BBS (CP437)")
    await caller.send(b"11")
    await settled(raw)
    await caller.send(b"\r")  # deal
    await settled(raw)
    data = bytes(raw)
    assert b"Your cards" in data and b"\xc4" in data  # the game screen, with CP437 box drawing
    assert any(b in data for b in (b"\x03", b"\x04", b"\x05", b"\x06"))
    assert not re.search(rb"[\xc2-\xf4][\x80-\xbf]", data), "a UTF-8 sequence in a CP437 session"
    caller.close()


async def test_charset_test_from_the_menu_switches_profiles(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    raw = caller.screen.raw
    s = caller.screen
    await log_in_as_guest(caller, "Tess")
    await caller.send(b"t")
    await s.wait_for(lambda: "Do you see a heart here?" in s.text() and "UTF-8 ANSI" in s.text())
    assert "\u2665" in s.text()
    await caller.send(b"n")
    await s.wait_for(lambda: "ANSI-BBS (CP437)" in s.text())
    await caller.send(b"n")
    await s.wait_for(lambda: "plain ASCII" in s.text())
    # plain ASCII has no heart to see: the question says what it shows instead
    await s.wait_for(lambda: "suits as letters (H, D, C, S)" in s.text())
    assert "Do you see a heart" not in s.text()
    mark = len(raw)
    await caller.send(b"y")
    await s.wait_for(lambda: "Terminal: plain ASCII" in s.text())
    assert max(raw[mark:]) <= 0x7E
    caller.close()


async def test_ctrl_s_holds_output_until_ctrl_q(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    raw = caller.screen.raw
    s = caller.screen
    await log_in_as_guest(caller, "Pauly")
    await caller.send(b"\x13")  # Ctrl-S
    await asyncio.sleep(0.1)
    mark = len(raw)
    pauly = door.ctx.lobby.callers()[0]
    door.ctx.lobby.message(pauly, "dinner is served")  # output the door makes by itself
    await asyncio.sleep(0.4)
    assert len(raw) == mark, "output went out while paused"
    await caller.send(b"\x11")  # Ctrl-Q
    await s.wait_for(lambda: "dinner is served" in s.text())
    # any other key resumes too, so line noise cannot freeze the screen
    await caller.send(b"\x13")
    await asyncio.sleep(0.1)
    door.ctx.lobby.message(pauly, "and dessert")
    await caller.send(b"z")
    await s.wait_for(lambda: "and dessert" in s.text() and "Please press" in s.text())
    caller.close()
