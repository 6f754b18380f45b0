"""A finished session is freed by reference counting as it ends, not left
in cycles for the collector's full pass."""

from __future__ import annotations

import asyncio
import collections
import gc
from pathlib import Path

from engine.rules import Rules
from tests.support.player import Player, telnet_caller
from tests.support.server import make_config, running


async def test_a_finished_session_leaves_nothing_of_the_door_to_the_cyclic_collector(tmp_path: Path) -> None:
    """A session's objects formed cycles: the table and its seats, the
    display and its last screen's painter, the terminal and its idle
    warning.  Everything they held (the game, its actions and events, the
    screens) then waited for a full collection, and at 1,000 callers the
    one that freed the games as they ended stopped the door for 400 ms
    (``bench.load --gc-probe``).  The session now breaks them as it ends."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            caller = await telnet_caller(door.telnet_port)
            player = Player(caller.screen, caller.send, name="Cyclist")
            await player.play(timeout=120)
            await player.leave()
            await asyncio.wait_for(caller.done, 10)
            caller.close()
            async with asyncio.timeout(5):
                while door.sessions:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            gc.collect()
            left = collections.Counter(type(o).__qualname__ for o in gc.garbage
                                       if type(o).__module__.partition(".")[0] in ("door", "engine"))
            # the door's end of the connection: telnetlib3's writer and asyncio's transport
            # (the door freezes what survives, so a cycle would wait for a full collection)
            ends = collections.Counter(type(o).__qualname__ for o in gc.garbage if _the_doors_end(o, door.telnet_port))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert not left, left
    assert not ends, ends


def _the_doors_end(o: object, port: int) -> bool:
    """Whether ``o`` is the door's telnet writer or socket transport (not
    the test's client's, whose cycles are telnetlib3's own)."""
    if type(o).__name__ == "TelnetWriter":
        return getattr(o, "server", False) is True
    extra = getattr(o, "_extra", None)
    if type(o).__name__.endswith("SocketTransport") and isinstance(extra, dict):
        sockname = extra.get("sockname")
        return isinstance(sockname, tuple) and sockname[1] == port
    return False


async def test_a_lost_web_connection_leaves_no_cycle_of_the_doors(tmp_path: Path) -> None:
    """asyncio's transport of a WebSocket that ended referred to itself;
    frozen by the door's collector, it waited for a full collection."""
    from websockets.asyncio.client import connect

    async with running(make_config(tmp_path / "data")) as door:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            async with connect(f"ws://127.0.0.1:{door.web_port}/ws", origin=f"http://127.0.0.1:{door.web_port}") as ws:
                seen = b""
                while b"Your name" not in seen:
                    seen += await asyncio.wait_for(ws.recv(), 10)  # type: ignore[operator]
            async with asyncio.timeout(5):
                while door.sessions:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            gc.collect()
            ends = collections.Counter(type(o).__qualname__ for o in gc.garbage if _the_doors_end(o, door.web_port))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert not ends, ends
