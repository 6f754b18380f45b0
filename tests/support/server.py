"""Real door servers for tests: a configuration on free loopback ports,
and ``cribbage-door serve`` as a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO

import asyncssh

from door.config import Config, SysopConfig
from door.records.passwords import hash_password
from door.server import DoorServer
from engine.rules import Rules

__all__ = ["make_config", "newcomers_rated", "with_sysop", "running", "start_server_process", "start_workers_process", "worker_of"]


def newcomers_rated(config: Config) -> Config:
    """``config`` with rated play (and so today's deal) open to the tests'
    fresh accounts: no finished games or account age asked (``[ranked]
    min_games = 0``, ``min_age_days = 0``)."""
    config.ranked.min_games, config.ranked.min_age_days = 0, 0.0
    return config


def make_config(data_dir: Path, delay: float = 0.0, game_to: int = 121) -> Config:
    """A server's config for the tests: loopback, free ports, the computer
    at once; ``game_to`` 61 for a short game."""
    config = Config()
    config.server.host = "127.0.0.1"
    config.server.telnet_port = 0
    config.server.ssh_port = 0
    config.server.data_dir = str(data_dir)
    config.server.connect_maxwait = 1.0
    config.server.reader_wait = 0.0  # the full screen at once (tests/loopback/test_screen_reader.py waits for S)
    config.web.port = 0
    config.computer.delay = delay
    # the computer thinks on a thread: a worker process for each of a hundred in-process servers would
    # cost the suite a second's start-up each (tests/unit/test_thinking.py and the servers run as
    # subprocesses cover the worker processes)
    config.computer.processes = 0
    config.caller.pegging_pause = config.caller.hand_pause = 0.0
    if game_to != 121:
        config.rules = Rules(game_to=game_to)
    return config


def with_sysop(config: Config, name: str, password: str, key: asyncssh.SSHKey) -> Config:
    """``config`` with one ``[[sysop]]`` entry: ``name``, ``password``
    (hashed here) and the public half of ``key``."""
    public = key.export_public_key("openssh").decode().strip()
    config.sysops = [SysopConfig(name, hash_password(password), [public])]
    return config


@asynccontextmanager
async def running(config: Config) -> AsyncIterator[DoorServer]:
    """A :class:`DoorServer` started from ``config`` and stopped at the end."""
    server = DoorServer(config)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def start_server_process(data_dir: Path, *extra: str, release: Path | None = None) -> tuple[subprocess.Popen, int, int]:
    """``cribbage-door serve`` as a subprocess on free ports, once all its
    listeners are up (the console socket last: a killed server's stale
    socket file refuses connections until then); returns the process and
    its telnet and SSH ports (read from its log).  ``proc.log_tail`` keeps
    its log's last 200 lines, those of its start-up first.  ``release``: a
    folder holding another release's ``door`` and ``engine`` to run instead
    of this one's (first on its ``PYTHONPATH``, and its folder)."""
    env = None if release is None else {**os.environ, "PYTHONPATH": str(release)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "door.cli", "serve", "--host", "127.0.0.1", "--telnet-port", "0",
         "--ssh-port", "0", "--web-port", "0", "--data-dir", str(data_dir), "--reader-wait", "0", *extra],
        stderr=subprocess.PIPE, text=True, env=env, cwd=release)
    ports: dict[str, int] = {}
    console = False
    deadline = time.monotonic() + 20
    assert proc.stderr is not None
    start_up: list[str] = []
    while not (len(ports) == 2 and console) and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        start_up.append(line)
        m = re.search(r"(telnet|ssh) listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            ports[m.group(1)] = int(m.group(2))
        console = console or "sysop console on" in line
    assert len(ports) == 2 and console, "the server did not announce its listeners and console"
    # from now on a thread reads the log, keeping its last lines: a server whose log filled the pipe (64 KiB)
    # would block on its next line (tests/loopback/test_logs.py)
    proc.log_tail = deque(start_up, maxlen=200)  # type: ignore[attr-defined]  (the start-up lines first)
    threading.Thread(target=_read_log, args=(proc.stderr, proc.log_tail), daemon=True).start()  # type: ignore[attr-defined]
    return proc, ports["telnet"], ports["ssh"]


def start_workers_process(data: Path, workers: int, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """``cribbage-door serve --workers N`` on a free port, on loopback: the
    process and its telnet port, once every worker listens.  Its log's
    last 5,000 lines are kept in ``proc.log_tail`` (see :func:`worker_of`)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "door.cli", "serve", "--host", "127.0.0.1", "--telnet-port", "0", "--ssh-port", "0",
         "--web-port", "0", "--data-dir", str(data), "--workers", str(workers), "--reader-wait", "0", *extra],
        stderr=subprocess.PIPE,
        text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 30
    port = None
    tail: deque[str] = deque(maxlen=5000)
    while port is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        tail.append(line)
        m = re.search(r"(\d+) workers on telnet port (\d+)", line)
        port = int(m.group(2)) if m else None
    if port is None:
        proc.kill()
        raise AssertionError("the workers did not start")
    proc.log_tail = tail  # type: ignore[attr-defined]
    threading.Thread(target=_read_log, args=(proc.stderr, proc.log_tail), daemon=True).start()  # type: ignore[attr-defined]
    return proc, port


def worker_of(proc: subprocess.Popen[str], local: tuple[str, int], timeout: float = 5.0) -> int:
    """The worker of :func:`start_workers_process`'s ``proc`` that took the
    telnet connection from ``local`` (its address and port; read from the log)."""
    pattern = re.compile(rf"\[worker=(\d+) conn=\d+\] door: connect telnet from {re.escape(local[0])}:{local[1]} ")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(proc.log_tail):  # type: ignore[attr-defined]
            if m := pattern.search(line):
                return int(m.group(1))
        time.sleep(0.01)
    raise AssertionError(f"no worker logged the connection from {local[0]}:{local[1]}")


def _read_log(stream: IO[str], tail: deque[str]) -> None:
    for line in stream:
        tail.append(line)
