"""Leases (door/records/leases.py) on SQLite and PostgreSQL: one holder
at a time, renewed by its holder, taken by anybody once expired, with two
stores racing for one lease, timed by the store's fake clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from door.records.store import DATABASE_NAME, Store
from tests.support.fake_clock import FakeClock


async def test_the_holder_renews_others_wait_until_it_expires(where: Path | str) -> None:
    clock = FakeClock(1_800_000_000.0)
    store = await Store.open(where, clock)
    try:
        leases = store.leases
        assert await leases.holder("director") is None
        assert await leases.take("director", "node-1", 60)
        assert not await leases.take("director", "node-2", 60)  # held, not expired
        assert await leases.holder("director") == "node-1"
        clock.now += 50
        assert await leases.take("director", "node-1", 60)  # renewed: now expires at +110
        clock.now += 50
        assert not await leases.take("director", "node-2", 60)  # would have expired at +60 without the renewal
        clock.now += 10
        assert await leases.holder("director") is None  # expired at +110
        assert await leases.take("director", "node-2", 60)
        assert await leases.holder("director") == "node-2"
        assert not await leases.release("director", "node-1")  # not its own
        assert await leases.release("director", "node-2")
        assert await leases.take("director", "node-1", 60)  # free again at once
        assert await leases.take("sweeper", "node-2", 60)  # another lease is another row
    finally:
        await store.close()


async def test_bad_names_and_lengths_are_errors_where_they_enter(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME)
    try:
        with pytest.raises(ValueError, match="lease's name"):
            await store.leases.take("", "node-1", 60)
        with pytest.raises(ValueError, match="lease's holder"):
            await store.leases.take("director", "x" * 101, 60)
        with pytest.raises(ValueError, match="at most a week"):
            await store.leases.take("director", "node-1", 0)
    finally:
        await store.close()


async def test_two_stores_racing_for_one_lease_never_both_hold_it(where: Path | str) -> None:
    clock = FakeClock(1_800_000_000.0)
    stores = [await Store.open(where, clock) for _ in range(2)]
    try:
        for turn in range(15):  # each turn: the lease just expired, and both try at once
            clock.now += 100
            got = await asyncio.gather(*(s.leases.take("director", f"node-{i}", 30) for i, s in enumerate(stores)))
            assert sorted(got) == [False, True], (turn, got)
            winner = got.index(True)
            assert await stores[1 - winner].leases.holder("director") == f"node-{winner}"
    finally:
        for s in stores:
            await s.close()
