"""The floor under ``bench.load``'s CPU per key: what the transport alone
costs, with no game, no screens and no computer.

    python3 -m bench.floor                      # 300 callers for 60 s
    python3 -m bench.floor --callers 1000 --seconds 90 --answer 203

A server process listens with the door's own telnet listener
(:func:`door.net.telnet.start_telnet`: telnetlib3 in bytes mode, the
connection gate, the door's :class:`~door.net.terminal.Terminal`) and
answers every key with ``--answer`` bytes (by default 203, the door's
median screen update in ``bench.bandwidth``), written and drained as a
screen is.  A second process opens the callers (in-process telnetlib3
clients on loopback, as ``bench.load``'s) which press a key every 0.5-2 s
(``bench.load``'s pace) and wait for its answer.  With two cores the
server runs on one and the callers on the other.  Prints the server's CPU
per key (user + system, ``/proc/PID/stat``) and the key-to-answer
latency; whatever ``bench.load`` spends above this figure a key is the
door's own work (the game, painting, rendering, the computer).
Stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import THINK, _cpu_seconds, _free_port, _quantile  # noqa: E402


def serve_main(port: int, answer: int) -> None:
    """The server's process: the door's telnet listener answering keys."""
    from door.net.keys import KeyName
    from door.net.listener import Bind
    from door.net.telnet import start_telnet

    payload = bytes(range(0x20, 0x7f)) * (answer // 95 + 1)
    payload = payload[:answer]

    async def session(terminal) -> None:  # type: ignore[no-untyped-def]
        terminal.write(b"\x1b[2J\x1b[Hready\r\n")
        while True:
            key = await terminal.get_key()
            if key is None:
                continue
            if key.name is KeyName.EOF:
                return
            terminal.write(payload)
            await terminal.drain()

    async def main() -> None:
        listener = await start_telnet(Bind("127.0.0.1", port), session, connect_maxwait=0.5)
        print("listening", flush=True)
        try:
            await asyncio.Event().wait()  # (until the benchmark terminates this process)
        finally:
            listener.close()

    asyncio.run(main())


async def _caller(port: int, seconds: float, rng: random.Random, latencies: list[float], counts: list[int]) -> None:
    import telnetlib3
    reader, writer = cast(tuple[Any, Any], await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term="xterm", cols=80, rows=24, connect_minwait=0.05))
    deadline = time.monotonic() + seconds
    try:
        while not (await reader.read(65536)).endswith(b"ready\r\n"):
            pass
        while time.monotonic() < deadline:
            await asyncio.sleep(rng.uniform(*THINK))
            sent = time.monotonic()
            writer.write(b"x")
            counts[0] += 1
            if not await asyncio.wait_for(reader.read(65536), 10):
                return
            latencies.append(time.monotonic() - sent)
    finally:
        writer.close()


def callers_main(port: int, callers: int, seconds: float, ramp: float, out: str) -> None:
    """The callers' process: press keys until ``seconds`` pass, then write
    the figures to ``out`` (JSON)."""
    latencies: list[float] = []
    counts = [0]

    async def main() -> None:
        async def one(i: int) -> None:
            await asyncio.sleep(ramp * i / callers)
            await _caller(port, seconds - ramp * i / callers, random.Random(i), latencies, counts)
        await asyncio.gather(*(one(i) for i in range(callers)), return_exceptions=True)

    asyncio.run(main())
    Path(out).write_text(json.dumps({"latencies": latencies, "keys": counts[0]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the callers press keys")
    parser.add_argument("--answer", type=int, default=203, help="bytes written for each key")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_main(args.serve, args.answer)
        return
    if args.out:
        callers_main(args.port, args.callers, args.seconds, min(10.0, args.seconds / 4), args.out)
        return
    root = Path(__file__).resolve().parent.parent
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "bench.floor", "--serve", str(port), "--answer", str(args.answer)],
                              cwd=root, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        if server.stdout.readline().strip() != "listening":
            raise SystemExit("the server did not start")
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) >= 2:
            os.sched_setaffinity(server.pid, {cores[0]})
        with tempfile.TemporaryDirectory() as tmp:
            out = str(Path(tmp) / "callers.json")
            cpu0, t0 = _cpu_seconds(server.pid), time.monotonic()
            callers = subprocess.Popen([sys.executable, "-m", "bench.floor", "--port", str(port), "--out", out,
                                        "--callers", str(args.callers), "--seconds", str(args.seconds)], cwd=root)
            if len(cores) >= 2:
                os.sched_setaffinity(callers.pid, {cores[1]})
            callers.wait(args.seconds + 120)
            cpu, wall = _cpu_seconds(server.pid) - cpu0, time.monotonic() - t0
            result = json.loads(Path(out).read_text())
    finally:
        server.terminate()
        server.wait(10)
    ms = [x * 1000 for x in result["latencies"]]
    keys = max(1, result["keys"])
    print(f"{args.callers} callers, {result['keys']} keys in {wall:.0f} s, {args.answer} bytes an answer"
          f"{' (server and callers on two cores)' if len(cores) >= 2 else ''}")
    print(f"  key to answer: p50 {_quantile(ms, .5):.1f} ms, p90 {_quantile(ms, .9):.1f} ms, "
          f"p99 {_quantile(ms, .99):.1f} ms")
    print(f"  server CPU: {cpu:.1f} s = {1000 * cpu / keys:.3f} ms per key (the transport's floor)")


if __name__ == "__main__":
    main()
