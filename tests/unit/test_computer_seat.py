"""The computer at a real table: it moves once per turn, whatever order
the table applies the two players' moves in."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Sequence

import pytest

from door.play.computer_seat import ComputerSeat
from door.play.table import Table
from door.play.table_settings import TableSettings
from engine.actions import Action, Discard, Play
from engine.cards import Card
from engine.events import Event
from engine.game import Game, Phase
from engine.hard import HardPlayer
from engine.rules import Rules
from engine.strategy import Situation

THINKS = 0.2
"""Seconds the caller takes over a card: four times the computer's delay."""


class Caller:
    """A seat that plays its first playable card whenever it is its turn,
    :data:`THINKS` seconds later; its discard is sent by the table
    (``discard``)."""

    name = "Caller"
    computer = False
    identity = None
    shuffle_seed = "1" * 64

    def __init__(self) -> None:
        self.table: Table | None = None
        self.index = 0

    def attach(self, table: Table, index: int) -> None:
        self.table, self.index = table, index

    def discard(self, game: Game) -> None:
        assert self.table is not None
        hand = game.hands[self.index]
        self.table.submit(self.index, Discard(self.index, (hand[0], hand[1])))

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        if game.phase is Phase.PLAY and self.index in game.to_act():
            # a person takes longer than the computer's delay to press a key
            asyncio.get_running_loop().call_later(THINKS, self.play, game)

    def play(self, game: Game) -> None:
        if self.table is not None and game.phase is Phase.PLAY and self.index in game.to_act():
            self.table.submit(self.index, Play(self.index, game.playable(self.index)[0]))

    def rejected(self, message: str) -> None:
        raise AssertionError(message)

    async def play_again(self) -> bool:
        return False

    def on_chat(self, line: tuple[float, str, str]) -> None:
        pass

    def notice(self, text: str) -> None:
        pass

    def finish(self) -> None:
        pass


class CallerFirst(Table):
    """A real table where the caller's discard arrives just before the
    computer's: it is queued ahead of it, so the table applies it after the
    computer has decided but before the computer's own discard (the order
    in which a caller's keys and a computer thinking in a worker thread
    meet in life)."""

    def submit(self, seat: int, action: Action) -> None:
        if isinstance(action, Discard) and seat == 1 and self.game is not None:
            caller = self.seats[0]
            assert isinstance(caller, Caller)
            caller.discard(self.game)
        super().submit(seat, action)


async def test_the_other_players_move_in_between_starts_no_second_decision(
        caplog: pytest.LogCaptureFixture) -> None:
    """The caller's discard applied between the computer's decision and its
    own discard used to start a second decision for the discard phase; by
    the time it ran the game was in the play, it raised, and the computer
    never moved again (the game hung at "Computer's turn...")."""
    caller = Caller()
    computer = ComputerSeat(strategy=HardPlayer(), delay=0.05)
    table = CallerFirst(Rules(), [caller, computer], TableSettings(numbers=lambda: 4242, auto_deal=True))
    running = asyncio.create_task(table.run())
    try:
        async with asyncio.timeout(5):
            while table.game is None or len(table.game.played[1]) < 2:
                await asyncio.sleep(0.01)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors


class Ponderer(HardPlayer):
    """Hard's moves, deliberated (as the expert's are) for 30 ms of wall
    time each; it counts how many of its kind think at once."""

    deliberate = True
    lock = threading.Lock()
    thinking = 0
    most = 0

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        with Ponderer.lock:
            Ponderer.thinking += 1
            Ponderer.most = max(Ponderer.most, Ponderer.thinking)
        time.sleep(0.03)
        with Ponderer.lock:
            Ponderer.thinking -= 1
        return super().choose_discard(hand, is_dealer, situation)


async def test_the_computers_of_all_tables_think_on_one_thread() -> None:
    """Each thread thinking in Python takes the interpreter lock from the
    event loop for up to a switch interval whenever the loop gives it up (at
    every socket write): with asyncio's default pool, six computers thought
    at once and a key's p99 at 500 callers went from 81 ms to 220 ms."""
    Ponderer.thinking = Ponderer.most = 0
    tables = [Table(Rules(), [Caller(), ComputerSeat(strategy=Ponderer(), delay=0.0)], TableSettings(auto_deal=True))
              for _ in range(4)]
    running = [asyncio.create_task(t.run()) for t in tables]
    try:
        async with asyncio.timeout(5):
            while not all(t.game is not None and len(t.game.hands[1]) == 4 for t in tables):
                await asyncio.sleep(0.01)
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
    assert Ponderer.most == 1


async def test_a_thinking_computer_gives_the_interpreter_back_within_half_a_millisecond() -> None:
    """With Python's switch interval (5 ms) the event loop waited up to 5 ms
    for the interpreter lock after every socket call while a computer
    thought (bench.handoff: a round trip's p90 5.2 ms); the seat lowers it
    to :data:`SWITCH_INTERVAL` when a computer first thinks on its thread."""
    from door.play.thinking import SWITCH_INTERVAL
    saved = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        table = Table(Rules(), [Caller(), ComputerSeat(strategy=Ponderer(), delay=0.0)], TableSettings(auto_deal=True))
        running = asyncio.create_task(table.run())
        try:
            async with asyncio.timeout(5):
                while not (table.game is not None and len(table.game.hands[1]) == 4):
                    await asyncio.sleep(0.01)
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
        assert sys.getswitchinterval() <= SWITCH_INTERVAL < 0.001
    finally:
        sys.setswitchinterval(saved)
