"""A throwaway PostgreSQL server for a benchmark, started as the tests
start one (Debian's server binaries, an unprivileged user, a temporary
directory, loopback only) and stopped after."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.postgres import PostgresServer

__all__ = ["throwaway_postgres"]


@contextmanager
def throwaway_postgres() -> Iterator[PostgresServer | None]:
    """A running throwaway server (``new_database()`` gives each run its
    own database), stopped when the block ends; ``None``, after saying so,
    when PostgreSQL is not installed."""
    from tests.support.postgres import PostgresServer, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        print("PostgreSQL: skipped, it is not installed (Debian: apt-get install postgresql)")
        yield None
        return
    pg = PostgresServer(bin_dir)
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()
