"""A live tournament game whose node dies is kept in the store like any
live game and taken up again by the game service of another node: the
player who opens it there sits down at once, the other is awaited for the
ranked grace and sits down when they open it, and the game's result goes
to the pairing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from door.config import PagingConfig, RankedConfig
from door.games.house import GameHouse
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


async def test_a_live_tournament_game_of_a_dead_node_goes_on_at_another_and_its_result_is_the_pairings(
        tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800})
        ann, bob = await store.accounts.find("Ann"), await store.accounts.find("Bob")
        assert ann is not None and bob is not None
        t = store.tournaments
        await t.create("final", "The final", Settings(Format(Kind.SWISS, rounds=1), round_hours=1, show_minutes=15,
                                                       rules=Rules(game_to=61, counting=Counting.AUTOMATIC)))
        await t.enter("final", "Ann")
        await t.enter("final", "Bob")
        await t.start("final")
        paging = PagingConfig(ranked_grace=60)
        first = GameHouse(store, Lobby(paging), paging)
        [table] = await seat_pairings(first, await t.step("final", clock.now))
        assert table.journal is not None and table.journal.saved_id is not None and table.absent == {0, 1}
        saved_id = table.journal.saved_id
        waiting = Scripted("Bob", Identity.of_account(bob.id))
        waiting.acting = False  # (Bob sits and thinks: the game waits on him)
        saved = await store.saved.load_game(saved_id)
        link = await t.links.of_game(saved_id)
        assert saved is not None and link is not None and link.live
        assert await open_tournament_game(first, saved, link, ann.id, Scripted("Ann", Identity.of_account(ann.id))) \
            is table
        assert await open_tournament_game(first, saved, link, bob.id, waiting) is table
        assert (await t.view("final")).pairings[0].shown == 3  # both came: checked in
        await asyncio.sleep(0.1)
        for task in asyncio.all_tasks():  # the first node dies: its tables stop where they stand
            if "run_table" in getattr(task.get_coro(), "__qualname__", ""):
                task.cancel()
        await asyncio.sleep(0.05)
        assert table.ended.is_set() and not table.series.games()[-1].over

        other = GameHouse(store, Lobby(paging), paging)
        saved = await store.saved.load_game(saved_id)
        assert saved is not None and saved.actions  # kept as it stood
        again = await open_tournament_game(other, saved, link, ann.id, Scripted("Ann", Identity.of_account(ann.id)))
        assert again is not table and not again.settings.by_turns and again.absent == {1}
        assert again.away.until == clock.now + 60  # Bob is awaited for the ranked grace
        assert await open_tournament_game(other, saved, link, bob.id, Scripted("Bob", Identity.of_account(bob.id))) \
            is again
        await asyncio.wait_for(again.ended.wait(), 30)
        pairing = (await t.view("final")).pairings[0]
        assert pairing.how == "played" and max(pairing.scores) == 61
    finally:
        await store.close()


async def test_a_rated_live_tournaments_game_moves_the_live_ratings_not_those_of_play_by_turns(
        tmp_path: Path) -> None:
    """A rated tournament played live: its pairing, allowed by fair play,
    is seated rated, played at once, and the match moves both players'
    live ratings; those of play by turns are not touched, and the game is
    recorded as a live one."""
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800})
        ann, bob = await store.accounts.find("Ann"), await store.accounts.find("Bob")
        assert ann is not None and bob is not None
        t = store.tournaments
        await t.create("cup", "The cup", Settings(Format(Kind.SWISS, rounds=1), round_hours=1, show_minutes=15,
                                                   rules=Rules(game_to=61, counting=Counting.AUTOMATIC), rated=True))
        await t.enter("cup", "Ann")
        await t.enter("cup", "Bob")
        await t.start("cup")
        paging = PagingConfig(ranked_grace=60)
        house = GameHouse(store, Lobby(paging), paging, ranked=RankedConfig(min_games=0, min_age_days=0))
        [table] = await seat_pairings(house, await t.step("cup", clock.now))
        assert table.series.rated and not table.settings.by_turns
        assert table.journal is not None and table.journal.saved_id is not None
        saved_id = table.journal.saved_id
        saved, link = await store.saved.load_game(saved_id), await t.links.of_game(saved_id)
        assert saved is not None and link is not None
        for account in (ann, bob):
            seat = Scripted(account.name, Identity.of_account(account.id))
            assert await open_tournament_game(house, saved, link, account.id, seat) is table
        await asyncio.wait_for(table.ended.wait(), 30)
        for account in (ann, bob):  # (each had 20 rated matches)
            live = await store.ratings.of(account.id)
            assert live is not None and live.matches == 21
            assert await store.ratings.of(account.id, by_turns=True) is None
        by_turns = await store.database.query(lambda db: db.execute("SELECT by_turns FROM games").fetchall())
        assert by_turns and {row[0] for row in by_turns} == {0}  # (recorded as live games)
    finally:
        await store.close()
