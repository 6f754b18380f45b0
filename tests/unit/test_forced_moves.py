"""Forced moves: a table that makes them (a correspondence game's) plays
a person's sole playable card at once, kept in the store like any move,
so a player is never asked a decision with one answer; the computer
makes its own."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from door.play.table import Table
from door.play.table_settings import TableSettings
from engine.actions import ReplayHand
from engine.events import Event
from engine.forced import forced_action
from engine.game import Game, Phase
from engine.rules import Rules
from tests.unit.test_table import Scripted


class Counting(Scripted):
    """A greedy seat that notes each time it is asked to play with only one card it may play."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.asked_forced = 0
        self.asked = 0

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        if game.phase is Phase.PLAY and self.index in game.to_act() and not game.over:
            self.asked += 1
            self.asked_forced += forced_action(game, self.index) is not None
        super().notify(game, events)


@pytest.mark.parametrize("forced", [False, True])
async def test_a_player_is_never_asked_a_decision_with_one_answer_where_the_table_makes_them(forced: bool) -> None:
    seats = [Counting("Ann"), Counting("Bob")]
    table = Table(Rules(game_to=121), seats, TableSettings(numbers=lambda: 11, auto_deal=True, forced_moves=forced))
    await asyncio.wait_for(table.run(), 30)
    assert table.game is not None and table.game.over
    asked_forced = sum(s.asked_forced for s in seats)
    if forced:
        assert asked_forced == 0 and sum(s.asked for s in seats) > 0
    else:
        assert asked_forced > 0  # (the same game, asked: what the table saves the players)


def test_only_a_sole_playable_card_is_forced() -> None:
    game = Game(Rules(game_to=121), 11)
    game.start()
    seen_play = False
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        expected = legal[0] if game.phase is Phase.PLAY and len(legal) == 1 else None
        assert forced_action(game, seat) == expected
        seen_play |= game.phase is Phase.PLAY
        game.apply(next(a for a in reversed(legal) if not isinstance(a, ReplayHand)))  # (never the replay)
    assert seen_play
