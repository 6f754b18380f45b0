"""Bytes the door sends to an 80x24 telnet caller: for one highlight-bar
move, for one card played (the caller's own card, before the computer's
reply), and for a whole game against the computer.

    python3 -m bench.bandwidth [--games N]

Runs a real server and an in-process telnetlib3 client on loopback; a
scripted caller reads the screen (pyte) and plays.  Prints medians over the
moves, cards and games measured.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.server import DoorServer  # noqa: E402
from tests.conftest import make_config  # noqa: E402
from tests.player import RIGHT, Player, telnet_caller  # noqa: E402


class MeasuringPlayer(Player):
    """A :class:`Player` that also measures bar moves and card plays."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.moves: list[int] = []
        self.plays: list[int] = []

    async def quiet_bytes(self, keys: bytes, settle: float = 0.15) -> int:
        before = self.term.received
        await self.send(keys)
        await asyncio.sleep(settle)
        return self.term.received - before

    async def act(self, prompt: str, screen: str):  # type: ignore[no-untyped-def]
        if prompt.startswith("Choose 2 cards") and len(self.moves) < 40:
            self.moves.append(await self.quiet_bytes(RIGHT))
        if prompt.startswith("Your turn, count"):
            before = self.term.received
            await super().act(prompt, screen)
            await asyncio.sleep(0.15)  # the computer waits 0.5 s before replying
            self.plays.append(self.term.received - before)
            return True
        return await super().act(prompt, screen)


async def one_game(door: DoorServer) -> tuple[int, list[int], list[int]]:
    caller = await telnet_caller(door.telnet_port)
    player = MeasuringPlayer(caller.screen, caller.send, name="Bench")
    await player.play(timeout=600)
    await player.leave()
    await asyncio.wait_for(caller.done, 10)
    caller.close()
    return caller.screen.received, player.moves, player.plays


async def run(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        door = DoorServer(make_config(Path(tmp), delay=0.5))
        await door.start()
        try:
            totals, moves, plays = [], [], []
            for _ in range(games):
                total, m, p = await one_game(door)
                totals.append(total)
                moves += m
                plays += p
        finally:
            await door.stop()
    print(f"highlight-bar move: median {statistics.median(moves):.0f} bytes, max {max(moves)} "
          f"({len(moves)} moves)")
    print(f"card played (caller's card): median {statistics.median(plays):.0f} bytes, max {max(plays)} "
          f"({len(plays)} cards)")
    print(f"whole game, welcome to goodbye: median {statistics.median(totals):.0f} bytes "
          f"({statistics.median(totals) / 1024:.1f} KiB; {games} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    asyncio.run(run(parser.parse_args().games))


if __name__ == "__main__":
    main()
