"""A move the store cannot keep is never shown as played, the
action log stays contiguous, and a saved game that does not replay is
never a crash.

The store is made to fail as it does in life: a second process holding
the database's write lock, and the disk-full error SQLite raises from the
real repository path."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import door.play.journal as journal
from door.records.passwords import hash_password
from door.records.saved_games import SavedGames
from door.records.store import DATABASE_NAME
from door.server import DoorServer
from tests.loopback.test_resume import GAME_ROWS, connect, log_in, play_into_the_hand, resume
from tests.support.player import RIGHT, type_guest_login

LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("CREATE TABLE IF NOT EXISTS lock_holder (x)")
print("locked", flush=True)
time.sleep(60)
"""


def saved_actions(data_dir: Path) -> list[int]:
    db = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        return [seq for (seq,) in db.execute("SELECT seq FROM saved_actions ORDER BY seq")]
    finally:
        db.close()


async def into_a_hand(door: DoorServer, name: str) -> tuple[object, object, list[str], list[int]]:
    """A registered caller ``name`` logged in and playing a hand: the
    writer, the screen, the game rows and the actions kept so far."""
    await door.store.accounts.create(name, hash_password("the-secret"))
    writer, screen, _ = await connect(door.telnet_port)
    await log_in(writer, screen, name, "the-secret")
    before = await play_into_the_hand(writer, screen)
    return writer, screen, before, saved_actions(Path(door.config.server.data_dir))


async def a_move_the_store_refuses(door: DoorServer, fail: callable) -> None:  # type: ignore[valid-type]
    """Log in, play into a hand, make the store fail with ``fail()`` (which
    returns an undo), press a key that plays a card; check that the move
    never shows and that the game resumes as it was."""
    data_dir = Path(door.config.server.data_dir)
    writer, screen, before, kept = await into_a_hand(door, "Hal")
    undo = await fail()
    try:
        writer.write(b"\x1b[H\r")  # play the lowest card (it is the caller's turn: it plays): the store cannot keep it
        await screen.wait_for(lambda: "cannot save your game" in " ".join(screen.text().split()), timeout=30)
        assert "Your game is kept" in screen.text()
    finally:
        await undo()
    assert saved_actions(data_dir) == kept == list(range(len(kept)))  # contiguous, nothing after a hole
    await screen.wait_for(lambda: "Press any key" in screen.text())
    writer.write(b" ")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    writer.close()
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "Hal", "the-secret")
    assert await resume(writer, screen) == before  # the game as it was before the refused move
    writer.close()


async def test_a_second_process_holding_the_write_lock(door: DoorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "RETRY_FOR", 1.0)
    path = Path(door.config.server.data_dir) / DATABASE_NAME

    async def lock():  # type: ignore[no-untyped-def]
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", LOCKER, str(path),
                                                    stdout=subprocess.PIPE)
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"locked"

        async def unlock() -> None:
            proc.kill()
            await proc.wait()
        return unlock

    await a_move_the_store_refuses(door, lock)


async def test_a_full_disk(door: DoorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "RETRY_FOR", 0.5)
    real = SavedGames.append

    async def full(self: SavedGames, saved_id: int, seq: int, action, **_) -> None:  # type: ignore[no-untyped-def]
        def tx(db: sqlite3.Connection) -> None:
            raise sqlite3.OperationalError("database or disk is full")
        await self.database.tx(tx)  # the real worker thread and transaction path

    async def fill():  # type: ignore[no-untyped-def]
        monkeypatch.setattr(SavedGames, "append", full)

        async def empty() -> None:
            monkeypatch.setattr(SavedGames, "append", real)
        return empty

    await a_move_the_store_refuses(door, fill)


async def test_a_saved_game_that_does_not_replay_is_offered_for_abandoning(door: DoorServer) -> None:
    data_dir = Path(door.config.server.data_dir)
    await door.store.accounts.create("Ivy", hash_password("ivy-secret"))
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "Ivy", "ivy-secret")
    await play_into_the_hand(writer, screen)
    writer.close()
    await asyncio.sleep(0.5)
    db = sqlite3.connect(data_dir / DATABASE_NAME)
    with db:  # a move nobody could have made: the log no longer replays
        saved_id, last = db.execute("SELECT saved_id, MAX(seq) FROM saved_actions").fetchone()
        db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                   (saved_id, last + 1, "D0 AS AS"))
    db.close()
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "Ivy", "ivy-secret")
    await screen.wait_for(lambda: "cannot be rebuilt" in screen.text())
    writer.write(b"n")  # (N abandons it)
    await screen.wait_for(lambda: "Main menu" in screen.text())
    assert saved_actions(data_dir) == []
    writer.close()


async def test_a_slow_write_shows_the_move_only_once_it_is_kept(door: DoorServer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Cause: screens painted a move while the table still
    waited for the store to keep it, so a kill in that window resumed
    without a move the caller had seen.  With the write lock held by
    another process, the move must not show until the lock goes."""
    monkeypatch.setattr(journal, "RETRY_FOR", 30.0)  # slow, not failing
    data_dir = Path(door.config.server.data_dir)
    writer, screen, before, kept = await into_a_hand(door, "Sal")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", LOCKER, str(data_dir / DATABASE_NAME),
                                                stdout=subprocess.PIPE)
    assert proc.stdout is not None and (await proc.stdout.readline()).strip() == b"locked"
    try:
        writer.write(b"\x1b[H\r")  # play the lowest card
        await asyncio.sleep(0.5)
        writer.write(RIGHT + b"?")  # keys while the table writes: each answer paints the screen
        await asyncio.sleep(2.0)  # past the database's own 2 s busy wait: the table still writes
        assert screen.lines()[GAME_ROWS] == before, "the screen showed a move the store had not kept"
        assert saved_actions(data_dir) == kept
    finally:
        proc.kill()
        await proc.wait()
    await screen.wait_for(lambda: screen.lines()[GAME_ROWS] != before, timeout=15)
    assert len(saved_actions(data_dir)) > len(kept)  # kept first, then shown
    writer.close()


async def test_registering_while_the_records_cannot_be_written(door: DoorServer) -> None:
    """A write that fails outside a game (here registering, with the write
    lock held by another process) is a sentence and a way on, never a
    dropped line."""
    path = Path(door.config.server.data_dir) / DATABASE_NAME
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", LOCKER, str(path), stdout=subprocess.PIPE)
    assert proc.stdout is not None and (await proc.stdout.readline()).strip() == b"locked"
    try:
        writer, screen, task = await connect(door.telnet_port)
        await screen.wait_for(lambda: "Your name:" in screen.text())
        writer.write(b"Newt\r")
        await screen.wait_for(lambda: "is not registered" in screen.text())
        writer.write(b"r")
        for _ in range(2):
            await screen.wait_for(lambda: "Password:" in screen.text())
            writer.write(b"newt-secret\r")
            await asyncio.sleep(0.3)
        await screen.wait_for(lambda: "cannot write its records right now" in screen.text(), timeout=15)
        await type_guest_login(writer.write, screen, "Newt")  # on as a guest: the line was never dropped
        writer.close()
    finally:
        proc.kill()
        await proc.wait()
