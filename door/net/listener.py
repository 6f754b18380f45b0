"""The door's listening endpoints as one type: a :class:`Listener` is what
every ``start_*`` function of ``door/net`` returns (telnet, SSH, the web
page, the rlogin hub, the peer port, the console and node sockets),
whatever library accepts its connections underneath (asyncio's server,
asyncssh's acceptor, the ``websockets`` server); :class:`Bind` says where
a TCP listener listens."""

from __future__ import annotations

import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Bind", "Listener"]


@dataclass(frozen=True)
class Bind:
    """Where a TCP listener listens: ``host`` (an address or name),
    ``port`` (0: any free port; :attr:`Listener.port` says which) and
    ``reuse_port`` (bind with ``SO_REUSEPORT``: several worker processes
    on one port)."""

    host: str
    port: int
    reuse_port: bool = False


class _Accepting(Protocol):
    """What the libraries' servers have in common (asyncio's ``Server``,
    asyncssh's ``SSHAcceptor``, ``websockets``' ``Server``)."""

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


class Listener:
    """One listening endpoint: ``name`` for the log (``"telnet"``,
    ``"ssh"``, ``"web"``, ...), the library's ``server`` and the sockets it
    listens on."""

    def __init__(self, name: str, server: _Accepting, sockets: Iterable[socket.socket]) -> None:
        self.name = name
        self.server = server
        """The library's own server (for tests and benchmarks that look inside it)."""
        self.sockets: tuple[socket.socket, ...] = tuple(sockets)
        """The listening sockets (one per address the host resolved to)."""
        self.port = next((int(sock.getsockname()[1]) for sock in self.sockets
                          if sock.family in (socket.AF_INET, socket.AF_INET6)), 0)
        """The TCP port bound (the one chosen for port 0); 0 for a Unix socket."""

    def close(self) -> None:
        """Stop accepting connections (those already made go on)."""
        self.server.close()

    async def wait_closed(self) -> None:
        """Wait until the listener is closed (:meth:`close` first)."""
        await self.server.wait_closed()
