"""Fixtures: a real door server on loopback with ephemeral ports (the
helpers behind it are in ``tests/support``)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import AsyncIterator

import asyncssh
import pytest

from door.server import DoorServer
from tests.support.server import make_config, running


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    """A running :class:`DoorServer` (telnet and SSH on free ports, the
    computer moving at once)."""
    logging.getLogger("door").setLevel(logging.INFO)
    async with running(make_config(tmp_path / "data")) as server:
        yield server


@pytest.fixture
def sysop_key() -> asyncssh.SSHKey:
    """A fresh ed25519 key for a test's sysop."""
    return asyncssh.generate_private_key("ssh-ed25519")
