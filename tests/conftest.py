"""Fixtures: a real door server on loopback with ephemeral ports (the
helpers behind it are in ``tests/support``)."""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import hypothesis
import pytest

from door.records.store import DATABASE_NAME
from door.server import DoorServer
from door.ui.canvas import Canvas
from door.ui.cells import cell_width
from tests.support.postgres import REQUIRE_ENV, PostgresServer, find_bin
from tests.support.server import make_config, running

hypothesis.settings.register_profile("door", deadline=None)
hypothesis.settings.load_profile("door")
"""No time limit on a property test's example: on a shared machine it
measures the machine, not the code (speed lives in bench/)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A new store's place, for a test of the records on both databases:
    an SQLite file, or a database on the throwaway PostgreSQL server."""
    return (tmp_path / DATABASE_NAME if request.param == "sqlite"
            else request.getfixturevalue("postgres").new_database())


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    """A running :class:`DoorServer` (telnet and SSH on free ports, the
    computer moving at once)."""
    logging.getLogger("door").setLevel(logging.INFO)
    async with running(make_config(tmp_path / "data")) as server:
        yield server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server for the whole run (``new_database()``
    gives each test its own database).  Skips without PostgreSQL or
    psycopg, except under ``.ci/run`` (``CRIBBAGE_REQUIRE_POSTGRES=1``),
    where that fails."""
    bin_dir = find_bin()
    missing = None
    if bin_dir is None:
        missing = "PostgreSQL is not installed (Debian: apt-get install postgresql)"
    else:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            missing = "psycopg is not installed (pip install -e '.[test]')"
    if missing is not None:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{missing}, and {REQUIRE_ENV}=1 asks for the PostgreSQL tests")
        pytest.skip(missing)
    assert bin_dir is not None
    server = PostgresServer(bin_dir)
    try:
        server.start()
    except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as exc:  # it cannot run here at all
        server.remove()  # (never a folder left behind, owned by postgres)
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"PostgreSQL cannot run here: {exc}")
        pytest.skip(f"PostgreSQL cannot run here: {exc}")
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def sysop_key() -> asyncssh.SSHKey:
    """A fresh ed25519 key for a test's sysop."""
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def clipped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every piece of text a screen put past the right edge (not blanks)."""
    cut: list[str] = []
    put = Canvas.put

    def watching(self: Canvas, row: int, col: int, text: str, style=None):  # type: ignore[no-untyped-def]
        edge = self.cols - (1 if row == self.rows - 1 else 0)  # the bottom-right cell is never written
        if self.rows >= 24 and 0 <= row < self.rows and col + cell_width(text) > edge:  # (screens, not parts)
            lost = text[max(0, edge - col):]
            if lost.strip():
                cut.append(f"{text!r} at column {col}")
        return put(self, row, col, text) if style is None else put(self, row, col, text, style)

    monkeypatch.setattr(Canvas, "put", watching)
    return cut
