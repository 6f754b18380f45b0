"""The throwaway PostgreSQL server of the tests runs from the README's
test command in any environment (with a PATH without
/usr/sbin, 25 tests errored on ``runuser`` and left a folder owned by
postgres in /tmp)."""

from __future__ import annotations

import os
import socket

import pytest

from tests.support.postgres import PostgresServer, find_bin


def test_it_runs_and_is_removed_with_a_bare_path(monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # as under `env -i PATH=/usr/bin:/bin`
    server = PostgresServer(bin_dir)
    try:
        server.start()
        assert server.new_database().startswith("postgresql://")
    finally:
        server.remove()
    assert not server.root.exists()


def test_a_server_that_cannot_start_leaves_nothing(tmp_path: object) -> None:
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed")
    server = PostgresServer(bin_dir)
    server.bin_dir = server.root / "nowhere"  # initdb is not there
    with pytest.raises((RuntimeError, OSError)):
        server.start()
    server.remove()
    assert not server.root.exists()
    assert os.path.exists(str(bin_dir))


def test_a_port_taken_before_the_server_starts_is_not_a_failure() -> None:
    """Each test process (``pytest -n``) starts its own server: a port
    found free and then taken by another process's server or door before
    this one starts means another port, not a failed run."""
    bin_dir = find_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
    server = PostgresServer(bin_dir)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server.port = taken.getsockname()[1]
        try:
            server.start()
            assert server.port != taken.getsockname()[1]
            assert server.new_database().startswith(f"postgresql://cribbage@127.0.0.1:{server.port}/")
        finally:
            server.remove()
