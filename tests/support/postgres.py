"""A throwaway PostgreSQL server for tests: Debian's ``initdb`` and
``pg_ctl`` in a temporary folder, on a free loopback port, as an
unprivileged user (``postgres`` when the tests run as root, since the
server refuses to run as root), stopped at the end.

Without PostgreSQL installed the tests that need it skip with the reason;
``.ci/run`` sets ``CRIBBAGE_REQUIRE_POSTGRES=1`` so that there they fail
instead.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

__all__ = ["PostgresServer", "find_bin", "REQUIRE_ENV"]

REQUIRE_ENV = "CRIBBAGE_REQUIRE_POSTGRES"
"""Set to 1 (as ``.ci/run`` does) to make a missing PostgreSQL a failure."""


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (Debian keeps them out
    of ``PATH``, in ``/usr/lib/postgresql/<version>/bin``), or ``None``."""
    for pattern in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(pattern) / "initdb").exists() and (Path(pattern) / "pg_ctl").exists():
            return Path(pattern)
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL server in its own temporary folder; :meth:`start`,
    :meth:`new_database` for each test, :meth:`stop`.  Raises
    ``RuntimeError`` with the server's log when it does not start."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="cribbage-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "cribbage"
        self._run_as: str | None = "postgres" if os.geteuid() == 0 else None
        if self._run_as is not None:
            entry = pwd.getpwnam(self._run_as)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    def _command(self, *args: str) -> list[str]:
        if self._run_as is None:
            return list(args)
        return ["runuser", "-u", self._run_as, "--", *args]

    def start(self) -> None:
        """initdb (trust authentication on loopback, superuser ``cribbage``)
        and start the server; returns once it accepts connections."""
        subprocess.run(self._command(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", self.user,
                                     "--auth=trust", "-E", "UTF8", "--no-sync"),
                       check=True, capture_output=True, timeout=120)
        self._start()

    def _start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off"
        done = subprocess.run(self._command(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l",
                                            str(self.root / "log"), "-o", options, "-w", "-t", "60", "start"),
                              capture_output=True, timeout=90)
        if done.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr.decode(errors='replace')}\n{log}")

    def url(self, database: str = "postgres") -> str:
        """The connection URL of ``database`` on this server."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server (``pg_ctl stop -m mode``)."""
        subprocess.run(self._command(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                                     "stop"), capture_output=True, timeout=60)

    def restart(self) -> None:
        """Stop the server at once (connections dropped) and start it again
        on the same port."""
        self.stop()
        self._start()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
