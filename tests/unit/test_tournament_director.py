"""The tournament director (door/records/tournaments/director.py) on two
"nodes" (two store objects on one PostgreSQL database), racing: only the
lease's holder acts, each round is paired exactly once, a second call
changes nothing, and when the holder dies another node takes over once
the lease expires; a node's loop pairs a tournament whose entries closed
and announces it on the board."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from door.records.ranked.tournament import Format, Kind
from door.records.store import DATABASE_NAME, Store
from door.records.tournaments.director import LEASE, LEASE_SECONDS, Director
from door.records.tournaments.settings import HOUR, Settings
from door.sysop.tournament_loop import run_director
from tests.support.fake_clock import FakeClock
from tests.support.postgres import PostgresServer

START = 1_800_000_000.0


async def test_two_nodes_racing_pair_each_round_exactly_once(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    clock = FakeClock(START)
    nodes = [await Store.open(url, clock) for _ in range(2)]
    try:
        for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
            await nodes[0].accounts.create(name, "unused-hash")
        t = nodes[0].tournaments
        await t.create("night", "Night Swiss", Settings(Format(Kind.SWISS, rounds=3), round_hours=1,
                                                        closes=START + 60))
        for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
            await t.enter("night", name)
        directors = [Director(n.tournaments, n.leases, f"node-{i}") for i, n in enumerate(nodes)]
        assert await asyncio.gather(*(d.advance() for d in directors)) in ([[], None], [None, []])  # not closed yet
        for round_ in (1, 2, 3):
            clock.now += HOUR  # entries closed; then each round's deadline passed (and the lease expired)
            got = await asyncio.gather(*(d.advance() for d in directors))
            assert sum(g is None for g in got) == 1, got  # only the holder acted
            seats = next(g for g in got if g is not None)
            acting = directors[[g is not None for g in got].index(True)]
            assert await nodes[0].leases.holder(LEASE) == acting.holder
            assert len(seats) == 2 and all(s.slot.startswith(f"{round_}-") for s in seats)
            assert await acting.advance() == []  # a second call changes nothing
            view = await nodes[1].tournaments.view("night")
            assert sorted(p.slot for p in view.pairings if p.wave == round_) == [f"{round_}-{i}" for i in (1, 2, 3)]
            assert len(view.pairings) == 3 * round_
            for s in seats:
                await nodes[round_ % 2].tournaments.record("night", s.players[0], s.players[1], (121, 100))
        # the holder dies: nothing moves until its lease expires, then the other node takes over
        other = directors[1 - directors.index(acting)]
        clock.now += LEASE_SECONDS / 2
        assert await other.advance() is None
        clock.now += LEASE_SECONDS
        assert await other.advance() == []
        view = await nodes[0].tournaments.view("night")
        assert view.tournament.state.value == "finished"
        assert len(await nodes[0].tournaments.finishes(2027)) == 5
    finally:
        for n in nodes:
            await n.close()


async def test_steps_of_one_tournament_at_once_make_one_round(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    clock = FakeClock(START)
    nodes = [await Store.open(url, clock) for _ in range(3)]
    try:
        for name in ("Ann", "Bob", "Cy", "Dee"):
            await nodes[0].accounts.create(name, "unused-hash")
            if name == "Ann":
                await nodes[0].tournaments.create("duel", "Duel", Settings(Format(Kind.SINGLE, games=1)))
            await nodes[0].tournaments.enter("duel", name)
        await nodes[0].tournaments.start("duel")
        # without the lease, a step racing another may be refused by the pairings' unique key, never doubled
        got = await asyncio.gather(*(n.tournaments.step("duel", clock.now) for n in nodes), return_exceptions=True)
        made = [g for g in got if isinstance(g, list) and g]
        assert len(made) == 1
        assert len((await nodes[0].tournaments.view("duel")).pairings) == 2
    finally:
        for n in nodes:
            await n.close()


async def test_a_nodes_loop_pairs_a_tournament_whose_entries_closed(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME)
    loop = None
    try:
        for name in ("Ann", "Bob"):
            await store.accounts.create(name, "unused-hash")
        await store.tournaments.create("now", "Now", Settings(Format(Kind.SINGLE, games=1),
                                                              closes=store.clock() + 0.2))
        for name in ("Ann", "Bob"):
            await store.tournaments.enter("now", name)
        with caplog.at_level(logging.INFO, "door.sysop.tournament_loop"):
            loop = asyncio.create_task(run_director(store, "node-a", every=0.05, folder=tmp_path / "board"))
            for _ in range(100):
                await asyncio.sleep(0.05)
                if (await store.tournaments.view("now")).pairings:
                    break
        assert [p.players for p in (await store.tournaments.view("now")).pairings] == [("Ann", "Bob")]
        assert await store.leases.holder(LEASE) == "node-a"
        assert "tournament now: W1-1 Ann v Bob paired, best of 1" in caplog.text
        board = [tmp_path / "board" / name for name in ("now-pairings.txt", "now-bracket.txt")]
        for _ in range(100):  # the pairing announced on the board (the files are written one after another)
            if all(path.exists() for path in board):
                break
            await asyncio.sleep(0.05)
        announced = (tmp_path / "board" / "now-pairings.txt").read_text()
        assert "Now: round 1" in announced and "W1-1   Ann v Bob: to play by " in announced
        assert "Final: Ann against Bob, to play." in (tmp_path / "board" / "now-bracket.txt").read_text()
    finally:
        if loop is not None:
            loop.cancel()
            await asyncio.gather(loop, return_exceptions=True)
        await store.close()
