"""A :class:`~door.net.terminal.Terminal` in memory: what the door writes
goes straight into a pyte screen, keys are fed by the test.  For screens
painted without a network (the golden screens)."""

from __future__ import annotations

import asyncio

import pyte

from door.net.terminal import Terminal

__all__ = ["MemoryTerminal"]


class MemoryTerminal(Terminal):
    """``cols`` x ``rows`` cells of a UTF-8 terminal (``term``), its output
    rendered by pyte (``screen``)."""

    def __init__(self, cols: int = 80, rows: int = 24, term: str = "xterm") -> None:
        super().__init__("telnet", "127.0.0.1:2323", term, cols, rows)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def _write(self, data: bytes) -> None:
        self.stream.feed(data)

    async def _drain(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True

    async def pump(self) -> None:
        await asyncio.Event().wait()

    def text(self) -> str:
        """What the screen shows, trailing blanks cut from each row."""
        return "\n".join(line.rstrip() for line in self.screen.display)
