"""The computer opponent a caller chose, at its level and pace."""

from __future__ import annotations

import random
import secrets

from door.play.computer_seat import ComputerSeat
from door.play.options import CallerOptions, Pace, Skill
from door.play.thinking import IN_THREAD, Thinking
from engine.expert import ExpertPlayer
from engine.hard import HardPlayer
from engine.players import EasyPlayer
from engine.strategy import Strategy

__all__ = ["computer_opponent"]

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
