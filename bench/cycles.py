"""What a finished session leaves to the cyclic collector: an in-process
door, one whole game against the computer over telnet (after one to warm
up), then ``gc.collect()`` with ``gc.DEBUG_SAVEALL``; prints how many
objects were in cycles, by type.

    python3 -m bench.cycles

everything listed here is freed only when the collector runs
its older generations (``door.server.GC_THRESHOLDS``); a session whose
links are broken at its end would be freed by reference counting instead.
The caller's side (telnetlib3 client, pyte) is in the same process and in
the figures too: its types are ``Char``, ``Screen`` and the client's.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.server import DoorServer  # noqa: E402
from tests.support.player import Player, telnet_caller  # noqa: E402
from tests.support.server import make_config  # noqa: E402


async def run() -> collections.Counter[str]:
    """Play two games; returns the types of what the second left in cycles."""
    with tempfile.TemporaryDirectory() as tmp:
        door = DoorServer(make_config(Path(tmp)))
        await door.start()
        try:
            for number in range(2):
                caller = await telnet_caller(door.telnet_port)
                player = Player(caller.screen, caller.send, name=f"Cycle{number}")
                await player.play(timeout=120)
                await player.leave()
                await asyncio.wait_for(caller.done, 10)
                caller.close()
                await asyncio.sleep(0.5)
                if number == 0:
                    gc.collect()
                    gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            found = collections.Counter(type(o).__name__ for o in gc.garbage)
            gc.set_debug(0)
            gc.garbage.clear()
            return found
        finally:
            await door.stop()


def main() -> None:
    found = asyncio.run(run())
    print(f"{sum(found.values())} objects in cycles after one whole game; by type:")
    for name, count in sorted(found.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:5d}  {name}")


if __name__ == "__main__":
    main()
