"""A Unix socket in the data folder that only the door's own user can use:
the file is made with mode 0600, and every connecting process must run as
the same user as the server (checked with ``SO_PEERCRED``).  The sysop's
console (:mod:`door.net.console_socket`) and the BBS nodes
(:mod:`door.net.node_socket`) listen this way."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import struct
from collections.abc import Awaitable, Callable
from pathlib import Path

from door.net.listener import Listener

__all__ = ["start_local", "peer_uid"]

log = logging.getLogger(__name__)

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def peer_uid(writer: asyncio.StreamWriter) -> int | None:
    """The user id of the process at the other end of a Unix socket, or
    ``None`` when the system cannot say."""
    sock = writer.get_extra_info("socket")
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    return int(struct.unpack("3i", creds)[1])


def _answers(path: Path) -> bool:
    """True when something listens on the Unix socket ``path`` (a file
    left by a server that died refuses the connection)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    else:
        return True
    finally:
        probe.close()


async def start_local(path: Path, handle: Handler, refusal: bytes, limit: int = 4096) -> Listener:
    """Listen on ``path`` (a stale socket file there is replaced; the new
    one is mode 0600) and run ``handle(reader, writer)`` for each process
    of this user that connects; others get ``refusal`` and are closed.
    ``limit``: the longest line ``readline`` accepts, in bytes.  Raises ``OSError`` (``EADDRINUSE``) when a live
    server answers on ``path``: another door serves this data folder, and
    taking its socket would cut its sysop console and BBS nodes off."""
    if _answers(path):
        raise OSError(errno.EADDRINUSE, f"{path}: another door server is running on this data folder "
                                        "(stop it, or give this one another --data-dir)")
    if path.exists() or path.is_symlink():
        path.unlink()

    async def checked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        uid = peer_uid(writer)
        if uid is None or uid != os.getuid():
            log.warning("%s: connection from uid %s refused", path.name, uid)
            writer.write(refusal)
            writer.close()
            return
        await handle(reader, writer)

    old = os.umask(0o177)  # the socket file is made 0600
    try:
        server = await asyncio.start_unix_server(checked, path=str(path), limit=limit)
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    return Listener(path.name, server, server.sockets)
