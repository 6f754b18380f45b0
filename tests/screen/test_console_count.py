"""The sysop console's header counts every caller it lists: those on this
node and those on the other nodes of a shared store (the console listed
two and said "On line: 1 caller(s)")."""

from __future__ import annotations

from door.config import PagingConfig
from door.records.nodes import Node, Present
from door.sysop.console import SysopConsole
from door.sysop.doing import Activity, Doing
from door.sysop.lobby import Lobby
from door.ui.canvas import Canvas
from door.ui.display import Display
from tests.support.memory_terminal import MemoryTerminal


async def test_the_header_counts_the_callers_of_every_node() -> None:
    lobby = Lobby(PagingConfig())
    ann = lobby.join(1, MemoryTerminal())
    ann.name = "Ann"
    lobby.update(ann, Doing.MAIN_MENU)
    sysop = lobby.join(2, MemoryTerminal())
    sysop.is_sysop = True
    console = SysopConsole(Display(sysop.terminal), lobby, "Sysop", sysop)
    canvas = Canvas(80, 24)
    console.paint(canvas)
    assert canvas.text(2).startswith(" On line: 1 caller(s), 0 page(s) waiting, 0 in a game.")
    lobby.set_elsewhere({7: Node(7, "127.0.0.3", 4000, 1, 1)}, [
        Present(7, "Syd", Activity(Doing.AVAILABLE).encode(), True),  # another node's sysop: not a caller
        Present(7, "Bo1", Activity(Doing.MAIN_MENU).encode(), False),
        Present(7, "Cy", Activity(Doing.MAIN_MENU).encode(), False)])
    canvas = Canvas(80, 24)
    console.paint(canvas)
    assert canvas.text(2).startswith(" On line: 3 caller(s) (2 on other servers), 0 page(s) waiting, "
                                     "0 in a game here.")
    listed = [canvas.text(row) for row in range(24)]
    assert sum("another server" in line for line in listed) == 3  # (each listed, the other sysop too)
