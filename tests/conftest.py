"""Fixtures: a real door server on loopback with ephemeral ports."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import AsyncIterator

import pytest

from door.config import Config
from door.server import DoorServer


def make_config(data_dir: Path, delay: float = 0.0) -> Config:
    config = Config()
    config.server.host = "127.0.0.1"
    config.server.telnet_port = 0
    config.server.ssh_port = 0
    config.server.data_dir = str(data_dir)
    config.server.connect_maxwait = 1.0
    config.computer.delay = delay
    config.caller.pegging_pause = config.caller.hand_pause = 0.0
    return config


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    """A running :class:`DoorServer` (telnet and SSH on free ports, the
    computer moving at once)."""
    logging.getLogger("door").setLevel(logging.INFO)
    server = DoorServer(make_config(tmp_path / "data"))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def start_server_process(data_dir: Path, *extra: str) -> tuple[subprocess.Popen, int, int]:
    """``cribbage-door serve`` as a subprocess on free ports; returns the
    process and its telnet and SSH ports (read from its log)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "door.cli", "serve", "--host", "127.0.0.1", "--telnet-port", "0",
         "--ssh-port", "0", "--data-dir", str(data_dir), *extra],
        stderr=subprocess.PIPE, text=True)
    ports: dict[str, int] = {}
    deadline = time.monotonic() + 20
    assert proc.stderr is not None
    while len(ports) < 2 and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        m = re.search(r"(telnet|ssh) listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            ports[m.group(1)] = int(m.group(2))
    assert len(ports) == 2, "the server did not announce both listeners"
    return proc, ports["telnet"], ports["ssh"]
