"""A seat's chat window keeps its last lines only, whatever fills it:
the players' chat, and the door's own notices (a watcher coming and
going, a line dropping and coming back, notes of advice), which it kept
without end."""

from __future__ import annotations

from door.play.human_seat import HumanSeat
from door.play.line_seat import LineSeat
from door.play.view_state import CHAT_KEPT
from door.records.identity import Identity
from door.ui.display import Display
from door.ui.line_display import LineDisplay
from tests.support.memory_terminal import MemoryTerminal


async def test_a_seats_chat_window_keeps_its_last_lines_of_notices_and_chat() -> None:
    for seat in (HumanSeat(Display(MemoryTerminal()), "Ann", identity=Identity.of_account(1)),
                 LineSeat(LineDisplay(MemoryTerminal(term="dumb")), "Lin", identity=Identity.of_account(2))):
        for n in range(3 * CHAT_KEPT):
            seat.notice(f"Wes is watching ({n}).")
        assert len(seat.vs.chat) == CHAT_KEPT and seat.vs.chat[-1][2] == f"Wes is watching ({3 * CHAT_KEPT - 1})."
        for n in range(3 * CHAT_KEPT):
            seat.on_chat((float(n), "Bob", f"line {n}"))
        assert len(seat.vs.chat) == CHAT_KEPT
        assert seat.vs.chat[-1] == (float(3 * CHAT_KEPT - 1), "Bob", f"line {3 * CHAT_KEPT - 1}")
