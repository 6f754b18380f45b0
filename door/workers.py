"""``cribbage-door serve --workers N``: N serve processes on
the same telnet and SSH ports, so that one machine uses all its cores.

Each worker is a whole :class:`~door.server.DoorServer` binding the ports
with ``SO_REUSEPORT``: the kernel spreads new connections among the
workers' listeners, by the caller's address.  The workers share the store (the SQLite file, or
PostgreSQL) and join as its nodes (:mod:`door.sysop.node_link`), so who is
on line is known everywhere, a caller reaches the sysop at any worker's
console by being handed over (:mod:`door.caller.handover`), and one
account has one session across all of them.  Worker 0 alone listens on
the data folder's Unix sockets: the sysop console and the BBS node socket.

This process (the *supervisor*) serves nobody itself.  It makes what the
workers would otherwise race for (the SSH host key, the database's
schema), starts worker 0 (which binds port 0 to a free port when asked),
then the others on the ports worker 0 bound, and waits.  SIGTERM or
SIGINT stops every worker (each tells its callers, as one serve process
does) and then itself.  A worker that dies while serving is started again
after :data:`RESTART_DELAY` seconds, doubled while it keeps dying within
:data:`SETTLED` seconds of its start (up to :data:`RESTART_MAX`).  A
worker that cannot start (a port taken) stops them all: exit status 1.

Every connection from one address goes to one worker
(:mod:`door.net.steering`), so the per-address limits
(``max_per_address``, the wrong-password counts) hold for the workers
together; ``max_sessions`` holds per worker.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

from door.config import Config
from door.net.logs import configure as configure_logs
from door.net.ssh import load_host_key
from door.records.store import Store
from door.server import DoorServer, serve
from door.service import node_name

__all__ = ["run_workers", "MAX_WORKERS", "RESTART_DELAY", "RESTART_MAX", "SETTLED", "STOP_GRACE"]

log = logging.getLogger("door.workers")

MAX_WORKERS = 64
"""The most workers ``--workers`` takes."""

START_TIMEOUT = 60.0
"""Seconds a worker has to start listening."""

STOP_GRACE = 15.0
"""Seconds the workers have to stop after SIGTERM before they are killed."""

RESTART_DELAY = 1.0
"""Seconds before a worker that died is started again."""

RESTART_MAX = 60.0
"""The longest wait before a restart, in seconds."""

SETTLED = 30.0
"""Seconds after which a running worker counts as healthy (its next death
restarts it after :data:`RESTART_DELAY` again)."""


@dataclass
class _Worker:
    """Worker number ``index``: its process, when it was started
    (``time.monotonic()``), and how long to wait before starting it again
    should it die (seconds)."""

    index: int
    process: BaseProcess
    started: float
    delay: float = RESTART_DELAY


def _worker_main(config: Config, index: int, count: int, level: int, report: Connection,
                 lifeline: Connection) -> None:
    """A worker process: serve until SIGTERM, or until ``lifeline`` (a
    pipe whose other end only the supervisor holds) reads end of file: the
    supervisor died, and a worker never outlives it (a new supervisor
    would find its ports and console taken).  Tells the supervisor through
    ``report`` ``("ready", telnet_port, ssh_port, web_port)`` once listening, or
    ``("failed", why)``."""
    named = config.server.node_name
    configure_logs(level, worker=index, node=node_name(named, index, count) if named else "",
                   json=config.server.log_format == "json")

    def started(server: DoorServer) -> None:
        report.send(("ready", server.telnet_port, server.ssh_port, server.web_port))

    try:
        asyncio.run(serve(config, index, count, started, lifeline.fileno()))
    except Exception as exc:  # a port taken, the store unreachable: said once, then the supervisor decides
        logging.getLogger("door").error("worker %d cannot serve: %s", index, exc)
        try:
            report.send(("failed", str(exc)))
        except OSError:
            pass
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        pass


class _Supervisor:
    """The workers of one ``serve --workers``: starts them, starts again
    those that die (:meth:`watch`), and stops them all (:meth:`stop`);
    ``stopping`` is set by the signal handlers."""

    def __init__(self, config: Config, count: int, level: int) -> None:
        self.config = config
        self.count = count
        self.level = level
        self.context = multiprocessing.get_context("spawn")
        self.workers: dict[int, _Worker] = {}
        self.stopping = False
        self._lifeline: tuple[Connection, Connection] | None = None

    def start(self, index: int, timeout: float = START_TIMEOUT) -> tuple[int, int, int] | str:
        """Start worker ``index`` and wait until it listens: its ports, or
        why it could not start."""
        ours, theirs = self.context.Pipe(duplex=False)
        if self._lifeline is None:
            self._lifeline = self.context.Pipe(duplex=False)  # the supervisor keeps the write end, never writes
        process = self.context.Process(target=_worker_main, name=f"cribbage-door worker {index}",
                                       args=(self.config, index, self.count, self.level, theirs, self._lifeline[0]))
        process.start()
        theirs.close()
        self.workers[index] = _Worker(index, process, time.monotonic())
        deadline = time.monotonic() + timeout
        while not self.stopping:
            if wait([ours, process.sentinel], max(0.0, min(1.0, deadline - time.monotonic()))):
                try:
                    message = ours.recv()
                except (EOFError, OSError):
                    return f"worker {index} ended (exit status {process.exitcode}) before it listened"
                finally:
                    ours.close()
                if message[0] == "ready":
                    log.info("worker %d (pid %s) listening", index, process.pid)
                    return int(message[1]), int(message[2]), int(message[3])
                return str(message[1])
            if time.monotonic() >= deadline:
                ours.close()
                return f"worker {index} did not start listening within {timeout:.0f} s"
        ours.close()
        return "stopping"

    def stop(self) -> None:
        """SIGTERM to every worker; kill those still running after :data:`STOP_GRACE`."""
        self.stopping = True
        for worker in self.workers.values():
            if worker.process.is_alive() and worker.process.pid is not None:
                os.kill(worker.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for worker in self.workers.values():
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                log.warning("worker %d did not stop within %.0f s: killed", worker.index, STOP_GRACE)
                worker.process.kill()
                worker.process.join()

    def watch(self, wake: int) -> None:
        """Until a signal (a byte on ``wake``): start again any worker that dies."""
        restarts: dict[int, float] = {}  # worker index -> when to start it again
        while not self.stopping:
            sentinels = [w.process.sentinel for i, w in self.workers.items() if i not in restarts]
            timeout = max(0.0, min(restarts.values()) - time.monotonic()) if restarts else None
            ready = wait([*sentinels, wake], timeout)
            if wake in ready or self.stopping:
                return
            now = time.monotonic()
            for index, worker in self.workers.items():
                if index not in restarts and not worker.process.is_alive():
                    worker.process.join()
                    if now - worker.started >= SETTLED:
                        worker.delay = RESTART_DELAY
                    log.error("worker %d ended (exit status %s): starting it again in %.0f s", index,
                              worker.process.exitcode, worker.delay)
                    restarts[index] = now + worker.delay
            for index, when in list(restarts.items()):
                if when <= time.monotonic():
                    del restarts[index]
                    delay = min(self.workers[index].delay * 2, RESTART_MAX)
                    outcome = self.start(index)
                    self.workers[index].delay = delay
                    if isinstance(outcome, str) and outcome != "stopping":
                        log.error("worker %d: %s", index, outcome)


def _prepare(config: Config) -> None:
    """What the workers would race for: the data folder, the SSH host key,
    the database at today's schema.  Raises ``OSError``,
    :class:`~door.records.store.StoreError`."""
    data_dir = Path(config.server.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    load_host_key(data_dir)

    async def migrate() -> None:
        store = await Store.open(config.store.target(data_dir))
        await store.close()

    asyncio.run(migrate())


def run_workers(config: Config, count: int, level: int = logging.INFO) -> int:
    """Serve with ``count`` worker processes (1 to :data:`MAX_WORKERS`)
    until SIGTERM or SIGINT; ``level``: the workers' log level.  Returns
    the exit status: 0 after a signal, 1 when a worker could not start.
    Raises ``ValueError`` for a ``count`` out of range, and what
    :func:`_prepare` raises."""
    if not 1 <= count <= MAX_WORKERS:
        raise ValueError(f"--workers takes 1 to {MAX_WORKERS}, not {count}")
    _prepare(config)
    supervisor = _Supervisor(config, count, level)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    old_wakeup = signal.set_wakeup_fd(wake_write)

    def on_signal(signum: int, frame: object) -> None:
        supervisor.stopping = True

    old_handlers = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        first = supervisor.start(0)
        if isinstance(first, str):
            if first != "stopping":
                log.error("%s", first)
            supervisor.stop()
            return 0 if first == "stopping" else 1
        # the others bind what worker 0 bound
        config.server.telnet_port, config.server.ssh_port, config.web.port = first
        for index in range(1, count):
            outcome = supervisor.start(index)
            if isinstance(outcome, str):
                if outcome != "stopping":
                    log.error("%s", outcome)
                supervisor.stop()
                return 0 if outcome == "stopping" else 1
        log.info("%d workers on telnet port %d and ssh port %d%s", count, first[0], first[1],
                 f" and web port {first[2]}" if config.web.enabled else "")
        supervisor.watch(wake_read)
        log.info("stopping %d workers", count)
        supervisor.stop()
        log.info("door stopped")
        return 0
    finally:
        signal.set_wakeup_fd(old_wakeup)
        for sig, handler in old_handlers.items():
            signal.signal(sig, handler)
        os.close(wake_read)
        os.close(wake_write)
