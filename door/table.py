"""A table: one match between two seats, driving the engine.

Seats submit actions whenever they like (:meth:`Table.submit`); the table
applies them one at a time in arrival order, tells both seats what happened,
and tells a seat when its action was refused.  Seat 0 is the caller, seat 1
the sysop or the computer (seed 004).  After each game both seats are asked
whether to play another; the loser deals first (seed 000).  With a
:class:`~door.journal.Journal`, every action is kept in the store before
its effect is shown, and every finished game is recorded.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Callable, Sequence

from engine.game import Action, Event, Game, IllegalAction, Match
from engine.notation import replay_with_events
from engine.rules import Rules

from .journal import Journal
from .recorder import GameRecorder
from .seats import Seat
from .store import SavedGame

__all__ = ["Table", "new_game_number"]

log = logging.getLogger("door.table")

_LEAVE = object()


def new_game_number() -> int:
    """A fresh game number, 1 .. 999,999, drawn from :mod:`secrets`."""
    return secrets.randbelow(999_999) + 1


class Table:
    """A match between ``seats`` (two) under ``rules``.

    ``numbers``: where game numbers come from (:func:`new_game_number`
    unless a test or a replay fixes them); ``journal``: keeps the games of a
    registered caller (``None`` for guests, whose games leave no records).
    """

    def __init__(self, rules: Rules, seats: Sequence[Seat], numbers: Callable[[], int] = new_game_number,
                 journal: Journal | None = None) -> None:
        if len(seats) != 2:
            raise ValueError(f"a table seats two, got {len(seats)}")
        self.rules = rules
        self.seats = list(seats)
        self.match = Match(rules)
        self.game: Game | None = None
        self.recorder = GameRecorder()
        self.numbers = numbers
        self.journal = journal
        self.left: int | None = None
        self.points_offset = (0, 0)
        self.go_on = asyncio.Event()
        """Set while play may go on; a seat clears it to hold the computer
        until its player has read a score (the "prompt" pace)."""
        self.go_on.set()
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        for i, seat in enumerate(self.seats):
            seat.attach(self, i)

    def match_points(self) -> tuple[int, int]:
        """Games credited to each seat so far (skunks count double)."""
        p = self.match.points
        return (p[0] + self.points_offset[0], p[1] + self.points_offset[1])

    def submit(self, seat: int, action: Action) -> None:
        """Queue ``action`` from ``seat``; it is applied in turn."""
        self._queue.put_nowait((seat, action))

    def leave(self, seat: int) -> None:
        """``seat`` has gone (hung up or quit): the match ends."""
        self._queue.put_nowait((seat, _LEAVE))

    async def run(self, resume: SavedGame | None = None) -> None:
        """Play games until a seat declines another or leaves; the first is
        ``resume`` (a saved game, rebuilt exactly) when given."""
        while True:
            if resume is not None:
                game, events = replay_with_events(resume.rules, resume.number, resume.actions, resume.first_dealer)
                self.match.games.append(game)
                self.points_offset = resume.match_points
                if self.journal is not None:
                    self.journal.resume(resume)
                resume = None
                log.info("game %d resumed after %d actions", game.number, len(game.actions))
            else:
                game = self.match.new_game(self.numbers())
                events = game.start()
                if self.journal is not None:
                    await self.journal.start(game, self.match_points())
                log.info("game %d starts: %s vs %s", game.number, self.seats[0].name, self.seats[1].name)
            self.game = game
            self.recorder = GameRecorder()
            if not await self._play(game, events):
                return
            assert game.result is not None
            if self.journal is not None:
                await self.journal.finish(game, self.recorder)
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

    async def _play(self, game: Game, events: list[Event]) -> bool:
        """Play ``game`` (whose first ``events`` are given) to its end;
        False when a seat left first."""
        self._broadcast(game, events)
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
            if self.journal is not None:
                await self.journal.action(game)  # kept before anyone sees it
            self._broadcast(game, events)
        return True

    def _broadcast(self, game: Game, events: list[Event]) -> None:
        self.recorder.feed(events)
        for seat in self.seats:
            seat.notify(game, events)
