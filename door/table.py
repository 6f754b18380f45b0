"""A table: one match between two seats, driving the engine.

Seats submit actions whenever they like (:meth:`Table.submit`); the table
applies them one at a time in arrival order, tells both seats what happened,
and tells a seat when its action was refused.  Seat 0 is the caller, seat 1
the sysop or the computer (seed 004).  After each game both seats are asked
whether to play another; the loser deals first (seed 000).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Callable, Sequence

from engine.game import Action, Event, Game, IllegalAction, Match
from engine.rules import Rules

from .seats import Seat

__all__ = ["Table", "new_game_number"]

log = logging.getLogger("door.table")

_LEAVE = object()


def new_game_number() -> int:
    """A fresh game number, 1 .. 999,999, drawn from :mod:`secrets`."""
    return secrets.randbelow(999_999) + 1


class Table:
    """A match between ``seats`` (two) under ``rules``.

    ``numbers``: where game numbers come from (:func:`new_game_number`
    unless a test or a replay fixes them).
    """

    def __init__(self, rules: Rules, seats: Sequence[Seat], numbers: Callable[[], int] = new_game_number) -> None:
        if len(seats) != 2:
            raise ValueError(f"a table seats two, got {len(seats)}")
        self.rules = rules
        self.seats = list(seats)
        self.match = Match(rules)
        self.game: Game | None = None
        self.numbers = numbers
        self.left: int | None = None
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        for i, seat in enumerate(self.seats):
            seat.attach(self, i)

    def match_points(self) -> tuple[int, int]:
        """Games credited to each seat so far (skunks count double)."""
        return self.match.points

    def submit(self, seat: int, action: Action) -> None:
        """Queue ``action`` from ``seat``; it is applied in turn."""
        self._queue.put_nowait((seat, action))

    def leave(self, seat: int) -> None:
        """``seat`` has gone (hung up or quit): the match ends."""
        self._queue.put_nowait((seat, _LEAVE))

    async def run(self) -> None:
        """Play games until a seat declines another or leaves."""
        while True:
            game = self.match.new_game(self.numbers())
            self.game = game
            log.info("game %d starts: %s vs %s", game.number, self.seats[0].name, self.seats[1].name)
            if not await self._play(game):
                return
            assert game.result is not None
            log.info("game %d over: %s wins %s", game.number, self.seats[game.result.winner].name,
                     game.result.scores)
            wants = await self._ask_again()
            if not all(wants):
                return

    async def _ask_again(self) -> list[bool]:
        ask = [asyncio.ensure_future(s.play_again()) for s in self.seats]
        leave = asyncio.ensure_future(self._wait_leave())
        both: asyncio.Future[Any] = asyncio.gather(*ask)
        waiting: set[asyncio.Future[Any]] = {both, leave}
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if leave in done:
            for a in ask:
                a.cancel()
            return [False, False]
        leave.cancel()
        return [a.result() for a in ask]

    async def _wait_leave(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, tuple) and item[1] is _LEAVE:
                self.left = item[0]
                return

    async def _play(self, game: Game) -> bool:
        """Play ``game`` to its end; False when a seat left first."""
        self._broadcast(game, game.start())
        while not game.over:
            item = await self._queue.get()
            assert isinstance(item, tuple)
            seat, action = item
            if action is _LEAVE:
                self.left = seat
                log.info("game %d: %s left", game.number, self.seats[seat].name)
                return False
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                self.seats[seat].rejected(str(exc))
                continue
            self._broadcast(game, events)
        return True

    def _broadcast(self, game: Game, events: list[Event]) -> None:
        for seat in self.seats:
            seat.notify(game, events)
