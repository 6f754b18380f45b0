"""Clients for tests: an in-process telnetlib3 caller and an asyncssh
process, their screens through pyte."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from door.net.console_socket import CONSOLE_SOCKET
from door.server import DoorServer
from tests.support.player import ClientScreen, telnet_caller

__all__ = ["telnet_client", "as_guest_to_the_game", "watch", "console_client", "until"]


async def telnet_client(door: DoorServer, cols: int = 80, rows: int = 24, term: str = "xterm"):
    caller = await telnet_caller(door.telnet_port, cols, rows, term)
    return None, caller.writer, caller.screen, caller.done


async def as_guest_to_the_game(write, screen: ClientScreen) -> None:
    """From the name typed to the discard: guest, menu item 1, run mode 1."""
    await screen.wait_for(lambda: "is not registered" in screen.text())
    write(b"g")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    write(b"1")
    await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
    write(b"1")
    await screen.wait_for(lambda: "blank line deals" in screen.text())
    write(b"\r")
    await screen.wait_for(lambda: "Choose 2 cards" in screen.text())


def watch(process, cols: int, rows: int):
    """Feed an asyncssh process's output to a pyte screen in the background."""
    screen = ClientScreen(cols, rows)

    async def pump() -> None:
        while data := await process.stdout.read(4096):
            screen.feed(data)

    return screen, asyncio.create_task(pump())


async def console_client(data_dir: Path) -> tuple[asyncio.StreamWriter, ClientScreen, asyncio.Task[None]]:
    """The local sysop console of the server whose data folder is
    ``data_dir``, over its Unix socket (80x24, xterm): the writer for its
    keys, its screen, and the task that feeds the screen."""
    reader, writer = await asyncio.open_unix_connection(str(data_dir / CONSOLE_SOCKET))
    writer.write(b"CONSOLE 80 24 xterm\n")
    console = ClientScreen(80, 24)

    async def pump() -> None:
        while data := await reader.read(4096):
            console.feed(data)

    return writer, console, asyncio.create_task(pump())


async def until(check: Callable[[], object], timeout: float = 10.0) -> bool:
    """Poll ``check()`` every 50 ms for up to ``timeout`` seconds; whether it came true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(0.05)
    return bool(check())
