"""Expand and contract (door/records/migrate.py): an expand step runs
under nodes of the previous schema and leaves the version they check
alone; a contract step waits while nodes are on line unless the sysop
asks; a program refuses a store only when a step it cannot live with was
made, saying what to do; every step made is a line in the log."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from door.records.database import StoreError
from door.records.migrate import EXPAND as THIS_EXPAND
from door.records.migrate import kept_version, migrate_one, store_state
from door.records.schema import MIGRATIONS
from door.records.store import DATABASE_NAME, Store

NEXT = [*MIGRATIONS, "CREATE TABLE extra (x INTEGER, y INTEGER);", "ALTER TABLE extra DROP COLUMN y;"]
"""This release's steps and two of a release to come: an expand (a table) and a contract (a column dropped)."""
EXPAND = THIS_EXPAND | {len(MIGRATIONS) + 1}
KEPT = kept_version(len(MIGRATIONS))
"""The version a store of this release tells older programs (its last contract step's)."""


def script(db: sqlite3.Connection, sql: str) -> None:
    db.executescript(sql)


def migrate(db: sqlite3.Connection, contract: bool = False) -> list[int]:
    """Every step the next release would make now: the kept versions it writes."""
    kept = db.execute("PRAGMA user_version").fetchone()[0]
    written = []
    while (new := migrate_one(db, "store", "sqlite", kept, script, contract, NEXT, EXPAND)) is not None:
        db.execute(f"PRAGMA user_version = {new}")
        written.append(new)
        kept = new
    return written


async def a_store_with_a_node_on_line(tmp_path: Path) -> sqlite3.Connection:
    store = await Store.open(tmp_path / DATABASE_NAME)
    await store.nodes.register("127.0.0.1", 7000)
    await store.close()
    return sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)


async def test_an_expand_step_runs_under_older_nodes_and_a_contract_step_waits(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = await a_store_with_a_node_on_line(tmp_path)
    kept = db.execute("PRAGMA user_version").fetchone()[0]
    assert kept == KEPT
    with caplog.at_level(logging.INFO, "door.records.migrate"):
        assert migrate(db) == [kept]  # the expand step: the version older programs check does not move
    said = [r.getMessage() for r in caplog.records]
    assert f"store: schema {len(MIGRATIONS)} -> {len(MIGRATIONS) + 1}: expand, programs of schema {KEPT} and later " \
           "still use the store" in said
    assert any("contracts the store" in line and "records contract" in line for line in said)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is not None
    state = store_state(db, kept, NEXT, EXPAND)
    assert (state.applied, state.pending, state.waiting) == (len(MIGRATIONS) + 1, 1, len(MIGRATIONS) + 1)
    # a program of this release still uses the store
    assert migrate_one(db, "store", "sqlite", kept, script) is None
    # the sysop says every node is new: the contract step runs, and older programs are refused
    assert migrate(db, contract=True) == [len(NEXT)]
    with pytest.raises(StoreError, match=f"version {len(NEXT)}, which a newer release .* knows version {len(MIGRATIONS)}"):
        migrate_one(db, "store", "sqlite", len(NEXT), script)


async def test_with_no_node_on_line_a_contract_step_runs_at_once(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME)
    await store.close()
    db = sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)
    assert migrate(db) == [KEPT, len(NEXT)]


async def test_records_schema_says_where_the_store_stands(tmp_path: Path) -> None:
    import argparse
    import asyncio
    import io

    from door.records.cli import run_records

    await (await Store.open(tmp_path / DATABASE_NAME)).close()
    out = io.StringIO()
    args = argparse.Namespace(action="schema", target=None, yes=True)
    assert await asyncio.to_thread(run_records, args, tmp_path / DATABASE_NAME, out) == 0
    assert out.getvalue() == (f"Steps made: {len(MIGRATIONS)} (this program has {len(MIGRATIONS)}). Programs of "
                              f"schema {KEPT} and later may use the store.\n")
