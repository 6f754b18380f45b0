"""Fixtures: a real door server on loopback with ephemeral ports."""

from __future__ import annotations

import logging
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
