"""``cribbage-door door`` as a BBS runs it, for tests: a DOOR32.SYS, and
the door command on a pseudo-terminal read through pyte."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import signal
import struct
import sys
import termios
from pathlib import Path

from tests.support.player import ClientScreen, Cp437Screen

__all__ = ["PtyDoor", "door32", "CONFIG"]

CONFIG = "[computer]\ndelay = 0\n[caller]\npegging_pause = 0\nhand_pause = 0\n"


def door32(tmp_path: Path, name: str = "Doorman", minutes: int = 30, emulation: int = 1) -> Path:
    """A DOOR32.SYS for stdio (``emulation``: 0 ASCII, 1 ANSI)."""
    path = tmp_path / "door32.sys"
    path.write_text("\r\n".join(["0", "0", "38400", "Synchronet", "7", "Door Man", name, "50", str(minutes),
                                 str(emulation), "2"]) + "\r\n")
    return path


class PtyDoor:
    """The door command on a pseudo-terminal of 80x25, read through pyte."""

    def __init__(self, tmp_path: Path, dropfile: Path | None, data_dir: Path | None = None,
                 screen: ClientScreen | None = None, env: dict[str, str] | None = None) -> None:
        """``dropfile``: given as ``--dropfile`` (``None``: not given, the
        BBS's environment ``env`` names it); ``screen``: the terminal the
        output is read through (a CP437 one of 80x25 by default)."""
        self.tmp_path, self.dropfile = tmp_path, dropfile
        self.data_dir = data_dir or tmp_path / "data"
        self.screen = screen or Cp437Screen(80, 25)
        self.env = env

    async def start(self) -> None:
        config = self.tmp_path / "door.toml"
        config.write_text(CONFIG)
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "door.cli", "door", *(["--dropfile", str(self.dropfile)] if self.dropfile else []),
            "--config", str(config), "--data-dir", str(self.data_dir), stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, env={**os.environ, **(self.env or {})})
        os.close(slave)
        loop = asyncio.get_running_loop()
        loop.add_reader(self.master, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if data:
            self.screen.feed(data)
        else:
            asyncio.get_running_loop().remove_reader(self.master)

    def resize(self, cols: int, rows: int) -> None:
        """The BBS's window is now ``cols`` x ``rows``: the pseudo-terminal
        says so, and SIGWINCH goes to the door (as the kernel sends it to
        a terminal's foreground processes; this one is not the door's
        controlling terminal)."""
        self.screen.screen.resize(rows, cols)
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.kill(self.proc.pid, signal.SIGWINCH)

    async def send(self, data: bytes) -> None:
        os.write(self.master, data)

    async def finish(self) -> int:
        code = await asyncio.wait_for(self.proc.wait(), 20)
        asyncio.get_running_loop().remove_reader(self.master)
        os.close(self.master)
        return code
