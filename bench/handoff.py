"""How long the event loop waits for the interpreter while a computer
thinks: a socket round trip on the loop (send 100 bytes on a loopback
socket pair, read them back), timed while a second thread plays expert
games without pause, once with Python's switch interval (5 ms) and once
with the door's (:data:`door.play.thinking.SWITCH_INTERVAL`).

    python3 -m bench.handoff [--trips 2000]

Each round trip gives the interpreter lock up twice (the send and the
receive); the figures are its p50, p90 and p99 in milliseconds.  The loop
pauses 1 ms between trips, as a door waits for its callers' keys.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.play.thinking import SWITCH_INTERVAL  # noqa: E402
from engine.expert import ExpertPlayer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import choose_action  # noqa: E402


def _think(stop: threading.Event) -> None:
    """Play expert games until ``stop`` is set (the busy thinking thread)."""
    number = 0
    while not stop.is_set():
        number += 1
        game = Game(Rules(), number)
        game.start()
        players = [ExpertPlayer(random.Random(number)), ExpertPlayer(random.Random(-number))]
        while not game.over and not stop.is_set():
            seat = game.to_act()[0]
            game.apply(choose_action(game, seat, players[seat]))


async def round_trips(trips: int) -> list[float]:
    """Milliseconds of ``trips`` round trips with the thinking thread busy, sorted."""
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    loop = asyncio.get_running_loop()
    stop = threading.Event()
    thinker = threading.Thread(target=_think, args=(stop,))
    thinker.start()
    times = []
    try:
        await asyncio.sleep(0.2)  # the thinker under way
        for _ in range(trips):
            start = time.perf_counter()
            await loop.sock_sendall(a, b"x" * 100)
            await loop.sock_recv(b, 4096)
            times.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.001)
    finally:
        stop.set()
        thinker.join()
        a.close()
        b.close()
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=2000)
    args = parser.parse_args()
    for label, interval in (("Python's default", 0.005), ("the door's", SWITCH_INTERVAL)):
        sys.setswitchinterval(interval)
        t = asyncio.run(round_trips(args.trips))
        n = len(t)
        print(f"switch interval {interval * 1000:.1f} ms ({label}): round trip p50 {t[n // 2]:.2f} ms, "
              f"p90 {t[n * 9 // 10]:.2f} ms, p99 {t[n * 99 // 100]:.2f} ms")


if __name__ == "__main__":
    main()
