"""The PostgreSQL store against a real, throwaway server:
the schema and its version, two nodes migrating at once, a newer schema,
an unreachable server, a server restart under an open store.  The
repositories' own tests run on both databases in ``test_store.py``."""

from __future__ import annotations

import asyncio
import socket

import pytest

from door.records.migrate import kept_version
from door.records.passwords import hash_password
from door.records.postgres_database import masked
from door.records.store import MIGRATIONS, Store, StoreError
from tests.support.postgres import PostgresServer

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


async def test_a_new_database_gets_every_table_at_the_current_version(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    await store.close()
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(kept_version(len(MIGRATIONS)),)]
        assert conn.execute("SELECT version FROM schema_steps").fetchall() == [(len(MIGRATIONS),)]
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        types = dict(conn.execute("SELECT column_name, data_type FROM information_schema.columns "
                                  "WHERE table_name = 'games'").fetchall())
    assert {"accounts", "ssh_keys", "games", "hands", "saved_games", "saved_actions"} <= tables
    assert types["started"] == "double precision"  # a time keeps its fraction of a second
    store = await Store.open(url)  # opening again migrates nothing and keeps the data
    await store.close()


async def test_two_nodes_starting_at_once_migrate_one_at_a_time(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    try:
        ann = await stores[0].accounts.create("Ann", hash_password("secret1"))
        found = await stores[3].accounts.find("ann")
        assert found is not None and found.id == ann.id
    finally:
        for s in stores:
            await s.close()


async def test_newer_schema_is_refused(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    await (await Store.open(url)).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS) + 5,))
    with pytest.raises(StoreError, match="a newer release of cribbage-door made"):
        await Store.open(url)


async def test_an_unreachable_server_is_a_clear_message_without_the_password() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once the socket closes
    url = f"postgresql://door:s3cret@127.0.0.1:{port}/cribbage"
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as raised:
        await Store.open(url)
    assert "s3cret" not in str(raised.value) and masked(url) in str(raised.value)


async def test_a_restarted_server_is_reconnected(postgres: PostgresServer) -> None:
    """A statement under way when the server goes fails with StoreError
    (the journal tries again); the next one connects again."""
    url = postgres.new_database()
    store = await Store.open(url)
    try:
        ann = await store.accounts.create("Ann", hash_password("secret1"))
        await asyncio.to_thread(postgres.restart)
        answers: list[object] = []
        for _ in range(3):
            try:
                answers.append(await store.accounts.find("Ann"))
                break
            except StoreError as exc:
                answers.append(exc)
        found = answers[-1]
        assert getattr(found, "id", None) == ann.id, answers
        assert len(answers) <= 2
    finally:
        await store.close()
