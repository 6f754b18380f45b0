"""BBS nodes joining a running server: a Unix socket in the
data folder, ``node.sock``, that only the door's own user can use
(:mod:`door.net.local_socket`).

Under a BBS, each node runs ``cribbage-door door`` as its own process.
When ``cribbage-door serve`` runs on the same data folder, the door
process hands its caller over: it connects here, sends one line,
``NODE {json}`` (:class:`NodeHello`: the BBS user name, the node, the
window size, the charset and the seconds left), and then relays the
caller's bytes to the server (framed, so that a window change goes too:
:mod:`door.net.relay`) and the server's screen back, unchanged.
The caller is then one more session of the server: they see who is on
line, page the sysop at the console, challenge callers on any node or
transport, and their game outlives the door process like any other.
Without a running server the door process plays on its own, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from door.net.charset import Charset
from door.net.hello import (
    HELLO_LIMIT,
    check_charset,
    check_flag,
    check_name,
    check_whole,
    encode_hello,
    hello_fields,
    profile_named,
)
from door.net.listener import Listener
from door.net.local_socket import start_local
from door.net.relay import RelayedTerminal
from door.net.terminal import TerminalKind

__all__ = ["NODE_SOCKET", "NodeHello", "NodeTerminal", "start_nodes", "connect_hub", "HELLO_LIMIT"]

log = logging.getLogger(__name__)

NODE_SOCKET = "node.sock"
"""The socket's file name in the data folder."""


@dataclass(frozen=True)
class NodeHello:
    """What a door process says of its caller: the BBS user ``name``, the
    BBS ``node`` number, the window size ``cols`` x ``rows`` in cells, the
    output ``charset`` (``"cp437"``, ``"utf-8"`` or ``"ascii"``), and the
    ``seconds`` the caller has left today; ``plain``: the caller gets the
    line presentation (the BBS said they have no ANSI)."""

    name: str
    node: int
    cols: int
    rows: int
    charset: str
    seconds: float
    plain: bool = False

    def encode(self) -> bytes:
        """The hello line, ``NODE {json}\\n``."""
        return encode_hello("NODE", asdict(self))

    @classmethod
    def decode(cls, line: bytes) -> NodeHello:
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
        return cls(name, node, cols, rows, charset, float(seconds), check_flag("plain", fields["plain"]))

    @property
    def profile(self) -> Charset:
        """The :class:`Charset` named by ``charset``."""
        return profile_named(self.charset)


class NodeTerminal(RelayedTerminal):
    """A :class:`Terminal` over the node socket: the caller of a BBS node,
    relayed by their door process."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: NodeHello) -> None:
        super().__init__(TerminalKind.NODE, f"node {hello.node}", "ansi", hello.cols, hello.rows, reader, writer)
        self.charset = hello.profile
        self.screen_reader = hello.plain


async def start_nodes(data_dir: Path, session: Callable[[NodeTerminal, NodeHello], Awaitable[None]]) -> Listener:
    """Listen on ``data_dir/node.sock`` (mode 0600) and run
    ``session(terminal, hello)`` for each door process of the server's
    user that hands over a caller."""
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            hello = NodeHello.decode(await asyncio.wait_for(reader.readline(), 10))
        except (TimeoutError, ValueError) as exc:  # a line over the limit is a ValueError too
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
    except (TimeoutError, OSError):
        return None
