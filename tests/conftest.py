"""Fixtures: a real door server on loopback with ephemeral ports (the
helpers behind it are in ``tests/support``)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import AsyncIterator

import pytest

from door.server import DoorServer
from tests.support.server import make_config


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
