"""Many callers at once: N telnet callers each play a whole game against the
computer at human pace, and the door's latency, CPU and memory are measured.

    python3 -m bench.load                     # 100, 500 and 1,000 callers
    python3 -m bench.load --sessions 200 --game-to 61
    python3 -m bench.load --sessions 100 500 --via telnet web   # telnet, then the web page's WebSocket
    python3 -m bench.load --sessions 100 --via telnet protocol   # telnet callers, then programs (game protocol)

Each run starts a real ``cribbage-door serve`` process (house rules from the
flags, the computer at its default pace) and a second process that opens N
in-process telnetlib3 connections on loopback, spread over ``--ramp``
seconds.  Every caller reads its screen through pyte and plays as
``tests.player.Player`` does, one key at a time with a think time drawn
uniformly from 0.5-2 s before each key.

Latency is the time from a key written to the socket to the first byte of
the screen update that answers it, taken in the callers' process; that
process also reports how late its own event loop ran (``client lag``), the
part of the figure that is the load generator's and not the door's.  Server
CPU is user + system time from ``/proc/PID/stat`` over the run (as a share of
one core), of the door's process and of the processes it started (where the
computer thinks, ``[computer] processes``), split into the event loop's
thread (``/proc/PID/task/PID/stat``), the process's other threads (the
store's) and the thinking processes; peak memory is ``VmHWM`` (peak
resident set) of the door's process, and of its thinking processes apart.  Errors are callers that failed to
connect, were cut off, or did not finish in ``--time-limit`` seconds, keys
no screen update answered within 10 s, and ``ERROR`` or ``Traceback`` lines
in the server's log.  Every run stops by itself after ``--time-limit``.
With two cores or more, the server (with its thinking processes) runs on one
and the callers' process on another (``os.sched_setaffinity``; ``--no-pin``
leaves them to the scheduler), so that the server's figures are its own.
With ``LOAD_DEBUG=1`` the callers print the screen of any key that went
unanswered or game that did not end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ANSWER_TIMEOUT = 10.0
"""Seconds a key may go without a screen update before it counts as an error."""

THINK = (0.5, 2.0)
"""Seconds a caller thinks before each key (drawn uniformly)."""

QUIET = 0.15
"""Seconds without output before a caller reads its screen and decides."""


# -- the callers' process ------------------------------------------------------

def _split_keys(data: bytes) -> list[bytes]:
    """``data`` as the separate keys a person types (an arrow's escape
    sequence is one key)."""
    return [m.group(0) for m in re.finditer(rb"\x1b\[[0-9;]*[A-Za-z~]|.", data, re.S)]


class Stats:
    """What every caller in the process measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.screens: list[str] = []
        """The screen each key was pressed on (its prompt's first words), by key."""
        self.started = time.monotonic()
        self.times: list[float] = []
        """Seconds from the start of the run to each key, by key."""
        self.errors: list[str] = []
        self.unanswered = 0
        self.games = 0
        self.keys = 0
        self.bytes = 0
        self.lag: list[float] = []


async def _protocol_caller(index: int, port: int, stats: Stats, deadline: float, rng: random.Random) -> None:
    """A program playing the computer by the game protocol (``/api/v1/play``)
    at the same human pace: a think time before each move; its latency is
    from a move sent to the first message that answers it."""
    from websockets.asyncio.client import connect

    try:
        ws = await connect(f"ws://127.0.0.1:{port}/api/v1/play", compression=None)
    except (TimeoutError, OSError) as exc:
        stats.errors.append(f"caller {index}: cannot connect: {exc}")
        return
    sent_at: float | None = None
    sent_on = ""
    try:
        async for text in ws:
            now = time.monotonic()
            stats.bytes += len(text)
            if sent_at is not None:
                stats.latencies.append(now - sent_at)
                stats.screens.append(sent_on)
                stats.times.append(sent_at - stats.started)
                sent_at = None
            message = json.loads(text)
            kind = message["type"]
            reply: dict[str, Any] | None = None
            if kind == "hello":
                reply = {"type": "login", "name": f"Load{index:04d}"}
            elif kind == "welcome":
                reply = {"type": "play_computer"}
            elif kind == "ask":
                await asyncio.sleep(rng.uniform(*THINK))
                _check(deadline)
                ask = message["ask"]
                reply = ({"type": "discard", "cards": message["hand"][:2]} if ask == "discard" else
                         {"type": "play", "card": message["playable"][0]} if ask == "play" else
                         {"type": "claim", "points": 0})
                sent_at, sent_on = time.monotonic(), ask
                stats.keys += 1
            elif kind == "game_over":
                stats.games += 1
                reply = {"type": "leave"}
            elif kind == "bye":
                break
            if reply is not None:
                await ws.send(json.dumps(reply))
    except TimeoutError:
        stats.errors.append(f"caller {index}: no end of game within the time limit")
    except Exception as exc:  # (a dropped connection, a message not as published)
        stats.errors.append(f"caller {index}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        await ws.close()


async def _one_caller(index: int, port: int, stats: Stats, deadline: float, rng: random.Random,
                      name: str | None = None, password: str | None = None, via: str = "telnet") -> None:
    if via == "protocol":
        return await _protocol_caller(index, port, stats, deadline, rng)
    import telnetlib3
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    from tests.support.player import ClientScreen, Player

    class PacedTerminal(ClientScreen):
        """The test screen without its byte log, with cached lines and the
        time of the first byte after each key."""

        def __init__(self) -> None:
            super().__init__(80, 24)
            self._lines: list[str] | None = None
            self.sent_at: float | None = None
            self.sent_on = ""
            self.last_rx = 0.0

        def feed(self, data: bytes) -> None:
            now = time.monotonic()
            if self.sent_at is not None:
                stats.latencies.append(now - self.sent_at)
                stats.screens.append(self.sent_on)
                stats.times.append(self.sent_at - stats.started)
                self.sent_at = None
            self.last_rx = now
            self.received += len(data)
            self.stream.feed(data)
            self._lines = None
            self.changed.set()

        def lines(self) -> list[str]:
            if self._lines is None:  # (only the cells written: a blank is not looked up 1,920 times)
                buf = self.screen.buffer
                lines = []
                for r in range(24):
                    chars = [" "] * 80
                    for c, cell in buf[r].items():
                        if c < 80:
                            chars[c] = cell.data
                    lines.append("".join(chars))
                self._lines = lines
            return self._lines

    term = PacedTerminal()
    try:
        if via == "web":  # the page's WebSocket: the door's bytes, and the window's size
            ws = await connect(f"ws://127.0.0.1:{port}/ws", origin=Origin(f"http://127.0.0.1:{port}"),
                               compression=None)
            await ws.send('{"cols": 80, "rows": 24}')
            writer: Any = _WebWriter(ws)
        else:
            reader, writer = await telnetlib3.open_connection(
                "127.0.0.1", port, encoding=False, term="xterm", cols=80, rows=24, connect_minwait=0.05)
    except (TimeoutError, OSError) as exc:
        stats.errors.append(f"caller {index}: cannot connect: {exc}")
        return

    async def pump() -> None:
        if via == "web":
            with contextlib.suppress(Exception):
                async for message in ws:
                    if isinstance(message, bytes):
                        term.feed(message)
            return
        while data := await reader.read(65536):
            term.feed(cast(bytes, data))  # (encoding=False: bytes, whatever telnetlib3's hints say)

    pumping = asyncio.create_task(pump())

    async def send(data: bytes) -> None:
        for key in _split_keys(data):
            await asyncio.sleep(rng.uniform(*THINK))
            _check(deadline)
            if pumping.done():
                raise ConnectionError("the door hung up")
            term.sent_on = " ".join(term.prompt().split()[:3]) or "(no prompt)"
            term.sent_at = time.monotonic()
            writer.write(key)
            stats.keys += 1
            while term.sent_at is not None:  # wait for the answer before the next key
                if time.monotonic() - term.sent_at > ANSWER_TIMEOUT:
                    stats.unanswered += 1
                    if os.environ.get("LOAD_DEBUG"):
                        print(f"unanswered {key!r}:\n{term.text()}", file=sys.stderr)
                    term.sent_at = None
                    break
                term.changed.clear()
                try:
                    await asyncio.wait_for(term.changed.wait(), 1.0)
                except TimeoutError:
                    pass

    player = Player(term, send, name=name or f"Load{index:04d}", password=password)
    try:
        await asyncio.wait_for(_play(player, term, deadline), max(1.0, deadline - time.monotonic()) + 5.0)
        stats.games += 1
        await asyncio.wait_for(player.leave(), 30)
        await asyncio.wait_for(pumping, 30)
    except TimeoutError:
        stats.errors.append(f"caller {index}: no end of game within the time limit; prompt {term.prompt()!r}")
        if os.environ.get("LOAD_DEBUG"):
            print(term.text(), file=sys.stderr)
    except (ConnectionError, AssertionError, OSError) as exc:
        stats.errors.append(f"caller {index}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        stats.bytes += term.received
        writer.close()
        pumping.cancel()


class _WebWriter:
    """A WebSocket written to as a telnet writer is (``write``, ``close``)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self._sending: set[asyncio.Task[None]] = set()

    def write(self, data: bytes) -> None:
        task = asyncio.ensure_future(self.ws.send(data))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def close(self) -> None:
        asyncio.ensure_future(self.ws.close())


def _check(deadline: float) -> None:
    """Raise :class:`asyncio.TimeoutError` once ``deadline`` (``time.monotonic``) has passed.

    The callers stop at the time limit by looking at the clock, not only
    by being cancelled: Python 3.11's ``wait_for`` returns a result rather
    than the cancellation when both arrive at once (each key's wait for
    its answer is one), and 1,000 callers then played on past the limit."""
    if time.monotonic() > deadline:
        raise TimeoutError


async def _play(player: Any, term: Any, deadline: float = float("inf")) -> None:
    """``Player.play`` for a paced caller: decide only once the screen has
    been quiet for :data:`QUIET` seconds; raises :class:`asyncio.TimeoutError`
    once ``deadline`` (``time.monotonic``) has passed."""
    last_screen = ""
    last_action = 0.0
    while True:
        _check(deadline)
        while time.monotonic() - term.last_rx < QUIET:
            await asyncio.sleep(QUIET)
        term.changed.clear()  # before reading: a change from here on wakes the wait below
        screen = "\n".join(term.lines())
        stale = time.monotonic() - last_action > 3.0
        if screen != last_screen or stale:
            acted = await player.act(term.prompt(), screen)
            if acted == "over":
                return
            last_screen = screen
            if acted:
                last_action = time.monotonic()
                continue
        try:
            await asyncio.wait_for(term.changed.wait(), 1.0)
        except TimeoutError:
            pass


async def _watch_lag(stats: Stats, stop: asyncio.Event) -> None:
    """How late the callers' event loop wakes from a 100 ms sleep (seconds)."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.1)
        stats.lag.append(time.monotonic() - t - 0.1)


async def run_callers(n: int, port: int, ramp: float, time_limit: float, seed: int, via: str = "telnet") -> Stats:
    """Run ``n`` callers against the door on ``port`` (``via`` telnet, or
    web: the page's WebSocket); returns their figures."""
    stats = Stats()
    stop = asyncio.Event()
    lag = asyncio.create_task(_watch_lag(stats, stop))
    deadline = time.monotonic() + time_limit

    async def start(i: int) -> None:
        await asyncio.sleep(ramp * i / n)
        await _one_caller(i + 1, port, stats, deadline, random.Random(seed * 100003 + i), via=via)

    await asyncio.gather(*(start(i) for i in range(n)))
    stop.set()
    await lag
    return stats


def callers_main(args: argparse.Namespace) -> None:
    """The callers' process: play, then write the figures to ``args.out`` (JSON)."""
    t0 = time.monotonic()
    # the callers hold many small objects (1,000 pyte screens, about two
    # million cells); a collection that traced them stopped this process
    # for 100-300 ms at a time (even with thresholds of 200,000, 50, 1,000,
    # up to 0.16 s as 1,000 callers arrived), which showed up as the door's
    # latency: this process, which ends with its run, does not collect at all
    gc.freeze()
    gc.disable()
    stats = asyncio.run(run_callers(args.callers, args.port, args.ramp, args.time_limit, args.seed, args.caller_via))
    with open(args.out, "w") as out:
        json.dump({"latencies": stats.latencies, "screens": stats.screens, "times": stats.times,
                   "errors": stats.errors, "unanswered": stats.unanswered,
                   "games": stats.games, "keys": stats.keys, "bytes": stats.bytes, "lag": stats.lag,
                   "seconds": time.monotonic() - t0}, out)


# -- the measuring process -------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_times(pid: int, thread: int | None = None) -> tuple[float, float]:
    """The process's user and system CPU time so far (seconds); with
    ``thread``, that thread's alone (the main thread's id is the process's)."""
    stat = f"/proc/{pid}/task/{thread}/stat" if thread is not None else f"/proc/{pid}/stat"
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _cpu_seconds(pid: int) -> float:
    return sum(_cpu_times(pid))


def _descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (the door's thinking
    processes; Linux's ``/proc/PID/task/TID/children``)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *_descendants(int(child))]
    except OSError:  # it ended meanwhile
        pass
    return found


def _workers_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes ``pids`` (0 for any that ended)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += _cpu_seconds(pid)
    return total


def _status_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def by_window(samples: Iterable[tuple[float, float]], span: float = 30.0) -> list[list[float]]:
    """The values of ``samples`` (pairs of seconds into the run and a
    value) in windows of ``span`` seconds, in order of time (a window
    without samples is left out)."""
    windows: dict[int, list[float]] = {}
    for t, x in samples:
        windows.setdefault(int(t // span), []).append(x)
    return [xs for _, xs in sorted(windows.items())]


def p99_and_max_by_window(samples: Iterable[tuple[float, float]]) -> str:
    """The p99 and the largest value of ``samples`` (seconds, value) in
    each 30 s, as ``"p99/max, p99/max, ..."`` (rounded)."""
    return ", ".join(f"{_quantile(xs, .99):.0f}/{max(xs):.0f}" for xs in by_window(samples))


def _loops_cpu(pids: list[int]) -> float:
    """CPU seconds of the main threads of the processes ``pids`` (the
    door's event loops; 0 for any that ended)."""
    return sum(sum(_cpu_times(pid, pid)) for pid in pids if Path(f"/proc/{pid}").exists())


class DoorProcess:
    """A ``cribbage-door serve`` process on free loopback ports, in a
    temporary folder, with its log in a file (see :func:`door_process`)."""

    def __init__(self, tmp: Path, server: subprocess.Popen[bytes], telnet_port: int, web_port: int = 0) -> None:
        self.tmp = tmp
        self.server = server
        self.pid = server.pid
        self.telnet_port = telnet_port
        self.web_port = web_port
        self.callers_port = telnet_port
        """The port :meth:`start_callers` gives the callers (the web port for web callers)."""
        self.log = tmp / "server.log"
        self._t0 = time.monotonic()
        self._callers: subprocess.Popen[bytes] | None = None
        self.final_log = ""
        """The whole log, once the server has stopped."""
        self.cores: tuple[int, int] | None = None
        """The server's core and the callers' core when pinned (see :func:`door_process`)."""
        self.workers: list[int] = []
        """The server's own processes (where its computer thinks), pinned with it."""

    def log_text(self) -> str:
        """The server's log so far."""
        return self.log.read_text()

    def log_errors(self) -> list[str]:
        """``ERROR`` and ``Traceback`` lines of the log (at most 20)."""
        return [line for line in self.log_text().splitlines() if "ERROR" in line or "Traceback" in line][:20]

    def start_callers(self, module: str, *args: str) -> subprocess.Popen[bytes]:
        """Start ``python3 -m module *args --port P --out F`` (a callers'
        process) and the clock of :meth:`seconds`."""
        self._t0 = time.monotonic()
        self._callers = subprocess.Popen(
            [sys.executable, "-m", module, *args, "--port", str(self.callers_port), "--out", str(self.tmp / "callers.json")],
            cwd=Path(__file__).resolve().parent.parent)
        if self.cores is not None:
            os.sched_setaffinity(self._callers.pid, {self.cores[1]})
        return self._callers

    def seconds(self) -> float:
        """Seconds since the callers started."""
        return time.monotonic() - self._t0

    def callers_result(self, failed: dict[str, Any]) -> dict[str, Any]:
        """What the callers' process wrote, or ``failed`` if it wrote nothing."""
        out = self.tmp / "callers.json"
        return json.loads(out.read_text()) if out.exists() else dict(failed)


@contextlib.contextmanager
def door_process(config: str, profile: str | None = None, pin: bool = False,
                 gc_probe: bool = False, args: Sequence[str] = ()) -> Iterator[DoorProcess]:
    """Run a server with ``config`` (TOML, added to the ports and data
    folder) until the block ends; ``profile``: a file for its cProfile
    statistics; ``pin``: the server on one core and the callers' process
    (:meth:`DoorProcess.start_callers`) on another, so that the server's
    figures are its own (ignored with fewer than two cores); ``gc_probe``:
    run it as :mod:`bench.gc_probe` (the collector's pauses in the log at
    exit); ``args``: more arguments of ``serve`` (``--workers 2``).  Raises ``RuntimeError`` when it does not start in 30 s."""
    tmp = Path(tempfile.mkdtemp(prefix="door-bench-"))
    try:
        telnet_port, ssh_port, web_port = _free_port(), _free_port(), _free_port()
        path = tmp / "door.toml"
        path.write_text(f'[server]\nhost = "127.0.0.1"\ntelnet_port = {telnet_port}\nssh_port = {ssh_port}\n'
                        f'data_dir = "{tmp / "data"}"\nreader_wait = 0\n\n[web]\nport = {web_port}\n\n{config}')
        log = tmp / "server.log"
        door: DoorProcess | None = None
        with log.open("w") as log_file:
            profiling = ["-m", "cProfile", "-o", profile] if profile else []
            module = "bench.gc_probe" if gc_probe else "door.cli"
            server = subprocess.Popen([sys.executable, *profiling, "-m", module, "serve", "--config", str(path),
                                       *args],
                                      stderr=log_file, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while "telnet listening" not in log.read_text():
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{log.read_text()}")
                time.sleep(0.1)
            door = DoorProcess(tmp, server, telnet_port, web_port)
            until = time.monotonic() + 5  # its thinking process starts with it ([computer] processes = 0: none)
            while not _descendants(server.pid) and time.monotonic() < until:
                time.sleep(0.1)
            door.workers = _descendants(server.pid)
            cores = sorted(os.sched_getaffinity(0))
            if pin and len(cores) >= 2:
                door.cores = (cores[0], cores[1])
                for pid in (server.pid, *door.workers):
                    for task in Path(f"/proc/{pid}/task").iterdir():  # every thread of it
                        os.sched_setaffinity(int(task.name), {cores[0]})
            yield door
        finally:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
            if door is not None:
                door.final_log = log.read_text()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started itself (not theirs)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def one_run(sessions: int, game_to: int, ramp: float, time_limit: float, seed: int,
            profile: str | None = None, pin: bool = True, gc_probe: bool = False, via: str = "telnet",
            workers: int = 1) -> dict[str, Any]:
    """Start a server and ``sessions`` callers; returns the figures of the run.
    ``profile``: a file for the server's cProfile statistics; ``via``:
    telnet, or web (the page's WebSocket); ``workers``: ``serve
    --workers`` (more than 1: nothing pinned; the event loop's figures
    are the workers' main threads together, memory their peaks added)."""
    config = (f"[rules]\ngame_to = {game_to}\n\n"
              f"[limits]\nmax_sessions = {sessions + 10}\nmax_per_address = {sessions + 10}\n"
              # (every caller comes from 127.0.0.1: the pre-login budgets of one address and one network too)
              f"prelogin_total = {sessions + 10}\nprelogin_per_address = {sessions + 10}\n"
              f"prelogin_per_network = {sessions + 10}\n")
    args = ("--workers", str(workers)) if workers > 1 else ()
    with door_process(config, profile, pin and workers == 1, gc_probe, args) as door:
        if workers > 1:  # the supervisor's children serve; theirs think
            until = time.monotonic() + 10
            while len(_children(door.pid)) < workers and time.monotonic() < until:
                time.sleep(0.1)
            time.sleep(2.0)  # (each starts its thinking process as it starts)
            door.workers = _descendants(door.pid)
        loops = [door.pid] if workers == 1 else _children(door.pid)
        thinking = [pid for pid in door.workers if pid not in loops]
        idle_kib = _status_kib(door.pid, "VmRSS")
        user0, system0 = _cpu_times(door.pid)
        loop0 = _loops_cpu(loops)
        workers0, thinking0 = _workers_cpu(door.workers), _workers_cpu(thinking)
        door.callers_port = door.web_port if via in ("web", "protocol") else door.telnet_port
        callers = door.start_callers("bench.load", "--callers", str(sessions), "--ramp", str(ramp),
                                     "--time-limit", str(time_limit), "--seed", str(seed), "--caller-via", via)
        samples: list[tuple[float, float]] = []
        loop_samples: list[tuple[float, float]] = []
        while callers.poll() is None:
            time.sleep(1.0)
            samples.append((time.monotonic(), _cpu_seconds(door.pid) + _workers_cpu(door.workers)))
            loop_samples.append((samples[-1][0], _loops_cpu(loops)))
        wall = door.seconds()
        user, system = _cpu_times(door.pid)
        loop = _loops_cpu(loops) - loop0
        thinking_cpu = _workers_cpu(thinking) - thinking0
        all_cpu = _workers_cpu(door.workers) - workers0
        user, system = user - user0, system - system0
        cpu = user + system + all_cpu
        peak_kib = sum(_status_kib(pid, "VmHWM") for pid in loops if Path(f"/proc/{pid}").exists())
        workers_kib = sum(_status_kib(pid, "VmHWM") for pid in thinking if Path(f"/proc/{pid}").exists())
        result = door.callers_result({"latencies": [], "errors": ["the callers' process failed"], "unanswered": 0,
                                      "games": 0, "keys": 0, "bytes": 0, "lag": []})
        log_errors = door.log_errors()
    collector = [line for line in door.final_log.splitlines() if line.startswith(("gc", "loop"))]
    busiest = max(((c2 - c1) / (t2 - t1) for (t1, c1), (t2, c2) in zip(samples, samples[5:])), default=0.0)
    by_window = [(round(100 * (c2 - c1) / (t2 - t1)), round(100 * (l2 - l1) / (t2 - t1)))
                 for (t1, c1), (t2, c2), (_, l1), (_, l2)
                 in zip(samples[::30], samples[30::30], loop_samples[::30], loop_samples[30::30])]
    return {"sessions": sessions, "via": via, "games": result["games"], "keys": result["keys"],
            "latencies": result["latencies"], "lag": result["lag"],
            "screens": result.get("screens", []), "times": result.get("times", []),
            "errors": result["errors"] + log_errors, "unanswered": result["unanswered"],
            "wall": wall, "cpu": cpu, "loop_cpu": loop, "workers_cpu": thinking_cpu, "serve_workers": workers,
            "workers_mib": workers_kib / 1024, "system": system, "busiest": busiest, "by_window": by_window, "peak_mib": peak_kib / 1024, "idle_mib": idle_kib / 1024,
            "bytes": result["bytes"], "pinned": door.cores, "collector": collector}


def report(r: dict[str, Any]) -> None:
    """Print one run's figures."""
    ms = [x * 1000 for x in r["latencies"]]
    lag = [x * 1000 for x in r["lag"]]
    pinned = f"server on core {r['pinned'][0]}, callers on core {r['pinned'][1]}" if r["pinned"] else "not pinned"
    if r.get("serve_workers", 1) > 1:
        pinned += f", serve --workers {r['serve_workers']}"
    print(f"{r['sessions']} {r.get('via', 'telnet')} callers: {r['games']} games finished in {r['wall']:.0f} s, {r['keys']} keys, "
          f"{r['bytes'] / r['sessions'] / 1024:.1f} KiB per caller ({pinned})")
    if ms:
        print(f"  key to screen: p50 {_quantile(ms, .5):.1f} ms, p90 {_quantile(ms, .9):.1f} ms, "
              f"p99 {_quantile(ms, .99):.1f} ms, max {max(ms):.0f} ms ({len(ms)} keys answered)")
    if ms and r.get("screens"):
        by_screen: dict[str, list[float]] = {}
        for screen, x in zip(r["screens"], ms):
            by_screen.setdefault(screen, []).append(x)
        worst = sorted(by_screen.items(), key=lambda kv: -_quantile(kv[1], .99))[:4]
        print("  slowest screens (p99): " + "; ".join(f"{name!r} {_quantile(xs, .99):.0f} ms ({len(xs)} keys)"
                                                       for name, xs in worst))
        print("  p99/max by 30 s of the run: " + p99_and_max_by_window(zip(r["times"], ms)) + " ms")
    if lag:
        print(f"  client lag (the load generator's own event loop): p50 {_quantile(lag, .5):.1f} ms, "
              f"p99 {_quantile(lag, .99):.1f} ms, max {max(lag):.0f} ms")
        lag_at = itertools.accumulate(0.1 + x / 1000 for x in lag)  # (a sample each 100 ms of sleep and its lateness)
        print("  client lag p99/max by 30 s of the run: " + p99_and_max_by_window(zip(lag_at, lag)) + " ms")
    print(f"  server CPU: {r['cpu']:.1f} s over {r['wall']:.0f} s = {100 * r['cpu'] / r['wall']:.0f}% of one core "
          f"(busiest 5 s: {100 * r['busiest']:.0f}%), {1000 * r['cpu'] / max(1, r['keys']):.2f} ms per key "
          f"({1000 * r['system'] / max(1, r['keys']):.2f} ms of it in the kernel), "
          f"{1000 * r['cpu'] / max(1, r['games']):.0f} ms per game")
    if r.get("by_window"):
        print("  server CPU by 30 s of the run, all / the event loop's thread: "
              + ", ".join(f"{a}/{b}%" for a, b in r["by_window"]))
    if "loop_cpu" in r:
        keys = max(1, r["keys"])
        workers = r.get("workers_cpu", 0.0)
        print(f"  of which the event loop's thread {1000 * r['loop_cpu'] / keys:.2f} ms per key, its other threads "
              f"{1000 * (r['cpu'] - r['loop_cpu'] - workers) / keys:.2f} ms, its thinking processes "
              f"{1000 * workers / keys:.2f} ms")
    print(f"  server memory: peak {r['peak_mib']:.1f} MiB resident (idle {r['idle_mib']:.1f} MiB), "
          f"its thinking processes {r.get('workers_mib', 0.0):.1f} MiB")
    for line in r.get("collector", []):
        print(f"  {line}")
    print(f"  errors: {len(r['errors']) + r['unanswered']} ({r['unanswered']} keys unanswered)")
    for line in r["errors"][:10]:
        print(f"    {line}")


def add_common_arguments(parser: argparse.ArgumentParser, time_limit: float) -> None:
    """The flags ``bench.load`` and ``bench.soak`` share, and the hidden
    ones of their callers' processes."""
    parser.add_argument("--game-to", type=int, default=121, choices=[61, 121], help="points in a game")
    parser.add_argument("--time-limit", type=float, default=time_limit,
                        help=f"seconds after which a run stops, finished or not (default {time_limit:g})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--callers", type=int, help=argparse.SUPPRESS)  # the callers' process
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--caller-via", default="telnet", help=argparse.SUPPRESS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[100, 500, 1000],
                        help="callers at once, one run for each figure (default: 100 500 1000)")
    parser.add_argument("--ramp", type=float, default=None,
                        help="seconds over which the callers arrive (default: one second per 50 callers)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, statistics to FILE")
    parser.add_argument("--gc-probe", action="store_true",
                        help="report the server's collector pauses (runs it as bench.gc_probe)")
    parser.add_argument("--loop-probe", action="store_true",
                        help="report where the event loop's CPU went, by callback and by screen "
                             "(bench.loop_probe; runs the server as bench.gc_probe)")
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="leave the server and the callers to the scheduler (default: one core each)")
    parser.add_argument("--workers", type=int, default=1,
                        help="serve --workers N (more than 1: nothing pinned, callers and door share the cores)")
    parser.add_argument("--via", nargs="+", choices=["telnet", "web", "protocol"], default=["telnet"],
                        help="how the callers call: telnet, the web page's WebSocket, programs by the game "
                             "protocol, one after the other for each number of callers (default: telnet)")
    add_common_arguments(parser, time_limit=900.0)
    args = parser.parse_args()
    if args.callers:
        callers_main(args)
        return
    if args.loop_probe:
        os.environ["LOOP_PROBE"] = "1"  # (read by bench.gc_probe in the server's process)
    for n in args.sessions:
        ramp = args.ramp if args.ramp is not None else n / 50
        for via in args.via:
            report(one_run(n, args.game_to, ramp, args.time_limit, args.seed, args.profile, args.pin,
                           args.gc_probe or args.loop_probe, via, args.workers))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
