"""Draining a node and telling a balancer it is full: ``/healthz`` says
``full`` before ``max_sessions`` and ``draining`` once ``cribbage-door
drain`` (or SIGUSR1) asked; a draining node takes no new caller, tells its
callers, and stops when they are gone or after ``drain_timeout``; the
game of a caller still on line then is resumed at another node."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from door.records.passwords import hash_password
from door.records.store import Store
from door.service import DRAIN_NOTICE
from tests.loopback.test_health import ask
from tests.loopback.test_resume import connect, log_in, play_into_the_hand, resume
from tests.support.player import log_in_as_guest, telnet_caller
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running, start_server_process


async def test_healthz_says_full_before_the_limit_and_draining_after_drain(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.limits.max_sessions = 2
    async with running(config) as door:
        assert (await ask(door))[1].splitlines()[0] == "ok"
        caller = await telnet_caller(door.telnet_port)
        await log_in_as_guest(caller, "Fay")
        status, body = await ask(door)
        assert status == 503 and body.splitlines()[0] == "full" and "callers: 1 of 2" in body
        caller.close()
        await asyncio.sleep(0.3)
        assert (await ask(door))[0] == 200
        assert door.drain().startswith("draining: 0 caller(s)")
        status, body = await ask(door)
        assert status == 503 and body.splitlines()[0] == "draining"
        late = await telnet_caller(door.telnet_port)
        await asyncio.wait_for(late.done, 5)
        assert "Sorry, this server is closing for maintenance: call again, and another" in late.screen.text()
        await asyncio.wait_for(door.finished.wait(), 5)  # (nobody on line: it is over at once)


async def test_a_drained_node_s_game_is_resumed_at_the_other(tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    await store.accounts.create("Kip", hash_password("kip-pass"))
    await store.close()
    conf = tmp_path / "door.toml"
    conf.write_text(f'[server]\ndrain_timeout = 3.0\n[store]\nurl = "{url}"\n'
                    f'peer_secret_file = "{tmp_path / "peer_secret"}"\n')
    conf.chmod(0o600)
    a, a_port, _ = start_server_process(tmp_path / "a", "--config", str(conf), "--computer-delay", "0")
    b, b_port, _ = start_server_process(tmp_path / "b", "--config", str(conf), "--computer-delay", "0")
    try:
        writer, screen, task = await connect(a_port)
        await log_in(writer, screen, "Kip", "kip-pass")
        before = await play_into_the_hand(writer, screen)
        said = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "door.cli", "drain", "--data-dir",
                                                        str(tmp_path / "a")], capture_output=True, text=True,
                                       timeout=30)
        assert said.returncode == 0 and said.stdout.startswith("draining: 1 caller(s) on line"), said
        await screen.wait_for(lambda: DRAIN_NOTICE[:40] in screen.text().replace("\n", " "))
        late = await telnet_caller(a_port)
        await asyncio.wait_for(late.done, 5)
        assert "closing for maintenance" in late.screen.text()
        assert await asyncio.to_thread(a.wait, 15) == 0  # (Kip stayed: it stops after drain_timeout)
        await asyncio.wait_for(task, 5)
        writer, screen, task = await connect(b_port)
        await log_in(writer, screen, "Kip", "kip-pass")
        assert await resume(writer, screen) == before
        writer.close()
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)


def test_workers_are_not_drained_one_by_one(tmp_path: Path) -> None:
    """Under ``serve --workers`` a drained worker would be started again at
    once by the supervisor: drain says so and does nothing."""
    from door.server import DoorServer

    door = DoorServer(make_config(tmp_path / "data"), worker=0, workers=2)
    assert door.drain().startswith("not draining: this serve runs 2 workers; stop them with SIGTERM")
    assert not door.service.draining
