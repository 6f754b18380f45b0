"""``/healthz`` on the web listener, for a load balancer and a monitor:
200 while the store answers, the callers' listeners are open and every
thinking process runs; 503, saying which part is not, when the store is
down or a thinking process died; whatever name the balancer asks by; and
nothing of any caller in it."""

from __future__ import annotations

import asyncio
import os
import signal
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from door.server import HEALTH_EVERY, DoorServer
from tests.support.clients import until
from tests.support.player import log_in_as_guest, telnet_caller
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running


def healthz(door: DoorServer, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{door.web_port}/healthz")
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def ask(door: DoorServer, host: str | None = None) -> tuple[int, str]:
    await asyncio.sleep(HEALTH_EVERY + 0.1)  # (an answer is kept for HEALTH_EVERY seconds)
    return await asyncio.to_thread(healthz, door, host)


async def test_a_well_door_says_ok_whatever_name_it_is_asked_by(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data")) as door:
        status, body = await ask(door)
        assert status == 200
        assert body.splitlines() == ["ok", "store: answers", "telnet: listening", "ssh: listening",
                                     "thinking: on the door's thread", "callers: 0 of 200"]
        assert (await asyncio.to_thread(healthz, door, "10.9.9.9:8080"))[0] == 200  # (a balancer's own name)
        assert (await asyncio.to_thread(healthz, door, "evil.example"))[0] == 200


async def test_a_dead_thinking_process_makes_the_door_unhealthy(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.computer.processes = 1
    async with running(config) as door:
        (pid,) = await door.thinking.worker_pids()
        assert (await ask(door))[0] == 200
        os.kill(pid, signal.SIGKILL)
        assert await until(lambda: door.thinking.alive() == (0, 1))
        status, body = await ask(door)
        assert status == 503
        assert body.splitlines()[0] == "unhealthy" and "thinking: 0 of 1 processes" in body


async def test_the_store_down_makes_the_door_unhealthy_until_it_is_back(tmp_path: Path,
                                                                       postgres: PostgresServer) -> None:
    config = make_config(tmp_path / "data")
    config.store.url = postgres.new_database()
    async with running(config) as door:
        assert (await ask(door))[0] == 200
        try:
            await asyncio.to_thread(postgres.stop)
            status, body = await ask(door)
            assert status == 503
            assert "store: does not answer" in body
        finally:
            await asyncio.to_thread(postgres.restart)
        for _ in range(20):  # (the store answers again once it is back)
            if (await ask(door))[0] == 200:
                break
        else:
            pytest.fail("/healthz stayed unhealthy after the store came back")


async def test_the_answer_holds_no_caller_data(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data")) as door:
        await door.store.accounts.create("Zelda", hash_password("zelda-secret"), "192.0.2.77")
        caller = await telnet_caller(door.telnet_port)
        await log_in_as_guest(caller, "Gwen")
        status, body = await ask(door)
        assert status == 200 and not {"Zelda", "Gwen", "192.0.2.77", "127.0.0.1"} & set(body.split())
        caller.close()
