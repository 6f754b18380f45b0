"""The manual's restore into a new database (docs/machines.md, "Restoring
into a new database"), step by step: a dump of a door's store, a new role
and database, ``pg_restore --no-owner --role=door``, and a node on the
restored database finds the records."""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path

import psycopg

from door.records.passwords import hash_password
from door.records.store import Store
from tests.support.postgres import PostgresServer


async def test_a_dump_restored_into_a_new_database_under_its_own_role_keeps_the_records(
        tmp_path: Path, postgres: PostgresServer) -> None:
    old = postgres.new_database()
    store = await Store.open(old)
    await store.accounts.create("Resa", hash_password("resa-pass"))
    ban = await store.bans.add("203.0.113.0/24", "scans", "Sysop")
    await store.close()
    dump = tmp_path / "cribbage.dump"
    mask = os.umask(0o077)  # (the manual: the dump holds the password hashes)
    try:
        done = subprocess.run([str(postgres.bin_dir / "pg_dump"), "--format=custom", f"--file={dump}", old],
                              capture_output=True, text=True, timeout=60)
    finally:
        os.umask(mask)
    assert done.returncode == 0, done.stderr
    assert dump.stat().st_mode & 0o077 == 0
    role, database = "door" + uuid.uuid4().hex[:6], "restored" + uuid.uuid4().hex[:6]
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'a long random password'")
        conn.execute(f"CREATE DATABASE {database} OWNER {role}")
        conn.execute(f"REVOKE ALL ON DATABASE {database} FROM PUBLIC")
    new = f"postgresql://{role}@127.0.0.1:{postgres.port}/{database}"
    done = subprocess.run([str(postgres.bin_dir / "pg_restore"), "--no-owner", f"--role={role}", f"--dbname={new}",
                           str(dump)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    store = await Store.open(new)  # (as the door's role: it owns every table, and migrates nothing)
    try:
        account = await store.accounts.find("resa")
        assert account is not None and account.name == "Resa"
        assert [b.id for b in await store.bans.active()] == [ban.id]
        await store.accounts.create("Newcomer", hash_password("new-pass"))  # (the role may write)
    finally:
        await store.close()
