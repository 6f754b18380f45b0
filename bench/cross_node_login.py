"""A program's login that takes its account's session over from another
node: two door servers (in this process) on one throwaway PostgreSQL;
Ann logs in by the game protocol at node A, then at node B (which asks A
over its peer port to close the older session), then at A again, and so
on, each time once the other node has seen her on line.  Timed: from the
``login`` sent to the ``welcome`` received, for these take-overs and, as
the baseline, for logins while she is on line nowhere.

    python3 -m bench.cross_node_login [--logins 100] [--runs 1]

Prints each run's p50, p99 and worst in milliseconds for both, and the
medians over the runs.  The password's check (a deliberately slow hash)
is in both figures.  The clients run in the servers' process and event
loop; loopback only, every wait bounded.  Skipped when PostgreSQL is not
installed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cross_node_move import PASSWORD, Program, seen  # noqa: E402
from bench.kept_games import pct  # noqa: E402
from bench.throwaway_postgres import throwaway_postgres  # noqa: E402
from bench.two_nodes import two_nodes  # noqa: E402
from door.server import DoorServer  # noqa: E402


async def timed_login(port: int, name: str) -> tuple[Program, float]:
    """``name`` logged in by the protocol at the node whose web port is
    ``port``, and the seconds from its ``login`` to its ``welcome``."""
    from websockets.asyncio.client import connect

    p = Program(await connect(f"ws://127.0.0.1:{port}/api/v1/play"))
    await p.next("hello")
    start = time.perf_counter()
    await p.send({"type": "login", "name": name, "password": PASSWORD})
    at, _ = await p.next("welcome")
    return p, at - start


async def gone(node: DoorServer, name: str, elsewhere: bool = True) -> None:
    """Wait until ``node`` no longer has ``name`` on line there (nor, with
    ``elsewhere``, knows of them on line at another node)."""
    deadline = time.monotonic() + 20.0
    lobby = node.ctx.lobby
    while any(p.name == name for p in lobby.presences.values()) or (
            elsewhere and any(p.name == name for p in lobby.elsewhere)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{name} stayed on line")
        await asyncio.sleep(0.02)


async def one_run(url: str, folder: Path, logins: int) -> tuple[list[float], list[float]]:
    """The seconds each login took: (taking over from the other node, with nobody on line)."""
    taking, alone = [], []
    async with two_nodes(url, folder, ("Ann",), PASSWORD) as nodes:
        for i in range(logins):  # nobody on line: the baseline
            here = nodes[i % 2]
            p, took = await timed_login(here.web_port, "Ann")
            alone.append(took)
            await p.send({"type": "leave"})
            await p.next("bye")
            await p.close()
            for node in nodes:
                await gone(node, "Ann")
        older, _ = await timed_login(nodes[0].web_port, "Ann")
        for i in range(logins):  # on line at the other node each time
            here, there = nodes[(i + 1) % 2], nodes[i % 2]
            await seen(here, "Ann")
            newer, took = await timed_login(here.web_port, "Ann")
            taking.append(took)
            await older.next("bye")
            await older.close()
            older = newer
            await gone(there, "Ann", elsewhere=False)
        await older.close()
    return taking, alone


async def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=100, help="logins of each kind a run (default 100)")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a new database (default 1)")
    args = parser.parse_args(argv)
    if args.logins < 1 or args.runs < 1:
        parser.error("--logins and --runs are at least 1")
    logging.getLogger("door.records.migrate").setLevel(logging.ERROR)  # (each new database's schema steps)
    medians: dict[str, list[float]] = {"taking over": [], "alone": []}
    with throwaway_postgres() as pg, tempfile.TemporaryDirectory(prefix="bench-cross-login-") as tmp:
        if pg is None:
            return
        for run in range(args.runs):
            folder = Path(tmp) / f"run{run}"
            folder.mkdir()
            taking, alone = await one_run(pg.new_database(), folder, args.logins)
            for label, times in (("taking over", taking), ("alone", alone)):
                medians[label].append(pct(times, 0.5))
                print(f"run {run + 1}, {label}: {len(times)} logins, p50 {pct(times, 0.5):.1f} ms, "
                      f"p99 {pct(times, 0.99):.1f} ms, worst {max(times) * 1000:.1f} ms", flush=True)
    for label, p50s in medians.items():
        print(f"median of {args.runs} run(s), {label}: p50 {statistics.median(p50s):.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
