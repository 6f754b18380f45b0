"""``cribbage-door door``: one caller, run as a native door under a BBS.

Linux BBSes (Synchronet, Mystic, ENiGMA, Magicka) run native doors over
standard input and output: the BBS already speaks telnet or SSH to the
caller, so the door sends no telnet negotiation and reads raw keys.  With a
DOOR32.SYS of comm type 2 the door talks telnet on the socket handle the BBS
passed instead (it strips the telnet commands it receives and doubles 0xFF
on output), and so it does when standard input itself is a socket: WWIV's
STDIO chains on Linux make the caller's telnet socket the door's standard
input and output.

The drop file names the caller (their games go to the same records as the
server's, under the BBS name), the time left (a warning two minutes before,
then the game is saved and the door returns to the BBS), and ANSI or plain
ASCII.  The caller plays the computer; when ``cribbage-door serve`` runs on
the same data folder, the caller joins it instead (:mod:`door.net.node_socket`)
and may play the sysop at its console or callers on any node.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import stat
import sys
import termios
import tty
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from door.caller.bbs import bbs_account, time_limit
from door.caller.identity import Caller
from door.caller.login import reserved
from door.caller.session import CallerSession
from door.config import Config
from door.context import DoorContext, Lines
from door.net.bbs_terminals import SocketTerminal, StdioTerminal
from door.net.charset import ASCII, CP437, UTF8, Charset
from door.net.dropfile import DropFileError, DropInfo, parse_dropfile
from door.net.logs import CONNECTION
from door.net.node_socket import NodeHello, connect_hub
from door.net.relay import relay
from door.net.terminal import Terminal
from door.records.bulletins import BulletinWriter
from door.records.store import Store
from door.sysop.lobby import Lobby
from door.ui.display import Display

__all__ = ["run_door", "door_main"]

log = logging.getLogger(__name__)

async def run_door(config: Config, info: DropInfo, charset: Charset | None = None) -> int:
    """Run one door session for the caller of ``info``; returns the exit
    status.  Raises :class:`DropFileError` for a reserved user name or a
    comm handle that is not a telnet socket this process was given."""
    if reserved(info.name, config.sysops):
        raise DropFileError(f"the BBS user name {info.name!r} is reserved by the door (Computer, Sysop, You and "
                            "the sysops' names): rename the user on the BBS")
    data_dir = Path(config.server.data_dir)
    hub = await connect_hub(data_dir)
    store = None if hub is not None else await Store.open(config.store.target(data_dir))
    named = {"cp437": CP437, "utf-8": UTF8, "ascii": ASCII}.get(info.charset or "")  # (BBSDEV.DRP names it)
    chosen = charset or (named if named is not None and info.ansi else None) or (CP437 if info.ansi else ASCII)
    try:
        terminal, saved_tty = await _terminal(info, chosen)
    except DropFileError:
        if store is not None:
            await store.close()
        if hub is not None:
            hub[1].close()
        raise
    # a caller whose BBS says they have no ANSI at all gets the line presentation
    terminal.screen_reader = not info.ansi
    CONNECTION.set(f"node{info.node}")  # every line of this session names the BBS node
    try:
        if hub is not None:  # a server runs on this data folder: the caller joins it
            await _join_the_server(terminal, info, chosen, hub)
        else:
            assert store is not None
            await _play_here(config, info, chosen, store, terminal)
    finally:
        if saved_tty is not None:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved_tty)
    return 0


async def _terminal(info: DropInfo, chosen: Charset) -> tuple[Terminal, list[Any] | None]:
    """The caller's terminal: the telnet socket the BBS handed over (by
    its comm handle, or as standard input), else standard input and
    output (put in raw mode when a tty: its settings are returned to be
    put back).  Raises :class:`DropFileError` for a handle that is not a
    telnet socket this process was given."""
    rows = info.rows or 25
    handle = info.socket if info.comm_type == 2 else None
    from_stdin = handle is None and _is_socket(sys.stdin.fileno())
    if from_stdin:
        # WWIV's STDIO chains (and any BBS that hands the door its telnet
        # socket as standard input and output) send the client's telnet
        # commands through: the socket is talked to as a telnet socket
        handle = os.dup(sys.stdin.fileno())
    if handle is not None:
        try:
            sock = socket.socket(fileno=handle)
            if sock.type != socket.SOCK_STREAM:
                sock.detach()
                raise OSError(f"handle {handle} is not a stream socket")
        except (OSError, ValueError, OverflowError) as exc:  # (the parser bounds the handle; this is the last word)
            if from_stdin:
                os.close(handle)
                raise DropFileError(f"standard input is a socket but not a telnet stream ({exc}); "
                                    "check the BBS's I/O method") from None
            raise DropFileError(f"{info.kind}: the comm handle {handle} is not a telnet socket this "
                                f"process was given ({exc}); check the BBS's I/O method") from None
        reader, writer = await asyncio.open_connection(sock=sock)
        return SocketTerminal(reader, writer, info.cols or 80, rows, chosen), None
    saved_tty = None
    cols = info.cols or 80
    if os.isatty(sys.stdin.fileno()):
        saved_tty = termios.tcgetattr(sys.stdin.fileno())
        tty.setraw(sys.stdin.fileno())
        size = os.get_terminal_size(sys.stdin.fileno())
        cols, rows = info.cols or size.columns, info.rows or size.lines
    return StdioTerminal(cols, rows, chosen), saved_tty


async def _join_the_server(terminal: Terminal, info: DropInfo, chosen: Charset,
                           hub: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
    """Hand the caller to the server running on this data folder, and
    relay them to it until the session ends (however it ended, the BBS
    gets its caller back)."""
    log.info("handing %r (node %s) to the running server", info.name, info.node)
    hello = NodeHello(info.name, info.node or 0, terminal.cols, terminal.rows, chosen.name,
                      info.minutes_left * 60, not info.ansi)

    async def relayed(t: Terminal) -> None:
        await relay(t, hub[0], hub[1], hello.encode())

    await terminal.run_session(relayed)


async def _play_here(config: Config, info: DropInfo, chosen: Charset, store: Store, terminal: Terminal) -> None:
    """The caller's session in this process, on ``store``, within the
    minutes the BBS left them."""
    if config.bulletins.folder:  # written after each finished game
        store.games.recorded.append(BulletinWriter(store, Path(config.bulletins.folder)).game_recorded)
    lobby = Lobby(config.paging, store.clock)
    ctx = DoorContext(config.rules, config.computer.delay, store, config.caller, config.sysops, config.paging, lobby,
                      daily=config.daily, ranked=config.ranked, lines=Lines(config.shared))
    presence = lobby.join(1, terminal)
    caller = Caller(info.name, await bbs_account(store, info.name))
    clog = logging.LoggerAdapter(log, {"node": info.node})
    clog.info("door session for %r (node %s, %d minutes left, %s)", info.name, info.node, info.minutes_left,
              chosen.label)
    limit = asyncio.create_task(time_limit(terminal, info.minutes_left * 60, presence))
    try:
        await terminal.run_session(lambda t: CallerSession(Display(t), ctx, presence, clog).run(caller=caller))
    finally:
        limit.cancel()
        await store.close()


def _is_socket(fd: int) -> bool:
    """Whether descriptor ``fd`` is a socket (not a terminal, pipe or file)."""
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


def find_dropfile(given: Path | None, environ: Mapping[str, str]) -> Path:
    """The drop file to read: ``given`` (``--dropfile``), else the
    BBSDEV.DRP the BBS names in ``BBSDEV_DRP``.  Raises
    :class:`DropFileError` when there is neither."""
    if given is not None:
        return given
    named = environ.get("BBSDEV_DRP", "")
    if not named:
        raise DropFileError("no drop file: give --dropfile, or run under a BBS that sets BBSDEV_DRP")
    return Path(named)


def show_dropfile(dropfile: Path | None, environ: Mapping[str, str]) -> int:
    """``cribbage-door door --show-dropfile``: what the drop file says,
    field by field, without starting a session; 2 and its one-line error
    when it cannot be used."""
    try:
        info = parse_dropfile(find_dropfile(dropfile, environ))
    except DropFileError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 2
    for label, value in info.fields():
        print(f"{label + ':':<15} {value}")
    return 0


def door_main(config: Config, dropfile: Path | None, charset_name: str | None) -> int:
    """The ``door`` command: parse the drop file (``--dropfile``, else
    ``BBSDEV_DRP``) and run the session."""
    info = parse_dropfile(find_dropfile(dropfile, os.environ))
    charset = {"cp437": CP437, "utf-8": UTF8, "ascii": ASCII}.get(charset_name or "")
    return asyncio.run(run_door(config, info, charset))
