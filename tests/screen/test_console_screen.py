"""The sysop console's screen is painted from what it shows alone
(:class:`~door.sysop.console_screen.ConsoleShown`), with no lobby: the
callers at other nodes listed after this node's, before the sysops there;
the selected row on the bar; a game waiting for the sysop; the line being
typed, the cursor at its end."""

from __future__ import annotations

from door.records.nodes import Present
from door.sysop.console_keys import ConsoleKeys
from door.sysop.console_screen import BAR, TEXT, ConsoleShown, paint_console
from door.sysop.doing import Activity, Doing
from door.sysop.presence import Presence
from door.ui.canvas import Canvas
from tests.support.memory_terminal import MemoryTerminal


async def test_the_console_is_painted_from_what_it_shows() -> None:
    ann = Presence(1, MemoryTerminal(), name="Ann")
    elsewhere = [Present(7, "Syd", Activity(Doing.AVAILABLE).encode(), True),  # another node's sysop
                 Present(7, "Bo", Activity(Doing.MAIN_MENU).encode(), False)]
    keys = ConsoleKeys(selected=1, input_label="Message to Bo: ", input="hello")
    canvas = Canvas(80, 24)
    paint_console(canvas, ConsoleShown("Sysop", False, [ann], elsewhere, [], "Cy", ["12:00 you are away"], keys))
    rows = [canvas.text(row) for row in range(24)]
    assert "AWAY" in rows[0]
    assert rows[2].startswith(" On line: 2 caller(s) (1 on other servers), 0 page(s) waiting, 0 in a game here.")
    assert rows[3].strip() == "Your game with Cy waits for you: R resumes it."
    listed = [i for i, line in enumerate(rows) if line.startswith("  Ann") or line.startswith("  Bo")
              or line.startswith("  Syd")]
    assert [rows[i].split()[0] for i in listed] == ["Ann", "Bo", "Syd"]  # the callers, then the sysops
    ann_row, bo_row, syd_row = listed
    assert canvas.style_at(bo_row, 40) == BAR and canvas.style_at(ann_row, 40) == TEXT
    assert "sysop, " in rows[syd_row]
    assert any(line.strip() == "12:00 you are away" for line in rows[-7:-2])
    assert rows[-1].strip() == "Message to Bo: hello"
    assert canvas.cursor == (23, 1 + len("Message to Bo: hello"))
