"""Rated play by turns (by correspondence, and tournaments' games) on
SQLite and PostgreSQL: a pool of its own beside live play's, each match
moving only its own pool's ratings, and a voided match worked out of the
pool it was played in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.records.migrate import EXPAND
from door.records.ranked.ratings import MatchRecord
from door.records.schema import MIGRATIONS
from door.records.store import Store


@pytest.fixture
async def store(where: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(where)
    try:
        yield s
    finally:
        await s.close()


def test_the_step_only_adds() -> None:
    step = next(i for i, s in enumerate(MIGRATIONS) if "CREATE TABLE correspondence_ratings" in str(s))
    assert step + 1 in EXPAND and step + 1 < len(MIGRATIONS)  # (an expand step, before the release's contract)
    assert "DROP" not in str(MIGRATIONS[step]) and "RENAME" not in str(MIGRATIONS[step])


def _match(accounts: tuple[int, int], winner: int, by_turns: bool) -> MatchRecord:
    return MatchRecord(("Ann", "Bob"), accounts, 3, True, (2, 1) if winner == 0 else (1, 2), winner,
                       by_turns=by_turns)


async def test_matches_by_turns_are_rated_in_a_pool_of_their_own(store: Store) -> None:
    ann = (await store.accounts.create("Ann", "unused-hash")).id
    bob = (await store.accounts.create("Bob", "unused-hash")).id
    ratings = store.ratings
    change = await ratings.record(_match((ann, bob), 0, by_turns=True))
    assert change is not None and change.after[0].rating > 1500 > change.after[1].rating
    assert await ratings.of(ann) is None and await ratings.of(bob) is None  # live play's pool: untouched
    by_turns = await ratings.of(ann, by_turns=True)
    assert by_turns is not None and by_turns.matches == 1 and by_turns.rating.rating == change.after[0].rating
    await ratings.record(_match((ann, bob), 1, by_turns=False))  # a live match: Bob wins it
    live = await ratings.of(bob)
    assert live is not None and live.matches == 1 and live.rating.rating > 1500
    again = await ratings.of(ann, by_turns=True)
    assert again is not None and again.rating == by_turns.rating  # (the live match did not move it)
    assert [p.name for p in await ratings.top(by_turns=True)] == ["Ann", "Bob"]
    assert [p.name for p in await ratings.top()] == ["Bob", "Ann"]
    rows = await store.database.query(lambda db: db.execute(
        "SELECT id, by_turns FROM matches ORDER BY id").fetchall())
    assert [r[1] for r in rows] == [1, 0]

    assert await ratings.void(rows[0][0]) == 2  # the match by turns voided: its pool worked out again
    assert await ratings.of(ann, by_turns=True) is None and await ratings.of(bob, by_turns=True) is None
    after = await ratings.of(bob)
    assert after is not None and after.rating == live.rating  # (live play's pool as it was)
