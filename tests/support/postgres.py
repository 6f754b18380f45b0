"""A throwaway PostgreSQL server for tests: Debian's ``initdb`` and
``pg_ctl`` in a temporary folder, on a free loopback port, as an
unprivileged user (``postgres`` when the tests run as root, since the
server refuses to run as root: Python starts its commands as that user,
so no ``runuser`` need be on ``PATH``), stopped and removed at the end,
and removed too when it cannot start.

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
        self._as: dict[str, object] = {}
        """How its commands run: as ``postgres`` (uid, gid, no other groups) when the tests run as root."""
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self._as = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": [], "cwd": str(self.root),
                        "env": {**os.environ, "HOME": str(self.root), "USER": "postgres", "LOGNAME": "postgres"}}

    def _run(self, *args: str, timeout: float) -> subprocess.CompletedProcess[bytes]:
        """Run a PostgreSQL command (as ``postgres`` when the tests run as root)."""
        return subprocess.run(list(args), capture_output=True, timeout=timeout, **self._as)  # type: ignore[call-overload]

    def start(self) -> None:
        """initdb (trust authentication on loopback, superuser ``cribbage``)
        and start the server (on another free port if its own was taken
        meanwhile); returns once it accepts connections.  Raises
        ``RuntimeError`` with the server's log when it does not start."""
        done = self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
                         "-E", "UTF8", "--no-sync", timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace')}")
        for _ in range(2):  # (a free port taken between the look and the start, by a test in another process)
            try:
                self._start()
                return
            except RuntimeError as exc:
                if "could not bind" not in str(exc):
                    raise
                self.port = _free_port()
        self._start()

    def _start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off"
        done = self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-o",
                         options, "-w", "-t", "60", "start", timeout=90)
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
        if self.data.exists():
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", timeout=60)

    def restart(self) -> None:
        """Stop the server at once (connections dropped) and start it again
        on the same port."""
        self.stop()
        self._start()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
