"""The correspondence sweeper (door/records/correspondence/sweeper.py): its
pure verdict on a game (lost on time, pushed by a vacation, a game never
started dropped, an idle one aborted), and its steps on a real store with
a fake clock: two nodes racing, only the lease's holder sweeps; the loss on
time is counted and unanswered offers lapse."""

from __future__ import annotations

import asyncio
import calendar
from collections.abc import Sequence
from pathlib import Path

import pytest

from door.records.correspondence.deadlines import DAY
from door.records.correspondence.offers import OfferLimits, OfferTerms
from door.records.correspondence.sweeper import (
    LEASE,
    LEASE_SECONDS,
    Candidate,
    SweepRules,
    Verdict,
    run_sweeper,
    sweep,
    verdict,
)
from door.records.store import DATABASE_NAME, Store
from tests.support.fake_clock import FakeClock

START = float(calendar.timegm((2026, 12, 1, 12, 0, 0)))
"""Tuesday 2026-12-01 12:00 UTC."""

RULES = SweepRules(weekends=True, abandon_days=30)


def _game(deadline: float | None = START + 3 * DAY, to_move: int | None = 1, started: bool = True,
          saved_id: int = 1, accounts: tuple[int | None, ...] = (10, 11)) -> Candidate:
    return Candidate(saved_id, to_move, deadline, START, accounts, 3, started)


def test_the_player_to_move_loses_once_the_deadline_passes() -> None:
    assert verdict(_game(), START + 3 * DAY - 1, RULES) is None
    assert verdict(_game(), START + 3 * DAY, RULES) == Verdict(1, "time")


def test_a_vacation_begun_before_the_deadline_pushes_it_and_one_after_does_not() -> None:
    away = [(START + DAY, START + 3 * DAY)]  # two days away from the second day
    assert verdict(_game(), START + 5 * DAY - 1, RULES, away) is None
    assert verdict(_game(), START + 5 * DAY, RULES, away) == Verdict(1, "time")
    late = [(START + 4 * DAY, START + 10 * DAY)]  # went away after running out of time
    assert verdict(_game(), START + 4 * DAY + 1, RULES, late) == Verdict(1, "time")


def test_weekends_off_push_the_deadline_past_the_weekend_it_covers() -> None:
    friday = START + 3 * DAY
    game = Candidate(1, 0, friday + DAY, friday, (10, 11), 1)  # kept as weekends counted: Saturday noon
    assert verdict(game, friday + DAY, SweepRules(weekends=False), [(friday, friday + 0.5)]) is None  # Monday now
    assert verdict(game, friday + 3 * DAY + 1, SweepRules(weekends=False), [(friday, friday + 0.5)]) == Verdict(0, "time")


def test_a_game_never_started_is_dropped_and_an_idle_one_aborted() -> None:
    assert verdict(_game(started=False), START + 3 * DAY, RULES) == Verdict(None, "dropped")
    idle = _game(deadline=None, to_move=None)  # (waiting on nobody, as between deals: no deadline)
    assert verdict(idle, START + 30 * DAY - 1, RULES) is None
    assert verdict(idle, START + 30 * DAY, RULES) == Verdict(None, "abandoned")
    away = [(START, START + 40 * DAY)]
    assert verdict(_game(), START + 30 * DAY, RULES, away) == Verdict(None, "abandoned")  # away, but idle too long


class Games:
    """The game service's side: the games under way and the ones ended."""

    def __init__(self, games: Sequence[Candidate]) -> None:
        self.games = {g.saved_id: g for g in games}
        self.ended: list[tuple[int, int | None, str]] = []

    async def candidates(self, now: float) -> Sequence[Candidate]:
        return list(self.games.values())

    async def end_game(self, saved_id: int, loser: int | None, how: str) -> bool:
        if self.games.pop(saved_id, None) is None:
            return False
        self.ended.append((saved_id, loser, how))
        return True


async def test_two_nodes_racing_only_the_lease_holder_sweeps(where: Path | str) -> None:
    clock = FakeClock(START)
    stores = [await Store.open(where, clock) for _ in range(2)]
    try:
        ann, bob, cy = [(await stores[0].accounts.create(n, "unused-hash")).id for n in ("Ann", "Bob", "Cy")]
        offer = await stores[0].correspondence.offers.make(ann, "192.0.2.1", cy, OfferTerms({}, 3),
                                                           OfferLimits(offer_days=7))
        games = Games([Candidate(1, 1, START + 3 * DAY, START, (ann, bob), 3),
                       Candidate(2, 0, START + 3 * DAY, START, (ann, cy), 3, started=False),
                       Candidate(3, 0, START + 9 * DAY, START + 6 * DAY, (cy, bob), 3)])
        clock.now = START + 9 * DAY - 60
        got = await asyncio.gather(*(sweep(s, f"node-{i}", clock.now, games.end_game, games.candidates, RULES)
                                     for i, s in enumerate(stores)))
        assert sorted(g is None for g in got) == [False, True]
        swept = next(g for g in got if g is not None)
        assert sorted(games.ended) == [(1, 1, "time"), (2, None, "dropped")] and swept.lapsed == 1
        assert await stores[0].correspondence.offers.get(offer.id) is None
        assert await stores[0].correspondence.results.lost_on_time_of([ann, bob, cy]) == {ann: 0, bob: 1, cy: 0}
        holder = got.index(swept)
        clock.now += 60  # game 3's deadline passed: the lease's holder renews it and sweeps it, the other waits
        assert await sweep(stores[1 - holder], "node-x", clock.now, games.end_game, games.candidates, RULES) is None
        assert await sweep(stores[holder], f"node-{holder}", clock.now, games.end_game, games.candidates, RULES)
        assert games.ended[-1] == (3, 0, "time") and await stores[0].correspondence.results.lost_on_time(cy) == 1
        clock.now += LEASE_SECONDS  # the holder died: once its lease expires another node sweeps
        assert await sweep(stores[1 - holder], "node-x", clock.now, games.end_game, games.candidates, RULES)
        assert await stores[0].leases.holder(LEASE) == "node-x"
    finally:
        for s in stores:
            await s.close()


async def test_a_vacation_in_the_store_stops_the_clock_and_a_game_moved_on_is_left(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann, bob = [(await store.accounts.create(n, "unused-hash")).id for n in ("Ann", "Bob")]
        await store.correspondence.vacations.take(bob, START + DAY, 5, 30)
        games = Games([Candidate(1, 1, START + 3 * DAY, START, (ann, bob), 3)])
        clock.now = START + 7 * DAY
        assert (await sweep(store, "node-0", clock.now, games.end_game, games.candidates, RULES)) is not None
        assert games.ended == []  # due at START + 8 days
        clock.now = START + 8 * DAY

        async def moved_on(saved_id: int, loser: int | None, how: str) -> bool:
            return False  # a move was made meanwhile on another node
        swept = await sweep(store, "node-0", clock.now, moved_on, games.candidates, RULES)
        assert swept is not None and swept.ended == [] and await store.correspondence.results.lost_on_time(bob) == 0
    finally:
        await store.close()


async def test_the_loop_sweeps_until_cancelled(tmp_path: Path) -> None:
    clock = FakeClock(START + 4 * DAY)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        games = Games([_game(accounts=(None, None))])
        task = asyncio.create_task(run_sweeper(store, "node-0", games.end_game, games.candidates, RULES, every=0.01))
        for _ in range(200):
            if games.ended:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert games.ended == [(1, 1, "time")]
    finally:
        await store.close()
