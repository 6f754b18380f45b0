"""The door's page in a browser, read as a player reads it: through
xterm.js's own buffer.  :class:`XtermScreen` is a
:class:`~tests.support.player.ClientScreen` whose rows and highlight bar
come from the page's terminal (polled), so the same
:class:`~tests.support.player.Player` plays in the browser as over telnet."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.support.player import ClientScreen

__all__ = ["XtermScreen", "SNAPSHOT"]

CYAN = 6
"""xterm's palette index of the highlight bar's background."""

SNAPSHOT = """() => {
    const t = window.doorTerminal, b = t.buffer.active, rows = [], bars = [];
    for (let y = 0; y < t.rows; y++) {
        const line = b.getLine(b.viewportY + y);
        rows.push(line.translateToString(false));
        let bar = -1;
        for (let x = 0; x < t.cols; x++) {
            const cell = line.getCell(x);
            if (cell && cell.isBgPalette() && cell.getBgColor() === CYAN_INDEX) { bar = x; break; }
        }
        bars.push(bar);
    }
    return [rows, bars, t.cols, t.rows];
}""".replace("CYAN_INDEX", str(CYAN))
"""What the page's terminal shows: each row's text (full width), the
column where the cyan bar starts in it (-1: none), its size."""


class XtermScreen(ClientScreen):
    """The page's terminal as a :class:`ClientScreen` (call :meth:`start`
    to begin polling; :meth:`stop` at the end)."""

    def __init__(self, page: Any) -> None:
        super().__init__(80, 25)
        self.page = page
        self._rows: list[str] = []
        self._bars: list[int] = []
        self.size = (0, 0)
        self._poll: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._poll = asyncio.create_task(self._polling())

    def stop(self) -> None:
        if self._poll is not None:
            self._poll.cancel()

    async def refresh(self) -> None:
        """Read the page's terminal now."""
        rows, bars, cols, lines = await self.page.evaluate(SNAPSHOT)
        if rows != self._rows or bars != self._bars:
            self._rows, self._bars, self.size = rows, bars, (cols, lines)
            self.changed.set()

    async def _polling(self) -> None:
        while True:
            await self.refresh()
            await asyncio.sleep(0.05)

    def lines(self) -> list[str]:
        return list(self._rows)

    def bar_column(self, row: int) -> int | None:
        col = self._bars[row] if row < len(self._bars) else -1
        return None if col < 0 else col
