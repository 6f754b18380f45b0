"""The game review from the caller's side: after a game, the
door says it is reviewed; under Recent games its number opens the review,
a screenful at a time, with the caller's own miscount in it."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.support.player import Player, log_in_registered
from tests.support.server import make_config, running


class ShortCounter(Player):
    """Counts the first hand worth a point or more short, by two points or
    by all it is worth if less (``short_by``); every other count exactly."""

    short = True
    short_by = 0

    async def count(self, prompt: str) -> None:
        if not self.short:
            return await super().count(prompt)
        self.short = False
        sent: list[bytes] = []
        real_send = self.send
        self.send = lambda data: sent.append(data) or _noop()  # type: ignore[method-assign,assignment]
        await super().count(prompt)
        self.send = real_send  # type: ignore[method-assign]
        points = int(sent[0].strip())
        if points == 0:  # nothing to miss: the next hand worth something
            self.short = True
        self.short_by = min(2, points)
        await self.send(f"{points - self.short_by}\r".encode())


async def _noop() -> None:
    return None


async def test_a_finished_game_is_reviewed_from_recent_games(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data", game_to=61)
    config.computer.processes = 1  # the review is worked out where the computer thinks: a worker process
    async with running(config) as door:
        caller = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
        screen = caller.screen
        player = ShortCounter(screen, caller.send, name="Ann", password="ann-secret")
        final = await player.play(timeout=200)
        assert re.search(r"Game #\d+ is reviewed, decision by decision, under 5 Recent games\.",
                         re.sub(r"\s+", " ", final)), final
        await screen.wait_for(lambda: "Main menu" in screen.text())
        await caller.send(b"5")
        await screen.wait_for(lambda: "Press 1 to review that game" in screen.text()
                              and "Ann" in screen.text())
        assert re.search(r"^ +1  \d{4}-\d\d-\d\d \d\d:\d\d  #\d+ +Ann \d+ - Computer \d+", screen.text(), re.M)
        for _ in range(200):  # (the game's last searches answered first: they are not the review's)
            if door.thinking.under_way == 0:
                break
            await asyncio.sleep(0.05)
        answered = door.thinking.answered
        await caller.send(b"1")
        # the whole first page, not the first bytes of it: its last line is the pager's
        await screen.wait_for(lambda: "Review of game #" in screen.text() and "any key" in screen.text().lower(),
                              timeout=30)
        page = screen.text()
        # the review was the worker's (about 20 ms a card), not a thread's holding the door's interpreter lock
        assert door.thinking.answered == answered + 1
        missed = player.short_by
        assert missed, "the caller had no hand worth a point to count short"
        # under muggins a short count costs what it missed and what the computer pegged for it
        assert re.search(rf"Your discards cost \d+\.\d points, your pegging \d+\.\d, your counting {2 * missed}\.",
                         re.sub(r"\s+", " ", page)), page
        assert re.search(r"Hand 1 \((your|their) crib\): kept .+: -?\d+\.\d points", page)
        text = page
        while "any key for more" in screen.text():  # every page, to the miscount
            before = screen.text()
            await caller.send(b" ")
            await screen.wait_for(lambda: screen.text() != before)
            text += screen.text()
        assert re.search(rf"Your (hand|crib): you counted \d+ of \d+: you pegged \d+ and Computer {missed}, "
                         rf"a cost of {2 * missed}\.", re.sub(r"\s+", " ", text)), text
        await caller.send(b" ")
        await screen.wait_for(lambda: "Main menu" in screen.text())
        caller.close()
