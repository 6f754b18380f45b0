"""The line seat's moves at a table between two callers in
screen-reader mode, read from the byte stream each one is sent: a move
typed while the other player's is applied is not asked for again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from door.net.keys import Key, KeyName
from door.play.line_seat import LineSeat
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.ui.line_display import LineDisplay
from engine.game import Phase
from engine.rules import Rules
from tests.support.memory_terminal import MemoryTerminal


class RawTerminal(MemoryTerminal):
    """A terminal in memory that keeps every byte the door writes (``raw``)."""

    def __init__(self) -> None:
        super().__init__(term="dumb")
        self.raw = bytearray()

    def _write(self, data: bytes) -> None:
        self.raw.extend(data)

    def said(self, start: int = 0) -> str:
        return self.raw[start:].decode("utf-8", "replace")


async def until(done: Callable[[], bool]) -> None:
    for _ in range(500):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def typed(seat: LineSeat, keys: str) -> None:
    for char in keys:
        seat.handle(Key(KeyName.CHAR, char))


async def test_a_discard_typed_as_the_other_players_is_applied_is_not_asked_for_again() -> None:
    """Both callers type their two cards at once and the other's discard
    reaches the table first: the discard prompt, answered already, is not
    said again (its keys would go into the play)."""
    lin_terminal, bob_terminal = RawTerminal(), RawTerminal()
    lin = LineSeat(LineDisplay(lin_terminal), "Lin", identity=Identity.of_account(1))
    bob = LineSeat(LineDisplay(bob_terminal), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(), [lin, bob], TableSettings(auto_deal=True))
    running = asyncio.create_task(table.run())
    try:
        await until(lambda: table.game is not None and table.game.phase is Phase.DISCARD
                    and "Type two for" in lin_terminal.said() and "Type two for" in bob_terminal.said())
        start = len(lin_terminal.raw)
        typed(bob, "12")  # Bob's discard is queued first,
        typed(lin, "12")  # Lin's right behind it: the table applies Bob's while Lin's is on its way
        await until(lambda: table.game is not None and table.game.phase is Phase.PLAY)
        await asyncio.sleep(0.1)
        after = lin_terminal.said(start)
        assert "Type two for" not in after, after
        assert len(table.game.hands[0]) == 4 and len(table.game.hands[1]) == 4
    finally:
        for terminal in (lin_terminal, bob_terminal):
            terminal.lost()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
