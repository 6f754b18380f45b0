"""Door processes on one PostgreSQL store: a
game journaled by one ``serve`` process, killed with ``kill -9`` mid-hand,
resumes on another ``serve`` process with its own data folder (nothing
shared but the database), with 0 actions lost; the records command works
on the same store; a caller on one process plays the sysop at another's
console, and when the caller's process is killed mid-hand they call the
sysop's process and the game goes on where it was."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from door.records.store import Store
from door.sysop.doing import Activity, Doing
from tests.loopback.test_resume import GAME_ROWS, connect, log_in, log_in_and_resume, page_and_play, play_then_kill
from tests.support.clients import console_client
from tests.support.postgres import PostgresServer
from tests.support.server import start_server_process

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


def config_file(folder: Path, url: str) -> Path:
    """A configuration on the store ``url`` whose nodes share one peer secret (made on first start)."""
    path = folder / "door.toml"
    path.write_text(f'[store]\nurl = "{url}"\npeer_secret_file = "{folder / "peer_secret"}"\n')
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


async def test_a_caller_plays_the_sysop_of_another_node_and_survives_their_node(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Done-when: two serve processes on one PostgreSQL; Syd on
    node A sees "Play the sysop" (the sysop is at node B's console), is
    handed to B, pages and plays; A is killed mid-hand; Syd calls B, is
    offered the waiting game and it goes on with nothing lost."""
    url = postgres.new_database()
    store = await Store.open(url)
    await store.accounts.create("Syd", hash_password("syd-pass"))
    await store.close()
    conf = config_file(tmp_path, url)
    node_b, port_b, _ = start_server_process(tmp_path / "b", "--config", str(conf))
    node_a = None
    try:
        sysop, console, _ = await console_client(tmp_path / "b")
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        node_a, port_a, _ = start_server_process(tmp_path / "a", "--config", str(conf))
        writer, screen, task = await connect(port_a)
        await log_in(writer, screen, "Syd", "syd-pass")
        await screen.wait_for(lambda: "Play the sysop" in screen.text(), timeout=5)  # learnt from the store
        # B's console lists Syd on the other server, at the menu
        await console.wait_for(lambda: any("Syd" in line and "another server" in line and "main menu" in line
                                           for line in console.lines()), timeout=5)
        writer.write(b"6")  # handed to node B
        await console.wait_for(lambda: any("Syd" in line and " peer " in line for line in console.lines()),
                               timeout=5)  # on line at B now
        before, console_before, dealer_screen = await page_and_play(writer, screen, sysop, console)
        caller_deals = dealer_screen is screen
        node_a.send_signal(signal.SIGKILL)
        assert node_a.wait(10) == -signal.SIGKILL
        await asyncio.wait_for(task, 5)  # Syd's line is gone with node A
        await console.wait_for(lambda: "Syd's line dropped" in " ".join(console.text().split()), timeout=5)
        writer, screen, task = await connect(port_b)
        await log_in(writer, screen, "Syd", "syd-pass")
        await screen.wait_for(lambda: "is waiting for you" in screen.text())
        writer.write(b"y")
        dealer_screen = screen if caller_deals else console
        await dealer_screen.wait_for(lambda: dealer_screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        assert screen.lines()[GAME_ROWS] == before  # 0 actions lost
        assert console.lines()[GAME_ROWS] == console_before
        writer.close()
        sysop.close()
    finally:
        for proc in (node_a, node_b):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)


async def test_a_caller_whose_far_node_dies_is_kept_at_their_own(tmp_path: Path, postgres: PostgresServer) -> None:
    """Syd on node A is handed to node B (the sysop is there); B is
    killed with kill -9: Syd's line, which is A's, stays up, A says what
    happened, and Syd is back at A's menu (the line was hung up, 0 bytes
    sent, before)."""
    url = postgres.new_database()
    store = await Store.open(url)
    await store.accounts.create("Syd", hash_password("syd-pass"))
    await store.close()
    conf = config_file(tmp_path, url)
    node_b, _, _ = start_server_process(tmp_path / "b", "--config", str(conf))
    node_a = None
    try:
        sysop, console, _ = await console_client(tmp_path / "b")
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        node_a, port_a, _ = start_server_process(tmp_path / "a", "--config", str(conf))
        writer, screen, task = await connect(port_a)
        await log_in(writer, screen, "Syd", "syd-pass")
        await screen.wait_for(lambda: "Play the sysop" in screen.text(), timeout=5)
        writer.write(b"6")  # handed to node B
        await console.wait_for(lambda: any("Syd" in line and " peer " in line for line in console.lines()),
                               timeout=5)
        node_b.send_signal(signal.SIGKILL)
        assert node_b.wait(10) == -signal.SIGKILL
        await screen.wait_for(lambda: "Back on this server" in screen.text(), timeout=10)
        assert "stopped. You are back on this one." in " ".join(screen.text().split())
        assert not task.done()  # the line is up
        writer.write(b" ")
        await screen.wait_for(lambda: "Main menu" in screen.text(), timeout=5)
        writer.write(b"1")  # and the door goes on here: the computer's game
        await screen.wait_for(lambda: "Computer" in screen.text(), timeout=10)
        writer.close()
        sysop.close()
    finally:
        for proc in (node_a, node_b):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)


async def test_a_game_between_callers_resumes_when_they_call_different_nodes(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Two nodes on one PostgreSQL: Ann and Bob play at node A, which is
    killed with kill -9 in the play.  A comes back; Bob calls A and waits
    at its menu, Ann calls node B and asks to go on: B hands her to A,
    where Bob is asked, and both screens are where they were (same seats,
    cards and scores)."""
    from tests.loopback.test_callers import PASSWORD, both_in_chat, challenge, registered
    from tests.support.player import RIGHT

    url = postgres.new_database()
    store = await Store.open(url)
    for name in ("Ann", "Bob"):
        await store.accounts.create(name, hash_password(PASSWORD))
    conf = config_file(tmp_path, url)
    node_a, port_a, _ = start_server_process(tmp_path / "a", "--config", str(conf))
    node_b = None
    try:
        node_b, port_b, _ = start_server_process(tmp_path / "b", "--config", str(conf))
        ann = await registered(port_a, store, "Ann")
        bob = await registered(port_a, store, "Bob")
        await challenge(ann, "Bob", run_mode=b"2")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        for c in (ann, bob):
            await c.send(b"\r")
        for c in (ann, bob):
            await c.screen.wait_for(lambda c=c: c.screen.prompt().startswith("Choose 2 cards"))
            await c.send(b"\r" + RIGHT + b"\r\r")
        await ann.screen.wait_for(lambda: any(c.screen.prompt().startswith("Your turn") for c in (ann, bob)),
                                  timeout=15)
        pone = next(c for c in (ann, bob) if c.screen.prompt().startswith("Your turn"))
        dealer = bob if pone is ann else ann
        await pone.send(b"\r")
        await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        before = {c is ann: c.screen.lines()[GAME_ROWS] for c in (ann, bob)}
        ann_deals = dealer is ann
        node_a.send_signal(signal.SIGKILL)
        assert node_a.wait(10) == -signal.SIGKILL
        for c in (ann, bob):
            await asyncio.wait_for(c.done, 5)
        node_a, port_a, _ = start_server_process(tmp_path / "a", "--config", str(conf))
        bob = await registered(port_a, store, "Bob", until="Ask them to go on with it?")
        await bob.send(b"n")  # kept for later: Bob waits at A's menu
        await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
        ann = await registered(port_b, store, "Ann", until="Ask them to go on with it?")
        for _ in range(50):  # Bob at A's menu, as the store says (B reads it there within about 0.1 s)
            nodes = await store.nodes.others(-1)
            people = await store.nodes.people([n.id for n in nodes])
            if any(p.name == "Bob" and Activity.decode(p.doing).doing is Doing.MAIN_MENU for p in people):
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the store never said Bob is at A's menu")
        await asyncio.sleep(0.5)
        await ann.send(b"y")  # B hands Ann to A, where Bob is asked
        await bob.screen.wait_for(lambda: "Ann asks you to go on with your game #" in " ".join(bob.screen.text().split()),
                                  timeout=10)
        await bob.send(b"y")
        dealer = ann if ann_deals else bob
        await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        assert ann.screen.lines()[GAME_ROWS] == before[True]
        assert bob.screen.lines()[GAME_ROWS] == before[False]
        ann.close()
        bob.close()
    finally:
        for proc in (node_a, node_b):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)
        await store.close()
