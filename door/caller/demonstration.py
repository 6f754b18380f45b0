"""Cribbage Partner's demonstration: the computer against itself, every
card face up, at a pace the watcher sets."""

from __future__ import annotations

import asyncio
import random
import secrets

from door.games.kinds import exhibition
from door.net.keys import KeyName
from door.play.computer_seat import ComputerSeat
from door.play.spectator import Spectator
from door.ui.display import Display
from engine.hard import HardPlayer
from engine.rules import Rules

__all__ = ["DEMO_CEILING", "DEMO_FLOOR", "demonstration"]

DEMO_FLOOR = 0.25
"""The fastest a demonstration goes, in seconds a move (+ stops there).
Each move is a computer's decision and a frame: at the old floor of 0.05 s,
150 demonstrations over one SSH connection took the door's whole core;
at this one, the ten connections an address may have cost a
few per cent of it (``python3 -m bench.abuse --only demo-flood``)."""

DEMO_CEILING = 5.0
"""The slowest a demonstration goes, in seconds a move (- stops there)."""


async def demonstration(display: Display, rules: Rules, delay: float) -> None:
    """Cribbage Partner's demonstration (as in Cribbage Partner): the hard computer plays
    both hands, every card face up, ``delay`` seconds a move; + and - change
    the pace, from :data:`DEMO_FLOOR` to :data:`DEMO_CEILING`; any other key
    stops.  Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    rng = random.Random(secrets.randbits(64))
    delay = max(DEMO_FLOOR, min(DEMO_CEILING, delay))
    seats = [ComputerSeat("North", HardPlayer(rng), delay), ComputerSeat("South", HardPlayer(rng), delay)]
    table = exhibition(rules, (seats[0], seats[1]))
    view = Spectator(display, table, reveal=True,
                     prompt="Demonstration, {a} against {b}: + faster, - slower, any other key stops.")
    table.watchers.append(view)
    display.show(view.paint, text=lambda: [view.prompt.format(a=seats[0].name, b=seats[1].name)])
    run = asyncio.create_task(table.run())
    try:
        async for key in display.keys(tick=0.5):
            if run.done():
                break
            if key is None:
                display.refresh_soon()
            elif key.name is KeyName.CHAR and key.char in "+-":
                for seat in seats:
                    seat.delay = max(DEMO_FLOOR, min(DEMO_CEILING,
                                                     seat.delay / 1.5 if key.char == "+" else seat.delay * 1.5))
                view.vs.say(f"One move every {seats[0].delay:.2f} s.")
                display.refresh_soon()
            else:
                break
    finally:
        run.cancel()
        for seat in seats:
            seat.stop()
