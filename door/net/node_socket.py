"""BBS nodes joining a running server (issue 16.2): a Unix socket in the
data folder, ``node.sock``, that only the door's own user can use
(:mod:`door.net.local_socket`).

Under a BBS, each node runs ``cribbage-door door`` as its own process.
When ``cribbage-door serve`` runs on the same data folder, the door
process hands its caller over: it connects here, sends one line,
``NODE {json}`` (:class:`NodeHello`: the BBS user name, the node, the
window size, the charset and the seconds left), and then relays the
caller's bytes to the server and the server's screen back, unchanged.
The caller is then one more session of the server: they see who is on
line, page the sysop at the console, challenge callers on any node or
transport, and their game outlives the door process like any other.
Without a running server the door process plays on its own, as before.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from door.net.charset import Charset
from door.net.hello import HELLO_LIMIT, check_charset, check_name, check_whole, encode_hello, hello_fields, profile_named
from door.net.keys import KeyName
from door.net.local_socket import start_local
from door.net.terminal import StreamTerminal, Terminal

__all__ = ["NODE_SOCKET", "NodeHello", "NodeTerminal", "start_nodes", "connect_hub", "relay", "HELLO_LIMIT"]

log = logging.getLogger(__name__)

NODE_SOCKET = "node.sock"
"""The socket's file name in the data folder."""


@dataclass(frozen=True)
class NodeHello:
    """What a door process says of its caller: the BBS user ``name``, the
    BBS ``node`` number, the window size ``cols`` x ``rows`` in cells, the
    output ``charset`` (``"cp437"``, ``"utf-8"`` or ``"ascii"``), and the
    ``seconds`` the caller has left today."""

    name: str
    node: int
    cols: int
    rows: int
    charset: str
    seconds: float

    def encode(self) -> bytes:
        """The hello line, ``NODE {json}\\n``."""
        return encode_hello("NODE", asdict(self))

    @classmethod
    def decode(cls, line: bytes) -> "NodeHello":
        """Read a hello line.  Raises ``ValueError`` (with what is wrong)
        for anything but a well-formed one."""
        fields = hello_fields(line, "NODE", cls.__dataclass_fields__)
        name, node, cols, rows = fields["name"], fields["node"], fields["cols"], fields["rows"]
        charset, seconds = fields["charset"], fields["seconds"]
        check_name(name)
        for label, value in (("node", node), ("cols", cols), ("rows", rows)):
            check_whole(label, value)
        check_charset(charset)
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 <= seconds <= 86_400:
            raise ValueError("seconds: 0 to 86400")
        return cls(name, node, cols, rows, charset, float(seconds))

    @property
    def profile(self) -> Charset:
        """The :class:`Charset` named by ``charset``."""
        return profile_named(self.charset)


class NodeTerminal(StreamTerminal):
    """A :class:`Terminal` over the node socket: the caller of a BBS node,
    relayed by their door process."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: NodeHello) -> None:
        super().__init__("node", f"node {hello.node}", "ansi", hello.cols, hello.rows, reader, writer)
        self.charset = hello.profile


async def start_nodes(data_dir: Path, session: Callable[[NodeTerminal, NodeHello], Awaitable[None]]) -> Any:
    """Listen on ``data_dir/node.sock`` (mode 0600) and run
    ``session(terminal, hello)`` for each door process of the server's
    user that hands over a caller.  Returns the asyncio server."""
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            hello = NodeHello.decode(await asyncio.wait_for(reader.readline(), 10))
        except (asyncio.TimeoutError, ValueError) as exc:  # a line over the limit is a ValueError too
            log.warning("node hello refused: %s", exc)
            writer.write(b"\r\nThe door's server did not understand this node: " + str(exc).encode()[:200] + b"\r\n")
            writer.close()
            return
        terminal = NodeTerminal(reader, writer, hello)
        try:
            await terminal.run_session(lambda _: session(terminal, hello))
        except asyncio.CancelledError:
            pass  # the server is stopping; this handler is the task's outermost frame

    return await start_local(data_dir / NODE_SOCKET, handle, b"This socket is only for the door's own nodes.\r\n",
                             limit=HELLO_LIMIT)


async def connect_hub(data_dir: Path) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to the server running on ``data_dir``, or ``None``
    when none runs there (no socket, a stale one, or not ours)."""
    try:
        return await asyncio.wait_for(asyncio.open_unix_connection(str(data_dir / NODE_SOCKET)), 5)
    except (OSError, asyncio.TimeoutError):
        return None


async def relay(terminal: Terminal, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                hello: bytes) -> None:
    """Hand ``terminal``'s caller to the server at the other end of
    ``reader``/``writer``: send the ``hello`` line (:meth:`NodeHello.encode`,
    or a peer's, :mod:`door.net.peer_socket`), then pass the caller's bytes
    on as they come and the server's bytes back (waiting while the
    caller's side is full), until either side ends.  While the server's
    side holds more than its transport's high-water mark unsent, the
    caller's connection is not read (a paste or a flood waits in their TCP
    window, not in this process)."""
    writer.write(hello)
    high = writer.transport.get_write_buffer_limits()[1]
    releasing: asyncio.Task[None] | None = None

    async def release() -> None:
        nonlocal releasing
        try:
            await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            releasing = None
            terminal.release_input()

    def forward(data: bytes) -> None:
        nonlocal releasing
        writer.write(data)
        if releasing is None and writer.transport.get_write_buffer_size() > high:
            terminal.hold_input()
            releasing = asyncio.create_task(release())

    terminal.tap = forward

    async def caller_gone() -> None:
        while (key := await terminal.get_key()) is None or key.name is not KeyName.EOF:
            pass

    gone = asyncio.create_task(caller_gone())
    try:
        while not gone.done():
            read = asyncio.create_task(reader.read(65536))
            await asyncio.wait({read, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not read.done():
                read.cancel()
                break
            data = read.result()
            if not data:
                break  # the server ended the session (goodbye, time up, or it stopped)
            terminal.write(data)
            await terminal.drain()
    except (ConnectionError, OSError) as exc:
        log.info("the server's node socket failed: %s", exc)
    finally:
        gone.cancel()
        if releasing is not None:
            releasing.cancel()
        terminal.tap = None
        terminal.release_input()
        writer.close()
