"""A live table whose players are called to it (a live tournament
round's): it waits for both until a set time; a player who sits down is
seated, one who never comes loses by forfeit when the wait is over, and
the wait for a called player is not counted in the grace they have later
for a dropped line."""

from __future__ import annotations

import asyncio
import time

from door.play.away_seat import AwaySeat
from door.play.decision_clock import ClockTerms
from door.play.departures import expect
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.records.ranked.match import MatchTerms
from engine.rules import Counting, Rules
from tests.unit.test_table import Scripted

ANN, BOB = Identity.of_account(1), Identity.of_account(2)
RULES = Rules(game_to=61, counting=Counting.AUTOMATIC)


def _called(forfeit_after_grace: bool = True, clocks: ClockTerms | None = None) -> Table:
    """A live table of Ann and Bob, neither seated yet."""
    return Table(RULES, [AwaySeat("Ann", ANN), AwaySeat("Bob", BOB)], TableSettings(
        lambda: 7, auto_deal=True, rejoin_timeout=30, terms=MatchTerms(1), rematch=False, decision_clock=clocks,
        forfeit_after_grace=forfeit_after_grace))


async def test_a_called_player_who_never_comes_loses_by_forfeit_when_the_wait_is_over() -> None:
    table = _called()
    expect(table, {0, 1}, time.time() + 0.3)
    run = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    ann = Scripted("Ann", ANN)
    table.rejoin(0, ann)  # Ann sits down; Bob never comes
    await asyncio.wait_for(run, 10)
    result = table.series.result
    assert table.ending.forfeit == 1 and result is not None and result.forfeit and result.winner == 0
    assert ann.finished


async def test_without_forfeit_after_grace_the_table_is_only_abandoned() -> None:
    """(A table unrated and without the setting: nobody wins by a wait.)"""
    table = _called(forfeit_after_grace=False)
    expect(table, {0, 1}, time.time() + 0.2)
    run = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.rejoin(0, Scripted("Ann", ANN))
    await asyncio.wait_for(run, 10)
    assert table.ending.forfeit is None and table.series.result is None


async def test_both_called_players_play_and_the_wait_is_not_their_grace() -> None:
    table = _called(clocks=ClockTerms(60, 10))
    expect(table, {0, 1}, time.time() + 30)
    run = asyncio.create_task(table.run())
    await asyncio.sleep(0.2)  # (both come a while after the table was set)
    table.rejoin(0, Scripted("Ann", ANN))
    table.rejoin(1, Scripted("Bob", BOB))
    await asyncio.wait_for(run, 30)
    assert table.away.grace_used == {0: 0.0, 1: 0.0}
    game = table.game
    assert game is not None and game.over and table.ending.forfeit is None


async def test_a_player_whose_line_drops_in_a_live_tournament_game_forfeits_after_the_grace() -> None:
    """(The live rules of a rated match, at a table that is not rated.)"""
    table = Table(RULES, [AwaySeat("Ann", ANN), AwaySeat("Bob", BOB)], TableSettings(
        lambda: 7, auto_deal=True, rejoin_timeout=0.3, terms=MatchTerms(3), rematch=False, forfeit_after_grace=True))
    expect(table, {0, 1}, time.time() + 30)
    run = asyncio.create_task(table.run())
    bob = Scripted("Bob", BOB)
    bob.acting = False  # (Bob thinks; then his line drops)
    table.rejoin(0, Scripted("Ann", ANN))
    table.rejoin(1, bob)
    await asyncio.sleep(0.1)
    table.leave(1, bob)
    await asyncio.wait_for(run, 10)
    result = table.series.result
    assert not table.rated and table.ending.forfeit == 1
    assert result is not None and result.forfeit and result.winner == 0  # the match of best of 3, by forfeit
