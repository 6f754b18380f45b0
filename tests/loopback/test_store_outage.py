"""A PostgreSQL store that goes away while the door serves: the outage
is logged once when it starts, once a minute while it lasts and once when
it ends (not at every heartbeat), and the URL's password is in no line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from door.records.outage import OutageLog
from door.records.postgres_database import masked
from tests.support.postgres import PostgresServer, find_bin
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")

PASSWORD = "door-s3cret%40pw"
"""The URL's password as written (percent-encoded: the server, trusting
loopback, takes any)."""
SECRETS = ("s3cret",)


@pytest.fixture
def own_postgres(postgres: PostgresServer) -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, to stop and start (the
    session's is shared; ``postgres`` is asked for its skip rules)."""
    bin_dir = find_bin()
    assert bin_dir is not None
    server = PostgresServer(bin_dir)
    server.start()
    try:
        yield server
    finally:
        server.remove()


async def test_an_outage_is_logged_at_its_start_and_end_without_the_password(
        tmp_path: Path, own_postgres: PostgresServer, caplog: pytest.LogCaptureFixture) -> None:
    url = own_postgres.new_database().replace(f"{own_postgres.user}@", f"{own_postgres.user}:{PASSWORD}@")
    config = make_config(tmp_path / "data")
    config.store.url = url
    caplog.set_level(logging.INFO)
    async with running(config) as door:
        assert door.link is not None
        await asyncio.sleep(1.0)
        caplog.clear()
        await asyncio.to_thread(own_postgres.stop)
        await asyncio.sleep(4.0)  # (eight heartbeats, four LISTEN attempts: each logged a warning before)
        during = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(during) <= 2, [r.getMessage() for r in during]
        assert sum("the store cannot be reached" in r.getMessage() for r in during) == 1
        caplog.clear()
        await asyncio.to_thread(own_postgres._start)
        deadline = asyncio.get_running_loop().time() + 10
        while not any("the store is reached again" in r.getMessage() for r in caplog.records):
            assert asyncio.get_running_loop().time() < deadline, "the outage's end was not logged"
            await asyncio.sleep(0.1)
    for secret in SECRETS:
        assert secret not in caplog.text


def test_the_outage_log_says_the_start_once_a_minute_and_the_end(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    outage = OutageLog("db", every=60.0, clock=lambda: now[0])
    caplog.set_level(logging.INFO)
    outage.reached()  # (nothing to end)
    for second in range(0, 150):
        now[0] = float(second)
        outage.failed("refused")
        outage.failed("refused")
    now[0] = 150.0
    outage.reached()
    outage.reached()
    lines = [r.getMessage() for r in caplog.records if r.name == "door.records.outage"]  # (not another test's door)
    assert len(lines) == 4, lines  # the start, at 60 s, at 120 s, the end
    assert "cannot be reached" in lines[0] and "120 s (241 failed attempts)" in lines[2]
    assert lines[3] == "db: the store is reached again after 150 s (300 failed attempts)"


@pytest.mark.parametrize("url", [
    "postgresql://ann:s3cret@db/cribbage",
    "postgresql://ann:s3/cret@x@db:5432/cribbage",
    "postgres://ann@db/cribbage?sslmode=require&password=s3cret",
    "postgresql://ann:s3cret@[::1]:5432/cribbage?PASSWORD=s3cret",
    "ann:s3cret@db/cribbage",  # (not a URL at all: a mistake in door.toml, told back in the error)
])
def test_a_urls_password_is_masked_wherever_it_is_written(url: str) -> None:
    shown = masked(url)
    assert "s3" not in shown and "***" in shown and "ann" in shown
