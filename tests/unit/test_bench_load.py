"""bench.load's callers (the load generator): they stop at the time limit."""

from __future__ import annotations

import asyncio
import time

from bench.load import _play


class QuietScreen:
    """A caller's screen that never changes: no prompt, nothing on it."""

    last_rx = 0.0

    def __init__(self) -> None:
        self.changed = asyncio.Event()

    def lines(self) -> list[str]:
        return [""] * 24

    def prompt(self) -> str:
        return ""


class EndlessPlayer:
    """A player whose game never ends: every look at the screen is a move."""

    def __init__(self) -> None:
        self.moves = 0

    async def act(self, prompt: str, screen: str) -> bool | str:
        self.moves += 1
        await asyncio.sleep(0.01)
        return True


async def test_a_caller_stops_at_its_deadline_by_the_clock_not_by_being_cancelled() -> None:
    """Nobody cancels the caller here (Python 3.11's wait_for can lose a
    cancellation that arrives as a wait ends, and 1,000 callers then played
    on past --time-limit): it stops by itself, within a move of its deadline."""
    player = EndlessPlayer()
    deadline = time.monotonic() + 0.3
    task = asyncio.create_task(_play(player, QuietScreen(), deadline))
    done, _ = await asyncio.wait([task], timeout=3.0)
    if not done:
        task.cancel()
    assert task in done, "the caller played on past its deadline"
    assert isinstance(task.exception(), asyncio.TimeoutError)
    assert time.monotonic() - deadline < 1.0
    assert player.moves >= 1
