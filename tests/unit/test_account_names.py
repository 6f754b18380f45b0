"""The names of many accounts read at once (a list of offers names
their makers in one query, not one query an offer), on both stores."""

from __future__ import annotations

from pathlib import Path

from door.records.store import Store


async def test_names_of_many_accounts_in_one_query(where: Path | str) -> None:
    store = await Store.open(where)
    try:
        ids = [(await store.accounts.create(f"Player{i}", "x")).id for i in range(120)]
        names = await store.accounts.names([*ids, ids[0], 10**9])  # (a repeat, and an id nobody has)
        assert names == {account_id: f"Player{i}" for i, account_id in enumerate(ids)}
        assert await store.accounts.names([]) == {}
    finally:
        await store.close()
