"""What one frame of the game screen costs the door: painting it and
working out the bytes that change the caller's screen.

    python3 -m bench.frames [--games N] [--repeat R]

Runs a real server in-process (the computer moving at once) and one
in-process telnetlib3 caller who reads the screen (pyte) and plays numbered
games 1 to N (the same deals every run), and times every
:meth:`door.ui.display.Display.refresh` of the game screen: the whole
refresh, the renderer's part of it (:meth:`door.ui.renderer.Renderer.render`)
and the terminal's write (telnetlib3 and the socket); painting is the rest.  Prints medians and means in microseconds of CPU
(``time.thread_time``), taken over ``R`` runs (the median run's figures),
with the rows the renderer compared and wrote per frame.

the door's CPU per key is mostly frames (``bench.load
--profile``); this measures them alone, without 1,000 callers.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.server import DoorServer  # noqa: E402
from door.ui import display as display_module  # noqa: E402
from door.ui import renderer as screen_module  # noqa: E402
from tests.support.player import Player, telnet_caller  # noqa: E402
from tests.support.server import make_config  # noqa: E402

RIGHT, LEFT = b"\x1b[C", b"\x1b[D"


class LookingPlayer(Player):
    """A :class:`Player` who looks the cards over with the bar before
    discarding, as a caller does."""

    async def act(self, prompt: str, screen: str) -> bool | str:
        if prompt.startswith("Choose 2 cards"):
            for key in (RIGHT, RIGHT, LEFT, LEFT):
                await self.send(key)
        return cast("bool | str", await super().act(prompt, screen))


class Meter:
    """Times refreshes and renders of the game screen (CPU microseconds)."""

    def __init__(self) -> None:
        self.refresh: list[float] = []
        self.render: list[float] = []
        self.write: list[float] = []
        self.rows: list[int] = []

    def install(self) -> list[tuple[Any, str, Any]]:
        """Wrap the methods; returns what :meth:`uninstall` puts back."""
        saved = [(display_module.Display, "refresh", display_module.Display.refresh),
                 (screen_module.Renderer, "render", screen_module.Renderer.render),
                 (screen_module.Renderer, "_render_row", screen_module.Renderer._render_row)]
        refresh, render, render_row = (cast(Any, s[2]) for s in saved)
        meter = self
        pending: list[float] = []
        rows = [0]

        def timed_refresh(self: Any) -> None:
            terminal = self.terminal
            if "write" not in vars(terminal):  # the terminal's write, timed on this instance
                write = terminal.write

                def timed_write(data: bytes) -> None:
                    start = time.thread_time()
                    write(data)
                    pending.append((time.thread_time() - start) * 1e6)

                terminal.write = timed_write
            start = time.thread_time()
            pending.clear()
            rows[0] = 0
            refresh(self)
            if len(pending) == 2 and "Your cards" in "".join(self.renderer._rows[:20]):  # the game screen only
                meter.refresh.append((time.thread_time() - start) * 1e6)
                meter.render.append(pending[0])
                meter.write.append(pending[1])
                meter.rows.append(rows[0])

        def timed_render(self: Any, canvas: Any) -> bytes:
            start = time.thread_time()
            out: bytes = render(self, canvas)
            pending.append((time.thread_time() - start) * 1e6)
            return out

        def counted_row(self: Any, *args: Any) -> None:
            rows[0] += 1
            render_row(self, *args)

        display_module.Display.refresh = timed_refresh  # type: ignore[method-assign]
        screen_module.Renderer.render = timed_render  # type: ignore[method-assign]
        screen_module.Renderer._render_row = counted_row  # type: ignore[method-assign,assignment]
        return saved

    @staticmethod
    def uninstall(saved: list[tuple[Any, str, Any]]) -> None:
        for owner, name, value in saved:
            setattr(owner, name, value)


async def run(games: int) -> Meter:
    """Play ``games`` games against the computer; returns their frames' costs."""
    meter = Meter()
    with tempfile.TemporaryDirectory() as tmp:
        door = DoorServer(make_config(Path(tmp)))
        await door.start()
        saved = meter.install()
        try:
            for number in range(games):
                caller = await telnet_caller(door.telnet_port)
                player = LookingPlayer(caller.screen, caller.send, name=f"Frames{number}", game_number=number + 1)
                await player.play(timeout=300)
                await player.leave()
                await asyncio.wait_for(caller.done, 10)
                caller.close()
        finally:
            Meter.uninstall(saved)
            await door.stop()
    return meter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games a run (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the median run is reported (default 3)")
    args = parser.parse_args()
    runs = [asyncio.run(run(args.games)) for _ in range(args.repeat)]
    runs.sort(key=lambda m: statistics.mean(m.refresh))
    m = runs[len(runs) // 2]
    paint = [a - b - c for a, b, c in zip(m.refresh, m.render, m.write)]
    print(f"{len(m.refresh)} frames of the game screen over {args.games} games (median of {args.repeat} runs)")
    for label, values in (("whole refresh", m.refresh), ("painting", paint), ("rendering", m.render),
                           ("writing", m.write)):
        print(f"  {label:14s} median {statistics.median(values):7.1f} us, mean {statistics.mean(values):7.1f} us")
    print(f"  rows written per frame: mean {statistics.mean(m.rows):.1f}")


if __name__ == "__main__":
    main()
