"""bench.gc_probe's kernel clock: when a caller's bytes reached the door's socket."""

from __future__ import annotations

import socket
import time

from bench.gc_probe import SO_TIMESTAMPNS, _arrival


def _stamped(server: socket.socket, client: socket.socket) -> bool:
    """Wait (at most 5 s) until the kernel stamps what ``server`` receives:
    it turns receive timestamps on a moment after the first socket asks
    (a deferred work item), and bytes that arrive before are not stamped."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        client.sendall(b".")
        time.sleep(0.02)
        stamped = _arrival(server) is not None
        server.recv(4096)
        if stamped:
            return True
    return False


def test_the_arrival_of_unread_bytes_is_the_kernels_and_leaves_them_unread() -> None:
    """The bytes' age is how long they waited, not when they were read;
    peeking reads nothing; no bytes, no time."""
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.create_connection(listener.getsockname()) as client:
            server, _ = listener.accept()
            with server:
                server.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                assert _arrival(server) is None  # nothing has arrived
                assert _stamped(server, client)
                client.sendall(b"\x1b[C")
                time.sleep(0.2)
                arrived = _arrival(server)
                assert arrived is not None
                waited = time.monotonic() - arrived
                assert 0.15 <= waited < 5.0
                assert server.recv(16) == b"\x1b[C"  # still there to be read
