"""The daily deal's games: the computer every caller meets on the day's
cards, and the expert's own result on them (the par).

The computer is the expert with its choices seeded from the day's secret
seed (:func:`~door.records.daily.strategy_seed`), so two callers who play
alike meet the same answers and nobody can rehearse them before the day
is over; the par is the same expert in the caller's seat (seeded apart)
against it, thinking where every computer thinks
(:class:`~door.play.thinking.Thinking`).
"""

from __future__ import annotations

import asyncio
import random

from door.play.computer_seat import ComputerSeat
from door.play.thinking import IN_THREAD, Thinking
from door.records.daily import strategy_seed
from engine.expert import ExpertPlayer
from engine.game import Game
from engine.rules import Rules
from engine.shuffle import SeededShuffle
from engine.strategy import decision_for

__all__ = ["daily_opponent", "par_result"]


def daily_opponent(deal: SeededShuffle, delay: float, pegging_pause: float, hand_pause: float,
                   thinking: Thinking = IN_THREAD) -> ComputerSeat:
    """The computer of the day's ``deal`` (see the module)."""
    return ComputerSeat(strategy=ExpertPlayer(random.Random(strategy_seed(deal.server_seed, "computer"))),
                        delay=delay, pegging_pause=pegging_pause, hand_pause=hand_pause, thinking=thinking)


_working: dict[tuple[Rules, SeededShuffle], asyncio.Future[tuple[int, int]]] = {}
"""The par games being played now, so that callers who ask at once wait for one game."""


async def par_result(rules: Rules, deal: SeededShuffle, thinking: Thinking = IN_THREAD) -> tuple[int, int]:
    """The expert's own game on the day's ``deal`` under ``rules``: its
    points in the caller's seat (0) and the computer's (1).  About a
    hundred decisions, each where the computer thinks; callers who ask
    while it is played wait for the same game."""
    key = (rules, deal)
    running = _working.get(key)
    if running is None or running.get_loop() is not asyncio.get_running_loop():
        running = _working[key] = asyncio.ensure_future(_par_game(rules, deal, thinking))
        running.add_done_callback(lambda done: _working.pop(key) if _working.get(key) is done else None)
    return await asyncio.shield(running)


async def _par_game(rules: Rules, deal: SeededShuffle, thinking: Thinking) -> tuple[int, int]:
    game = Game(rules, deal.game, shuffle=deal)
    game.start()
    players = [ExpertPlayer(random.Random(strategy_seed(deal.server_seed, "par"))),
               ExpertPlayer(random.Random(strategy_seed(deal.server_seed, "computer")))]
    while not game.over:
        seat = game.to_act()[0]
        game.apply(await thinking.decide(players[seat], decision_for(game, seat)))
    assert game.result is not None
    return game.result.scores[0], game.result.scores[1]
