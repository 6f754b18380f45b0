"""Bytes the door sends to an 80x24 telnet caller: for one highlight-bar
move (UTF-8 and CP437), for one card played (the caller's own card, before
the computer's reply), for one screen update of any kind, for one hand, and
for a whole game against the computer, with the targets it is held to.

    python3 -m bench.bandwidth [--games N]

Runs a real server and an in-process telnetlib3 client on loopback; a
scripted caller reads the screen (pyte) and plays numbered games 1 to N
(the same deals every run), once as an xterm (UTF-8) and once as an
``ansi`` terminal (CP437, only its bar moves are reported).  A bar move is
measured once the screen has been quiet for :data:`SETTLE` seconds (the
computer's discard is news, not part of a move).  A screen update is a
burst of output with no gap of :data:`GAP` seconds or more (the door writes
one frame per key or move).  A hand runs from the screen showing "Hand N"
to it showing "Hand N+1" (chat mode, discard, the play, the show).  Prints
medians over the moves, cards, updates, hands and games measured."""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.server import DoorServer  # noqa: E402
from tests.support.player import LEFT, RIGHT, Cp437Screen, Player, telnet_caller  # noqa: E402
from tests.support.server import make_config  # noqa: E402

GAP = 0.05
"""Seconds of silence that end one screen update."""

TARGETS = {"move": 32, "move_cp437": 28, "update": 240, "game": 64 * 1024}
"""a bar move (UTF-8, CP437), the median screen update, a
whole game (bytes)."""

SETTLE = 0.7
"""Seconds of silence before the bar moves are measured: longer than the
computer's pause (0.5 s) before it lays away its cards."""

HAND_RE = re.compile(r"Hand (\d+)")


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
        return int(self.term.received - before)

    async def quiet(self, seconds: float) -> None:
        """Wait until nothing has arrived for ``seconds`` (at most 5 s)."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            before = self.term.received
            await asyncio.sleep(seconds)
            if self.term.received == before:
                return

    async def act(self, prompt: str, screen: str):  # type: ignore[no-untyped-def]
        await asyncio.sleep(2 * GAP)  # a pause before each answer keeps the screen updates apart
        if prompt.startswith("Choose 2 cards") and "\u25bc" not in screen and len(self.moves) < 100:
            # the bar over the cards and back, as a caller looks them over,
            # once the computer's discard has been shown (its news is not
            # part of a move)
            await self.quiet(SETTLE)
            for key in (RIGHT, RIGHT, RIGHT, LEFT, LEFT, LEFT):
                self.moves.append(await self.quiet_bytes(key))
        if prompt.startswith("Your turn, count"):
            before = self.term.received
            await super().act(prompt, screen)
            await asyncio.sleep(0.15)  # the computer waits 0.5 s before replying
            self.plays.append(self.term.received - before)
            return True
        return await super().act(prompt, screen)


async def one_game(door: DoorServer, number: int, cp437: bool = False) -> dict[str, list[int]]:
    """Play numbered game ``number`` (a UTF-8 xterm, or with ``cp437`` an
    ANSI-BBS terminal); returns the sizes measured (bytes), by kind."""
    if cp437:  # a BBS terminal type: the door picks CP437
        caller = await telnet_caller(door.telnet_port, term="ansi", screen=Cp437Screen(80, 24))
    else:
        caller = await telnet_caller(door.telnet_port)
    chunks: list[tuple[float, int]] = []
    hand_starts: dict[int, int] = {}
    feed = caller.screen.feed

    def measuring_feed(data: bytes) -> None:
        chunks.append((time.monotonic(), len(data)))
        feed(data)
        m = HAND_RE.search(caller.screen.lines()[8])  # the info row of the game screen
        if m and int(m.group(1)) not in hand_starts:
            hand_starts[int(m.group(1))] = caller.screen.received

    caller.screen.feed = measuring_feed
    player = MeasuringPlayer(caller.screen, caller.send, name="Bench",
                             game_number=number)  # the same deals every run: figures that compare
    await player.play(timeout=600)
    game_over = caller.screen.received
    await player.leave()
    await asyncio.wait_for(caller.done, 10)
    caller.close()
    updates: list[int] = []
    last = -1.0
    for when, size in chunks:
        if updates and when - last < GAP:
            updates[-1] += size
        else:
            updates.append(size)
        last = when
    marks = [hand_starts[n] for n in sorted(hand_starts)] + [game_over]
    hands = [b - a for a, b in zip(marks, marks[1:])]
    return {"total": [caller.screen.received], "moves": player.moves, "plays": player.plays,
            "updates": updates, "hands": hands}


def _line(what: str, sizes: list[int], unit: str, target: int | None = None) -> str:
    median = statistics.median(sizes)
    verdict = "" if target is None else f"; target <= {target}: {'met' if median <= target else 'NOT met'}"
    return f"{what}: median {median:.0f} bytes, max {max(sizes)} ({len(sizes)} {unit}){verdict}"


async def run(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        door = DoorServer(make_config(Path(tmp), delay=0.5))
        await door.start()
        try:
            got: dict[str, list[int]] = {}
            moves_cp437: list[int] = []
            for number in range(1, games + 1):
                for kind, sizes in (await one_game(door, number)).items():
                    got.setdefault(kind, []).extend(sizes)
                moves_cp437 += (await one_game(door, number, cp437=True))["moves"]
        finally:
            await door.stop()
    print(_line("highlight-bar move, UTF-8", got["moves"], "moves", TARGETS["move"]))
    print(_line("highlight-bar move, CP437", moves_cp437, "moves", TARGETS["move_cp437"]))
    print(_line("card played (caller's card)", got["plays"], "cards"))
    print(_line("screen update, any", got["updates"], "updates", TARGETS["update"]))
    print(_line("hand, chat mode to the show", got["hands"], "hands"))
    total = statistics.median(got["total"])
    print(f"whole game, welcome to goodbye: median {total:.0f} bytes ({total / 1024:.1f} KiB; games 1-{games}); "
          f"target <= {TARGETS['game']}: {'met' if total <= TARGETS['game'] else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    asyncio.run(run(parser.parse_args().games))


if __name__ == "__main__":
    main()
