"""Each caller's address to one worker (``serve --workers``): the kernel
spreads new connections over the workers' listening sockets
(``SO_REUSEPORT``), by default by a hash of both ends' addresses and
ports, so one address's connections land on every worker, and each
worker's per-address counts (``[limits] max_per_address``, the
wrong-password counts of :mod:`door.records.throttle`) would see only its
share.  A small classic BPF program attached to the listening sockets'
group (``SO_ATTACH_REUSEPORT_CBPF``, Linux 4.5 and later) chooses the
socket by the source address instead: every connection from one address
goes to the same worker, whose counts are then the whole truth.

The program reads the source address from the IP header (IPv4: the
whole address; IPv6: its last 32 bits), modulo the number of workers.  The
socket it names is the one at that place in the group: the order in
which the workers bound, and after a worker starts again, another order,
but one address still lands on one worker.  While a worker is down the
group is smaller: a place past its end lets the kernel hash as usual
until the worker is back.
"""

from __future__ import annotations

import ctypes
import logging
import socket
import struct
from collections.abc import Iterable
from typing import Any

__all__ = ["steer_by_address", "SO_ATTACH_REUSEPORT_CBPF", "program"]

log = logging.getLogger(__name__)

SO_ATTACH_REUSEPORT_CBPF = 51
"""The socket option (Linux ``asm-generic/socket.h``)."""

_NET = -0x100000  # SKF_NET_OFF: offsets from the network (IP) header
_LD_B_ABS, _LD_W_ABS = 0x30, 0x20
_RSH_K, _MOD_K = 0x74, 0x94
_JEQ_K, _JA = 0x15, 0x05
_RET_A = 0x16


def program(workers: int) -> list[tuple[int, int, int, int]]:
    """The classic BPF instructions ``(code, jt, jf, k)`` that return the
    caller's address modulo ``workers``.  Raises ``ValueError`` for fewer
    than 1 worker."""
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, got {workers}")
    return [
        (_LD_B_ABS, 0, 0, _NET + 0),    # A = the first byte of the IP header
        (_RSH_K, 0, 0, 4),              # A = the IP version
        (_JEQ_K, 2, 0, 6),              # IPv6: to the last 32 bits of its source address
        (_LD_W_ABS, 0, 0, _NET + 12),   # A = the IPv4 source address
        (_JA, 0, 0, 1),
        (_LD_W_ABS, 0, 0, _NET + 20),   # A = the last 32 bits of the IPv6 source address
        (_MOD_K, 0, 0, workers),        # A = A mod workers
        (_RET_A, 0, 0, 0),              # the socket at place A of the group
    ]


def steer_by_address(sockets: Iterable[Any], workers: int) -> bool:
    """Attach :func:`program` to the reuse-port group of each listening
    socket in ``sockets`` (``socket.socket`` or asyncio's wrappers).
    False, after logging why, where the system refuses (the kernel then
    spreads callers by its hash)."""
    code = b"".join(struct.pack("HBBI", op, jt, jf, k & 0xFFFFFFFF) for op, jt, jf, k in program(workers))
    instructions = ctypes.create_string_buffer(code, len(code))
    fprog = struct.pack("HL", len(code) // 8, ctypes.addressof(instructions))  # struct sock_fprog
    ok = True
    for sock in sockets:
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            continue
        try:
            sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, fprog)  # (the kernel copies it)
        except OSError as exc:
            log.warning("cannot steer callers to workers by address (%s): the kernel spreads them by its hash, "
                        "and per-address limits count per worker", exc)
            ok = False
    return ok
