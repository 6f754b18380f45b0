"""One node at a time runs a live tournament game's table: a player who
opens the game at another node while its table runs is told where it is
played (that node builds no second table, and does not check them in);
once the node that ran it is gone and its lease has lapsed, the game is
taken up where a player opens it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from door.config import PagingConfig
from door.games.house import GameHouse
from door.games.live_lease import HOLD, PlayedElsewhere
from door.games.tournament import open_tournament_game, seat_pairings
from door.records.identity import Identity
from door.records.ranked.tournament import Format, Kind
from door.records.store import DATABASE_NAME, Store
from door.records.tournaments.settings import Settings
from door.sysop.lobby import Lobby
from engine.rules import Counting, Rules
from tests.support.fake_clock import FakeClock
from tests.unit.test_table import Scripted
from tests.unit.test_tournaments import START, callers


def _stop(name: str) -> None:
    """Cancel this process's tasks running coroutine ``name`` (a node's death, part by part)."""
    for task in asyncio.all_tasks():
        if name in getattr(task.get_coro(), "__qualname__", ""):
            task.cancel()


async def test_a_live_game_opened_at_another_node_says_where_it_is_played_until_its_node_is_gone(
        tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800})
        ann = await store.accounts.find("Ann")
        assert ann is not None
        t = store.tournaments
        await t.create("final", "The final", Settings(Format(Kind.SWISS, rounds=1), round_hours=1, show_minutes=15,
                                                       rules=Rules(game_to=61, counting=Counting.AUTOMATIC)))
        await t.enter("final", "Ann")
        await t.enter("final", "Bob")
        await t.start("final")
        paging = PagingConfig(ranked_grace=60)
        first = GameHouse(store, Lobby(paging), paging, node=lambda: 1)
        other = GameHouse(store, Lobby(paging), paging, node=lambda: 2)
        [table] = await seat_pairings(first, await t.step("final", clock.now))
        assert table.journal is not None and table.journal.saved_id is not None
        saved_id = table.journal.saved_id
        saved, link = await store.saved.load_game(saved_id), await t.links.of_game(saved_id)
        assert saved is not None and link is not None and link.live

        with pytest.raises(PlayedElsewhere) as elsewhere:
            await open_tournament_game(other, saved, link, ann.id, Scripted("Ann", Identity.of_account(ann.id)))
        assert elsewhere.value.node == 1
        assert not other.tables.tables  # (no second table)
        assert (await t.view("final")).pairings[0].shown == 0  # (nor checked in there)

        _stop("_keep")  # the first node dies: its lease is no longer renewed, its table stops
        await asyncio.sleep(0)
        _stop("run_table")
        await asyncio.sleep(0.05)
        assert table.ended.is_set()
        with pytest.raises(PlayedElsewhere):  # (until the lease lapses)
            await open_tournament_game(other, saved, link, ann.id, Scripted("Ann", Identity.of_account(ann.id)))
        clock.now += HOLD + 1
        again = await open_tournament_game(other, saved, link, ann.id, Scripted("Ann", Identity.of_account(ann.id)))
        assert again is not None and again is not table and again in other.tables.tables
        assert await store.leases.holder(f"live table {saved_id}") == "node 2"
        _stop("run_table")
        await asyncio.sleep(0.05)
    finally:
        await store.close()
