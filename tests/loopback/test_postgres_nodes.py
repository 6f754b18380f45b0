"""Door processes on one PostgreSQL store (issues 16.4, 16.5): a game
journaled by one ``serve`` process, killed with ``kill -9`` mid-hand,
resumes on another ``serve`` process with its own data folder (nothing
shared but the database), with 0 actions lost; the records command works
on the same store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from door.records.store import Store
from tests.loopback.test_resume import log_in_and_resume, play_then_kill
from tests.support.postgres import PostgresServer

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


def config_file(folder: Path, url: str) -> Path:
    path = folder / "door.toml"
    path.write_text(f'[store]\nurl = "{url}"\n')
    path.chmod(0o600)
    return path


async def test_a_game_killed_on_one_node_resumes_on_another(tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    await store.accounts.create("Kip", hash_password("kip-pass"))
    await store.close()
    conf = config_file(tmp_path, url)
    before = await play_then_kill(tmp_path / "node1", "--config", str(conf))
    assert not (tmp_path / "node1" / "cribbage.sqlite3").exists()  # the game was kept in PostgreSQL only
    assert await log_in_and_resume(tmp_path / "node2", "--config", str(conf)) == before
    done = subprocess.run([sys.executable, "-m", "door.cli", "records", "--config", str(conf), "remove-saved", "kip"],
                          capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 0 and "Removed the unfinished game of Kip." in done.stdout, done.stderr
