"""A long run: 2,000 whole games over loopback, back to back, with the
server's memory sampled as the games pile up.

    python3 -m bench.soak                      # 2,000 games, 16 at a time
    python3 -m bench.soak --games 200 --game-to 61

Starts a real ``cribbage-door serve`` process (the computer and the pace
pauses at 0 s, so games go as fast as the machine allows) and a second
process whose callers (``bench.load``'s, without think time) each play one
game per connection, ``--concurrent`` at a time, until ``--games`` have been
played.  Memory is the server's resident set (``VmRSS``) sampled every
second with the number of games over so far (counted in the server's log).
Growth is the median resident set over the last tenth of the games against
the median over the second tenth (the first tenth is the warm-up: the
computer's tables, the allocator's arenas).  The processes the computer
thinks in (``[computer] processes``) are sampled and reported apart.  Half the callers are guests,
half are registered callers (``SoakNNN``, one per worker, game after game),
so the store's path is covered.  At the end, 100 guests log in and stay
idle at the main menu: the server's memory per idle connected caller.  Errors are as in
``bench.load``.  The run stops by itself after ``--time-limit`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load  # noqa: E402


async def run_games(games: int, concurrent: int, port: int, time_limit: float, seed: int) -> load.Stats:
    """Play ``games`` games, ``concurrent`` at a time, against the door on ``port``."""
    load.THINK = (0.0, 0.0)
    load.QUIET = 0.02
    stats = load.Stats()
    deadline = time.monotonic() + time_limit
    started = 0

    async def worker(w: int) -> None:
        nonlocal started
        rng = random.Random(seed * 7919 + w)
        # every other worker is one registered caller, game after game (its
        # games go through the store: the action log, the records)
        name, password = (f"Soak{w:03d}", "soak-secret") if w % 2 == 0 else (None, None)
        while started < games and time.monotonic() < deadline:
            started += 1
            await load._one_caller(started, port, stats, deadline, rng, name, password)

    await asyncio.gather(*(worker(w) for w in range(concurrent)))
    return stats


IDLE_CALLERS = 100
"""Guests left idle at the main menu to measure the memory of a connected caller."""


async def idle_callers(port: int, n: int) -> list[Any]:
    """``n`` telnet guests logged in to the main menu, left idle."""
    from tests.support.player import log_in_as_guest, telnet_caller

    callers = []
    for i in range(n):
        caller = await telnet_caller(port)
        await log_in_as_guest(caller, f"Idle{i:03d}")
        callers.append(caller)
    return callers


def rss_per_idle_caller(door: Any, port: int) -> float:
    """KiB of server memory per idle caller at the main menu: the resident
    set with :data:`IDLE_CALLERS` of them, less it without, over their number."""
    gc.collect()
    before = load._status_kib(door.pid, "VmRSS")

    async def measure() -> float:
        callers = await idle_callers(port, IDLE_CALLERS)
        await asyncio.sleep(3.0)
        after = load._status_kib(door.pid, "VmRSS")
        for c in callers:
            c.close()
        return (after - before) / IDLE_CALLERS

    return asyncio.run(measure())


def callers_main(args: argparse.Namespace) -> None:
    """The callers' process: play, then write the figures to ``args.out`` (JSON)."""
    gc.freeze()
    gc.set_threshold(200_000, 50, 1000)
    stats = asyncio.run(run_games(args.games, args.concurrent, args.port, args.time_limit, args.seed))
    with open(args.out, "w") as out:
        json.dump({"errors": stats.errors, "unanswered": stats.unanswered, "games": stats.games,
                   "keys": stats.keys}, out)


def soak(games: int, concurrent: int, game_to: int, time_limit: float, seed: int) -> dict[str, Any]:
    """Run the soak; returns its figures."""
    config = (f"[computer]\ndelay = 0\n\n[caller]\npegging_pause = 0\nhand_pause = 0\n\n"
              f"[rules]\ngame_to = {game_to}\n\n"
              f"[limits]\nmax_sessions = {concurrent + IDLE_CALLERS + 10}\n"
              f"max_per_address = {concurrent + IDLE_CALLERS + 10}\n"
              f"prelogin_per_address = {concurrent + IDLE_CALLERS + 10}\n"
              f"prelogin_per_network = {concurrent + IDLE_CALLERS + 10}\n"
              f"prelogin_total = {concurrent + IDLE_CALLERS + 10}\n"
              # the registered callers (one per other worker) all register from loopback
              f"register_per_address = {concurrent}\nregister_total = {concurrent + 10}\n")
    with load.door_process(config) as door:
        callers = door.start_callers("bench.soak", "--callers", "1", "--concurrent", str(concurrent),
                                     "--games", str(games), "--time-limit", str(time_limit), "--seed", str(seed))
        samples: list[tuple[int, int]] = []  # (games over, resident KiB)
        thinking: list[tuple[int, int]] = []  # (games over, the thinking processes' resident KiB)
        while callers.poll() is None:
            time.sleep(1.0)
            over = door.log_text().count(" over: ")
            samples.append((over, load._status_kib(door.pid, "VmRSS")))
            thinking.append((over, sum(load._status_kib(pid, "VmRSS") for pid in door.workers
                                       if Path(f"/proc/{pid}").exists())))
        result = door.callers_result({"errors": ["the callers' process failed"], "unanswered": 0, "games": 0,
                                      "keys": 0})
        result["wall"] = door.seconds()
        result["peak_kib"] = load._status_kib(door.pid, "VmHWM")
        result["errors"] += door.log_errors()
        result["idle_kib"] = rss_per_idle_caller(door, door.telnet_port)
    done = max((g for g, _ in samples), default=0)

    def rss_between(lo: float, hi: float, samples: list[tuple[int, int]] = samples) -> float:
        got = [kib for g, kib in samples if lo * done <= g <= hi * done]
        return statistics.median(got) / 1024 if got else float("nan")

    result["warm_mib"], result["end_mib"] = rss_between(0.1, 0.2), rss_between(0.9, 1.0)
    result["thinking_warm_mib"] = rss_between(0.1, 0.2, thinking)
    result["thinking_end_mib"] = rss_between(0.9, 1.0, thinking)
    result["samples"] = samples
    return result


def report(r: dict[str, Any], concurrent: int) -> None:
    """Print the soak's figures."""
    growth = 100 * (r["end_mib"] - r["warm_mib"]) / r["warm_mib"]
    print(f"{r['games']} games finished in {r['wall']:.0f} s ({concurrent} at a time), {r['keys']} keys")
    print(f"  server memory: {r['warm_mib']:.1f} MiB after warm-up (games 10-20%), {r['end_mib']:.1f} MiB at the "
          f"end (games 90-100%): growth {growth:+.1f}% (target <= 5%); peak {r['peak_kib'] / 1024:.1f} MiB")
    if r.get("thinking_warm_mib"):
        warm, end = r["thinking_warm_mib"], r["thinking_end_mib"]
        print(f"  the thinking processes: {warm:.1f} MiB after warm-up, {end:.1f} MiB at the end: growth "
              f"{100 * (end - warm) / warm:+.1f}%")
    print(f"  per idle caller at the main menu: {r['idle_kib']:.0f} KiB ({IDLE_CALLERS} guests)")
    print(f"  errors: {len(r['errors']) + r['unanswered']} ({r['unanswered']} keys unanswered)")
    for line in r["errors"][:10]:
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("--concurrent", type=int, default=16, help="games at the same time (default 16)")
    load.add_common_arguments(parser, time_limit=3600.0)
    args = parser.parse_args()
    if args.callers:
        callers_main(args)
        return
    report(soak(args.games, args.concurrent, args.game_to, args.time_limit, args.seed), args.concurrent)


if __name__ == "__main__":
    main()
