"""The daily deal's records (issue 37.3): one game number a day, one play a
caller a day, the day's ranking against the par, and the streak."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.rules import Rules

from door.records.daily import deal_number, day_of
from door.records.passwords import hash_password
from door.records.store import DATABASE_NAME, Store


def test_one_deal_a_day_the_same_cards_for_everyone() -> None:
    today, tomorrow = deal_number("2026-11-26"), deal_number("2026-11-27")
    assert today == deal_number("2026-11-26") and today != tomorrow and 1 <= today <= 999_999
    deals = {}
    for number in (today, today, tomorrow):
        game = Game(Rules(), number)
        game.start()
        deals.setdefault(number, []).append(sorted(game.hands[0]) + sorted(game.hands[1]))
    assert deals[today][0] == deals[today][1] and deals[today][0] != deals[tomorrow][0]
    assert day_of(0).count("-") == 2


async def test_one_play_a_day_a_ranking_against_the_par_and_a_streak(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME)
    try:
        ann = await store.accounts.create("Ann", hash_password("ann-secret"))
        bob = await store.accounts.create("Bob", hash_password("bob-secret"))
        day = "2026-11-26"
        assert await store.daily.claim(ann.id, day)
        assert not await store.daily.claim(ann.id, day)  # once a day
        assert await store.daily.pending(ann.id, day) and await store.daily.played(ann.id, day)
        assert await store.daily.claim(bob.id, day)
        await store.daily.finish(ann.id, day, 121, 100)
        await store.daily.finish(bob.id, day, 110, 121)
        assert not await store.daily.pending(ann.id, day)
        ranking = await store.daily.ranking(day)
        assert [(r.name, r.margin, r.against_par) for r in ranking] == [("Ann", 21, None), ("Bob", -11, None)]
        await store.daily.set_par(day, 121, 110)
        await store.daily.set_par(day, 90, 121)  # the first par kept stays
        assert await store.daily.par(day) == (121, 110)
        assert [r.against_par for r in await store.daily.ranking(day)] == [10, -22]
        for earlier in ("2026-11-25", "2026-11-24", "2026-11-22"):
            assert await store.daily.claim(ann.id, earlier)
        assert await store.daily.streak(ann.id, day) == 3  # the 26th, 25th and 24th; not the 22nd
        assert await store.daily.streak(ann.id, "2026-11-27") == 3  # not yet played today: still going
        assert await store.daily.streak(ann.id, "2026-11-28") == 0
    finally:
        await store.close()
