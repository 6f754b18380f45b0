"""A live round's time to come, in the store: a player not at their table
(checked in) ``show_minutes`` after the round is paired loses the game by
forfeit; both absent, both lose it (in a knock-out the better seed goes
on); a deadline the sysop extends moves the time to come with it; and a
game the game service ends by a forfeit (a player who stayed away from a
live game past the grace) is recorded as the pairing's forfeit."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.records.ranked.tournament import Format, Kind
from door.records.store import DATABASE_NAME, Store
from door.records.tournaments.settings import HOUR, Play, Settings, TournamentError
from door.records.tournaments.values import BOTH_LOST
from tests.support.fake_clock import FakeClock
from tests.unit.test_tournaments import START, callers

MINUTE = 60.0


async def test_a_player_not_at_the_table_in_time_loses_and_both_absent_both_lose(where: Path | str) -> None:
    clock = FakeClock(START)
    store = await Store.open(where, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800, "Cy": 1700, "Dee": 1600, "Eve": 1500, "Fay": 1400})
        t = store.tournaments
        await t.create("club", "Club night", Settings(Format(Kind.SWISS, rounds=2), round_hours=2, show_minutes=20))
        for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"):
            await t.enter("club", name)
        await t.start("club")
        seats = await t.step("club", clock.now)  # Ann v Dee, Bob v Eve, Cy v Fay
        assert [s.players for s in seats] == [("Ann", "Dee"), ("Bob", "Eve"), ("Cy", "Fay")]
        assert all(s.show_by == START + 20 * MINUTE and s.deadline == START + 2 * HOUR for s in seats)
        await t.check_in("club", "Ann")  # Dee never comes; nobody comes to Cy v Fay
        await t.check_in("club", "Bob")
        await t.check_in("club", "Eve")  # Bob and Eve both come: their game goes on to the round's deadline
        assert await t.extend("club", 1, "Cy") == 1  # the sysop gives Cy v Fay an hour more: to come by 1:20
        clock.now += 20 * MINUTE - 1
        assert await t.step("club", clock.now) == []
        clock.now += 1
        await t.step("club", clock.now)
        view = await t.view("club")
        by_slot = {p.slot: p for p in view.pairings}
        assert (by_slot["1-1"].winner, by_slot["1-1"].how, by_slot["1-1"].scores) == (0, "forfeit", (0, 0))
        assert by_slot["1-2"].open and by_slot["1-3"].open
        clock.now = START + 80 * MINUTE + 1
        with pytest.raises(TournamentError, match="the time to come to your game 1-3 in club has passed"):
            await t.check_in("club", "Cy")  # too late to sit down
        await t.check_in("club", "Bob")  # (one who came sits down again after a dropped line)
        await t.step("club", clock.now)
        view = await t.view("club")
        assert next(p for p in view.pairings if p.slot == "1-3").how == "both late"
        assert next(p for p in view.pairings if p.slot == "1-3").winner == BOTH_LOST
        # the game service: Eve stayed away from the live game past the grace and forfeited it
        await t.record("club", "Bob", "Eve", None)
        with pytest.raises(TournamentError, match="no open game together"):
            await t.record("club", "Bob", "Eve", None)  # (decided once)
        view = await t.view("club")
        forfeit = next(p for p in view.pairings if p.slot == "1-2")
        assert (forfeit.winner, forfeit.how, forfeit.scores) == (0, "forfeit", (0, 0))
        points = {line.name: line.points for line in view.standings}
        assert (points["Ann"], points["Bob"], points["Dee"], points["Eve"], points["Cy"], points["Fay"]) \
            == (2, 2, 0, 0, 0, 0)
        assert {s.slot for s in await t.step("club", clock.now)} == {"2-1", "2-2", "2-3"}  # round 2 paired
    finally:
        await store.close()


async def test_a_knock_out_match_nobody_comes_to_goes_to_the_better_seed(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1500, "Bob": 1900})
        t = store.tournaments
        await t.create("cup", "Cup", Settings(Format(Kind.SINGLE, games=3), round_hours=1, show_minutes=10))
        await t.enter("cup", "Ann")
        await t.enter("cup", "Bob")
        await t.start("cup")
        assert [s.show_by for s in await t.step("cup", clock.now)] == [START + 10 * MINUTE]
        clock.now += 10 * MINUTE
        await t.step("cup", clock.now)
        final = (await t.view("cup")).pairings[0]
        assert final.players[final.winner or 0] == "Bob" and final.scores in ((2, 0), (0, 2))
    finally:
        await store.close()


def test_the_time_to_come_is_a_checked_setting_kept_with_the_rest() -> None:
    s = Settings(Format(Kind.SWISS, rounds=3), round_hours=1, show_minutes=25)
    assert Settings.from_json(s.to_json()) == s and s.show_seconds == 25 * MINUTE
    assert "within 25 minutes" in s.describe()
    assert Settings(Format(Kind.SWISS, rounds=3), play=Play.CORRESPONDENCE).show_seconds is None
    for bad in (0, 0.5, 241, "15", True):
        with pytest.raises(TournamentError, match="to come to a live round's table"):
            Settings(Format(Kind.SWISS, rounds=3), show_minutes=bad)  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="at most the round"):
        Settings(Format(Kind.SWISS, rounds=3), round_hours=0.25, show_minutes=20)
    kept = s.to_json().replace(', "show_minutes": 25', "")  # (settings kept before the setting was: 15 minutes)
    assert "show_minutes" not in kept
    assert Settings.from_json(kept).show_minutes == 15
