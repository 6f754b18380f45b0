"""A rolling upgrade on one PostgreSQL store: a node of the previous
release (700ddf6, its ``door`` and ``engine`` taken from git) serves a
caller's game; a node of this release starts on the same store and
expands its schema (a log line says so) without pulling it from under the
old node, whose caller plays on; the old node stops and starts again (a
release that moved the version it checks would have been refused then);
and the caller's game, left on the old node, is resumed on the new one."""

from __future__ import annotations

import asyncio
import io
import shutil
import signal
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.loopback.test_resume import GAME_ROWS, connect, log_in, play_into_the_hand, resume
from tests.support.postgres import PostgresServer
from tests.support.server import start_server_process

ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = "700ddf6"
"""The previous release: main as this release began."""


@pytest.fixture
def previous(tmp_path: Path) -> Iterator[Path]:
    """The previous release's ``door`` and ``engine``, from git, in a folder of their own."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    archived = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS, "door", "engine"],
                              capture_output=True, timeout=60)
    if archived.returncode != 0:
        pytest.skip(f"the previous release {PREVIOUS} is not in this clone: {archived.stderr.decode()[:200]}")
    folder = tmp_path / "previous"
    folder.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archived.stdout)) as tar:
        # (the "data" filter where this Python has it: Debian 12's 3.11.2 has not, and the archive is our own)
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    yield folder


def make_account(release: Path, url: str, name: str, password: str) -> None:
    """An account made by the previous release (its store, its schema)."""
    code = ("import asyncio, sys\nfrom door.records.passwords import hash_password\n"
            "from door.records.store import Store\n"
            "async def main():\n    store = await Store.open(sys.argv[1])\n"
            "    await store.accounts.create(sys.argv[2], hash_password(sys.argv[3]))\n    await store.close()\n"
            "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, "-c", code, url, name, password], cwd=release,
                          env={"PYTHONPATH": str(release), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)


async def test_a_node_of_this_release_joins_a_node_of_the_previous_one_with_games_going_on(
        tmp_path: Path, postgres: PostgresServer, previous: Path) -> None:
    url = postgres.new_database()
    conf = tmp_path / "door.toml"
    conf.write_text(f'[store]\nurl = "{url}"\npeer_secret_file = "{tmp_path / "peer_secret"}"\n')
    conf.chmod(0o600)
    old, old_port, _ = start_server_process(tmp_path / "old", "--config", str(conf), "--computer-delay", "0",
                                            release=previous)
    new = None
    try:
        assert any("schema_steps" not in line for line in old.log_tail)
        make_account(previous, url, "Kip", "kip-pass")
        writer, screen, task = await connect(old_port)
        await log_in(writer, screen, "Kip", "kip-pass")
        await play_into_the_hand(writer, screen)
        # this release's node starts on the same store, and says what it did to the schema
        new, new_port, _ = start_server_process(tmp_path / "new", "--config", str(conf), "--computer-delay", "0")
        assert any("schema 18 -> 19: expand, programs of schema 18 and later still use the store" in line
                   for line in new.log_tail), list(new.log_tail)
        # the old node's caller plays on: their next card is kept in the expanded store
        row = screen.row_of("Your cards") + 1
        before = screen.lines()[row]
        writer.write(b"\r")  # (the second card: at most 20 on the count, always playable)
        await screen.wait_for(lambda: screen.lines()[row] != before and screen.prompt().startswith("Your turn"),
                              timeout=15)  # (the computer has answered it)
        await asyncio.sleep(0.5)
        played = screen.lines()[GAME_ROWS]
        # the old node stops, and starts again on the expanded store
        stop(old)
        await asyncio.wait_for(task, 10)
        old, old_port, _ = start_server_process(tmp_path / "old", "--config", str(conf), "--computer-delay", "0",
                                                release=previous)
        assert old.poll() is None
        # the caller calls the new node and goes on with the game the old node kept
        writer, screen, task = await connect(new_port)
        await log_in(writer, screen, "Kip", "kip-pass")
        assert await resume(writer, screen) == played
        writer.close()
    finally:
        stop(old)
        if new is not None:
            stop(new)
