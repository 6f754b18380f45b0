"""``cribbage-door door``: one caller, run as a native door under a BBS.

Linux BBSes (Synchronet, Mystic, ENiGMA, Magicka) run native doors over
standard input and output: the BBS already speaks telnet or SSH to the
caller, so the door sends no telnet negotiation and reads raw keys.  With a
DOOR32.SYS of comm type 2 the door talks telnet on the socket handle the BBS
passed instead (it strips the telnet commands it receives and doubles 0xFF
on output).

The drop file names the caller (their games go to the same records as the
server's, under the BBS name), the time left (a warning two minutes before,
then the game is saved and the door returns to the BBS), and ANSI or plain
ASCII.  The caller plays the computer; when ``cribbage-door serve`` runs on
the same data folder, the caller joins it instead (:mod:`door.net.node_socket`)
and may play the sysop at its console or callers on any node.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import signal
import socket
import sys
import termios
import threading
import tty
from pathlib import Path

from door.net.charset import ASCII, CP437, UTF8, Charset
from door.config import Config
from door.net.logs import CONNECTION
from door.context import DoorContext
from door.net.dropfile import DropFileError, DropInfo, parse_dropfile
from door.net.node_socket import NodeHello, connect_hub
from door.net.relay import relay
from door.sysop.lobby import Lobby
from door.caller.bbs import bbs_account, time_limit
from door.caller.login import Caller, reserved
from door.caller.session import caller_session
from door.records.store import Store
from door.net.terminal import StreamTerminal, Terminal

__all__ = ["StdioTerminal", "SocketTerminal", "TelnetStripper", "run_door"]

log = logging.getLogger(__name__)

IAC, SB, SE, WILL, WONT, DO, DONT = 255, 250, 240, 251, 252, 253, 254


class StdioTerminal(Terminal):
    """A :class:`Terminal` over this process's standard input and output
    (or the file descriptors ``stdin`` and ``stdout``)."""

    def __init__(self, cols: int, rows: int, charset: Charset, stdin: int | None = None,
                 stdout: int | None = None) -> None:
        super().__init__("door", "stdio", "ansi", cols, rows)
        self.charset = charset
        self._in = sys.stdin.fileno() if stdin is None else stdin
        self._out = sys.stdout.fileno() if stdout is None else stdout

    async def pump(self) -> None:
        """Read standard input until it ends.  A blocking read in a daemon
        thread hands the bytes to the loop: never a step late on a
        pseudo-terminal (the loop's own reader was), and it cannot hold up
        the door's exit.  Before each read the thread waits for
        :meth:`room` (a relay's far end that takes no more, or unread
        keys past the limit), so a flood waits in the pipe or the
        pseudo-terminal, not in this process.  On a terminal, SIGWINCH
        reads the new window size (:meth:`resized`)."""
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def reader() -> None:
            try:
                while True:
                    asyncio.run_coroutine_threadsafe(self.room(), loop).result()
                    data = os.read(self._in, 4096)
                    if not data:
                        break
                    loop.call_soon_threadsafe(self.feed, data)
            except (OSError, RuntimeError, concurrent.futures.CancelledError):
                pass  # (RuntimeError, cancelled: the loop is closing)
            finally:
                try:
                    loop.call_soon_threadsafe(done.set)
                except RuntimeError:
                    pass

        winch = os.isatty(self._in)
        if winch:
            def window_changed() -> None:
                try:
                    size = os.get_terminal_size(self._in)
                except OSError:
                    return
                self.resized(size.columns, size.lines)
            loop.add_signal_handler(signal.SIGWINCH, window_changed)
        threading.Thread(target=reader, name="stdin", daemon=True).start()
        try:
            await done.wait()
        finally:
            if winch:
                loop.remove_signal_handler(signal.SIGWINCH)
            self.lost()

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._out, view)
            except BlockingIOError:
                continue
            view = view[written:]

    async def _drain(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


class TelnetStripper:
    """Removes telnet commands (IAC ...) from a byte stream; IAC IAC is a
    data byte 0xFF.  Keeps a partial command across calls."""

    def __init__(self) -> None:
        self._state = "data"

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            s = self._state
            if s == "data":
                if b == IAC:
                    self._state = "iac"
                else:
                    out.append(b)
            elif s == "iac":
                if b == IAC:
                    out.append(IAC)
                    self._state = "data"
                elif b in (WILL, WONT, DO, DONT):
                    self._state = "option"
                elif b == SB:
                    self._state = "sb"
                else:
                    self._state = "data"
            elif s == "option":
                self._state = "data"
            elif s == "sb":
                if b == IAC:
                    self._state = "sb-iac"
            elif s == "sb-iac":
                self._state = "data" if b == SE else "sb"
        return bytes(out)


class SocketTerminal(StreamTerminal):
    """A :class:`Terminal` over the telnet socket a BBS passed (DOOR32.SYS
    comm type 2): telnet commands are stripped from the input and 0xFF is
    doubled on output."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, cols: int, rows: int,
                 charset: Charset) -> None:
        super().__init__("door", "socket", "ansi", cols, rows, reader, writer)
        self.charset = charset
        self._strip = TelnetStripper()

    def received(self, data: bytes) -> None:
        """Telnet commands from the BBS are not keys."""
        clean = self._strip.feed(data)
        if clean:
            self.feed(clean)

    def _write(self, data: bytes) -> None:
        super()._write(data.replace(b"\xff", b"\xff\xff"))


async def run_door(config: Config, info: DropInfo, charset: Charset | None = None) -> int:
    """Run one door session for the caller of ``info``; returns the exit
    status."""
    if reserved(info.name, config.sysops):
        raise DropFileError(f"the BBS user name {info.name!r} is reserved by the door (Computer, Sysop, You and "
                            "the sysops' names): rename the user on the BBS")
    data_dir = Path(config.server.data_dir)
    hub = await connect_hub(data_dir)
    store = None if hub is not None else await Store.open(config.store.target(data_dir))
    rows = info.rows or 25
    chosen = charset or (CP437 if info.ansi else ASCII)
    saved_tty = None
    if info.comm_type == 2 and info.socket is not None:
        try:
            sock = socket.socket(fileno=info.socket)
            if sock.type != socket.SOCK_STREAM:
                sock.detach()
                raise OSError(f"handle {info.socket} is not a stream socket")
        except (OSError, ValueError, OverflowError) as exc:  # (the parser bounds the handle; this is the last word)
            if store is not None:
                await store.close()
            if hub is not None:
                hub[1].close()
            raise DropFileError(f"{info.kind}: the comm handle {info.socket} is not a telnet socket this "
                                f"process was given ({exc}); check the BBS's I/O method") from None
        reader, writer = await asyncio.open_connection(sock=sock)
        terminal: Terminal = SocketTerminal(reader, writer, 80, rows, chosen)
    else:
        if os.isatty(sys.stdin.fileno()):
            saved_tty = termios.tcgetattr(sys.stdin.fileno())
            tty.setraw(sys.stdin.fileno())
            size = os.get_terminal_size(sys.stdin.fileno())
            cols, rows = size.columns, info.rows or size.lines
        else:
            cols = 80
        terminal = StdioTerminal(cols, rows, chosen)
    CONNECTION.set(f"node{info.node}")  # every line of this session names the BBS node
    if hub is not None:  # a server runs on this data folder: the caller joins it (issue 16.2)
        log.info("handing %r (node %s) to the running server", info.name, info.node)
        hello = NodeHello(info.name, info.node or 0, terminal.cols, terminal.rows, chosen.name,
                          info.minutes_left * 60)
        try:
            await terminal.run_session(lambda t: relay(t, hub[0], hub[1], hello.encode()))
        finally:
            if saved_tty is not None:
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved_tty)
        return 0
    assert store is not None
    lobby = Lobby(config.paging)
    ctx = DoorContext(config.rules, config.computer.delay, store, config.caller, config.sysops, config.paging, lobby)
    presence = lobby.join(1, terminal)
    caller = Caller(info.name, await bbs_account(store, info.name))
    clog = logging.LoggerAdapter(log, {"node": info.node})
    clog.info("door session for %r (node %s, %d minutes left, %s)", info.name, info.node, info.minutes_left,
              chosen.label)
    limit = asyncio.create_task(time_limit(terminal, info.minutes_left * 60, presence))
    try:
        await terminal.run_session(lambda t: caller_session(t, ctx, presence, clog, caller=caller))
    finally:
        limit.cancel()
        await store.close()
        if saved_tty is not None:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved_tty)
    return 0


def door_main(config: Config, dropfile: Path, charset_name: str | None) -> int:
    """The ``door`` command: parse the drop file and run the session."""
    info = parse_dropfile(dropfile)
    charset = {"cp437": CP437, "utf-8": UTF8, "ascii": ASCII}.get(charset_name or "")
    return asyncio.run(run_door(config, info, charset))
