"""A caller's session: name, run mode, then games against the computer
until the caller declines another or hangs up (seed 004's flow)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets

from engine.rules import Rules
from engine.scoring import RunMode
from engine.strategy import SensiblePlayer

from .display import Display
from .prompts import ask_name, ask_run_mode, goodbye
from .seats import ComputerSeat, HumanSeat
from .table import Table
from .terminal import Terminal

__all__ = ["caller_session"]


async def caller_session(terminal: Terminal, rules: Rules, computer_delay: float,
                         log: logging.Logger | logging.LoggerAdapter[logging.Logger]) -> None:
    """Run one caller from the welcome screen to goodbye.

    ``rules``: the house rules (the caller picks the run mode); 
    ``computer_delay``: seconds before each computer move; ``log``: the
    connection's logger."""
    display = Display(terminal)
    name = await ask_name(display, terminal.username)
    if name is None:
        return
    log.info("caller is %r", name)
    mode = await ask_run_mode(display)
    if mode is None:
        return
    rules = dataclasses.replace(rules, run_mode=RunMode.UNORDERED if mode == 1 else RunMode.ORDERED)
    human = HumanSeat(display, name)
    computer = ComputerSeat(strategy=SensiblePlayer(random.Random(secrets.randbits(64))), delay=computer_delay)
    table = Table(rules, [human, computer])
    keys = asyncio.create_task(human.run())
    try:
        await table.run()
    finally:
        keys.cancel()
        computer.stop()
    if not terminal.closed:
        goodbye(display, f"Thanks for playing cribbage, {name}. Goodbye!")
        await terminal.drain()
