"""One injected clock: the records, the lobby and the tables
read the time from it, so a test can move it instead of waiting."""

from __future__ import annotations

import asyncio
from pathlib import Path

from door.config import PagingConfig
from door.records.accounts import RegistrationLimit
from door.records.store import DATABASE_NAME, Store
from door.sysop.lobby import Lobby
from tests.support.memory_terminal import MemoryTerminal


async def test_the_registration_window_moves_with_the_store_s_clock(tmp_path: Path) -> None:
    now = [1_000_000.0]
    store = await Store.open(tmp_path / DATABASE_NAME, clock=lambda: now[0])
    try:
        limit = RegistrationLimit(window=3600, per_address=2)
        for name in ("Ada", "Bea"):
            await store.accounts.create(name, "-", "192.0.2.1", limit)
        assert await store.accounts.registration_refused("192.0.2.1", limit)
        now[0] += 3601  # an hour later, by the store's clock
        assert await store.accounts.registration_refused("192.0.2.1", limit) == ""
    finally:
        await store.close()


async def test_a_page_counts_down_by_the_lobby_s_clock() -> None:
    now = [500.0]
    lobby = Lobby(PagingConfig(page_timeout=60), clock=lambda: now[0])
    ann = lobby.join(1, MemoryTerminal())
    ringing = asyncio.create_task(lobby.page(ann, ""))
    await asyncio.sleep(0)
    assert lobby.pages[0].seconds_left == 60
    now[0] += 45
    assert lobby.pages[0].seconds_left == 15
    lobby.cancel_page(ann)
    await ringing
