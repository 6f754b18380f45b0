"""Table factories: the computer opponent a caller chose, and the
demonstration (the computer against itself, as in Cribbage Partner)."""

from __future__ import annotations

import asyncio
import random
import secrets

from door.net.keys import KeyName
from door.play.computer_seat import ComputerSeat
from door.play.options import CallerOptions, Pace, Skill
from door.play.spectator import Spectator
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.play.thinking import IN_THREAD, Thinking
from door.ui.display import Display
from engine.expert import ExpertPlayer
from engine.hard import HardPlayer
from engine.players import EasyPlayer
from engine.rules import Rules
from engine.strategy import Strategy

__all__ = ["computer_opponent", "demonstration", "DEMO_FLOOR", "DEMO_CEILING"]

DEMO_FLOOR = 0.25
"""The fastest a demonstration goes, in seconds a move (+ stops there).
Each move is a computer's decision and a frame: at the old floor of 0.05 s,
150 demonstrations over one SSH connection took the door's whole core;
at this one, the ten connections an address may have cost a
few per cent of it (``python3 -m bench.abuse --only demo-flood``)."""

DEMO_CEILING = 5.0
"""The slowest a demonstration goes, in seconds a move (- stops there)."""


def computer_opponent(options: CallerOptions, delay: float, pegging_pause: float, hand_pause: float,
                      thinking: Thinking = IN_THREAD) -> ComputerSeat:
    """The computer at the level the caller chose (``options.skill``),
    moving after ``delay`` seconds; with the "pause" pace it waits
    ``pegging_pause`` seconds more after a pegging score and ``hand_pause``
    after a hand that scored (as in Cribbage Partner).  Its tie-breaks draw from its own
    generator, seeded from :mod:`secrets`; the expert thinks in
    ``thinking``."""
    rng = random.Random(secrets.randbits(64))
    strategy: Strategy
    if options.skill is Skill.EASY:
        strategy = EasyPlayer(rng)
    elif options.skill is Skill.HARD:
        strategy = HardPlayer(rng)
    else:
        strategy = ExpertPlayer(rng)
    pace = options.pace is Pace.PAUSE
    return ComputerSeat(strategy=strategy, delay=delay, pegging_pause=pegging_pause if pace else 0.0,
                        hand_pause=hand_pause if pace else 0.0, thinking=thinking)


async def demonstration(display: Display, rules: Rules, delay: float) -> None:
    """Cribbage Partner's demonstration (as in Cribbage Partner): the hard computer plays
    both hands, every card face up, ``delay`` seconds a move; + and - change
    the pace, from :data:`DEMO_FLOOR` to :data:`DEMO_CEILING`; any other key
    stops.  Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    rng = random.Random(secrets.randbits(64))
    delay = max(DEMO_FLOOR, min(DEMO_CEILING, delay))
    seats = [ComputerSeat("North", HardPlayer(rng), delay), ComputerSeat("South", HardPlayer(rng), delay)]
    table = Table(rules, seats, TableSettings(auto_deal=True))
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
