"""What waiting callers cost the door: N telnet guests sit at the main menu
or at the discard prompt of a game against the computer, and the server's
CPU is measured while nobody types.

    python3 -m bench.idle [--callers 100] [--seconds 20]

Runs a real ``cribbage-door serve`` (``bench.load``'s) and in-process
telnetlib3 callers on loopback; prints milliseconds of server CPU (user +
system, ``/proc``) per caller per second, for each place.  A
menu that repainted every second and clocks that ticked at scattered
moments made 100 idle callers cost 0.3-0.7 ms per caller-second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import _cpu_times, door_process  # noqa: E402
from bench.soak import idle_callers  # noqa: E402
from tests.support.player import Player  # noqa: E402


async def measure(port: int, pid: int, callers: int, where: str, seconds: float) -> float:
    """Bring ``callers`` guests to ``where`` ("menu" or "game"), then return
    the server's CPU over ``seconds`` in ms per caller-second."""
    connected = await idle_callers(port, callers)
    for i, caller in enumerate(connected if where == "game" else []):
        player = Player(caller.screen, caller.send, name=f"Idle{i:03d}")
        await caller.send(b"1")
        for _ in range(60):
            await asyncio.sleep(0.3)
            if "Choose 2" in caller.screen.prompt():
                break
            await player.act(caller.screen.prompt(), caller.screen.text())
        else:
            raise RuntimeError(f"caller {i} did not reach the discard:\n{caller.screen.text()}")
    await asyncio.sleep(3)  # what the arrivals set going is over
    user0, system0 = _cpu_times(pid)
    await asyncio.sleep(seconds)
    user1, system1 = _cpu_times(pid)
    for caller in connected:
        caller.close()
    return 1000 * (user1 - user0 + system1 - system0) / seconds / callers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    n = args.callers + 10  # (every caller from 127.0.0.1: the pre-login budgets of an address and a network too)
    limits = (f"[limits]\nmax_sessions = {n}\nmax_per_address = {n}\nprelogin_total = {n}\n"
              f"prelogin_per_address = {n}\nprelogin_per_network = {n}\n")
    for where in ("menu", "game"):
        with door_process(limits, pin=True) as door:
            ms = asyncio.run(measure(door.telnet_port, door.pid, args.callers, where, args.seconds))
        place = "at the main menu" if where == "menu" else "at the discard prompt of a game"
        print(f"{args.callers} callers idle {place}: {ms:.3f} ms of server CPU per caller-second")


if __name__ == "__main__":
    main()
