"""The computer at a table: it answers as soon as the game waits for it,
after a delay a person can follow."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from door.play.table import Table
from door.play.thinking import IN_THREAD, Thinking
from door.records.identity import Identity
from engine.actions import Action
from engine.events import Event, scored
from engine.game import Game
from engine.hard import HardPlayer
from engine.shuffle import COMPUTER_SEED
from engine.strategy import Strategy, decision_for

__all__ = ["ComputerSeat"]

log = logging.getLogger(__name__)


class ComputerSeat:
    """The computer: plays ``strategy`` (a :class:`HardPlayer` by default)
    after ``delay`` seconds per action, and with the "pause" pace waits
    ``pegging_pause`` seconds more after a pegging score and ``hand_pause``
    after a hand that scored (as in Cribbage Partner); it also waits while the table holds
    play for the caller to read a score.  It always counts exactly.  A
    strategy with ``deliberate`` set (the expert) thinks in ``thinking``
    (:class:`~door.play.thinking.Thinking`: worker processes, or by default
    the one thinking thread) when there is a choice to weigh
    (:attr:`~engine.strategy.Decision.needs_thought`); any other decision,
    and any other strategy's, is made at once on the loop."""

    computer = True
    identity: Identity | None = None
    shuffle_seed = COMPUTER_SEED
    """The computer's player seed: a constant (the door's own part of a
    shuffle is its server seed)."""

    def __init__(self, name: str = "Computer", strategy: Strategy | None = None, delay: float = 0.6,
                 pegging_pause: float = 0.0, hand_pause: float = 0.0, thinking: Thinking = IN_THREAD) -> None:
        self.name = name
        self.thinking = thinking
        self.strategy: Strategy = strategy or HardPlayer()
        self.delay = delay
        self.pegging_pause = pegging_pause
        self.hand_pause = hand_pause
        self.table: Table | None = None
        self.index = 1
        self._task: asyncio.Task[None] | None = None
        self._sent: tuple[Game, Action] | None = None
        """The move submitted to the table and not yet applied (or
        refused), with the game it was for."""
        self._pause = 0.0

    def attach(self, table: Table, index: int) -> None:
        self.table, self.index = table, index

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        pegging, hand = scored(events)
        self._pause = max(self._pause, self.hand_pause if hand else 0.0, self.pegging_pause if pegging else 0.0)
        if self._sent is not None:
            sent_in, move = self._sent
            if sent_in is not game or (game.actions and game.actions[-1] is move):
                self._sent = None  # our move is in the game (or its game is over)
        self._arm(game)

    def _arm(self, game: Game) -> None:
        """Start deciding when ``game`` waits for this seat, unless a
        decision is under way or a move already sent is not yet applied
        (the other player's move applied in between must not start a
        second one: it would decide for a turn that is no longer ours)."""
        if self.index in game.to_act() and self._task is None and self._sent is None:
            self._task = asyncio.create_task(self._act(game))

    async def _act(self, game: Game) -> None:
        try:
            await asyncio.sleep(self.delay + self._pause)
            self._pause = 0.0
            assert self.table is not None
            await self.table.go_on.wait()
            await self.table.dealt.wait()
            if self.index not in game.to_act():
                return  # the game moved on without us (it ended, or was abandoned)
            decision = decision_for(game, self.index, self.table.objective)
            if getattr(self.strategy, "deliberate", False) and decision.needs_thought:
                action = await self.thinking.decide(self.strategy, decision)
            else:
                action = decision.take(self.strategy)
        except Exception:  # not CancelledError (a BaseException): the table closing
            log.exception("the computer could not decide in game %d", game.number)
            return
        finally:
            self._task = None
        self._sent = (game, action)
        self.table.submit(self.index, action)

    def rejected(self, message: str) -> None:
        log.error("computer action refused: %s", message)
        self._sent = None
        if self.table is not None and self.table.game is not None:
            self._arm(self.table.game)

    async def play_again(self) -> bool:
        return True

    def on_chat(self, line: tuple[float, str, str]) -> None:
        pass

    def notice(self, text: str) -> None:
        pass

    def finish(self) -> None:
        self.stop()

    def stop(self) -> None:
        """Cancel a pending move (the table is closing)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
