"""The attacks on the web page and the hub for ``python3 -m bench.abuse``:
what strangers tried with WebSockets, slow requests and half-open rlogin
calls.  Each runs in the attacker's own process (see :mod:`bench.abuse`)
and returns ``entries`` (what it got that it should not have) and
``notes``; every loop is bounded in count and time, and all traffic is on
127.0.0.0/8.

- ``ping-flood``: ten WebSockets of one address, logged in as guests, send
  ping frames as fast as they can and never read (the library answered
  each with a pong it buffered: 59 -> 600 MB in 40 s).
- ``parked-sockets``: the same ten, silent afterwards, still not reading
  (they kept 475 MB held).
- ``hub-half-open``: a hundred rlogin connections from one address that
  send one byte each, renewed every ten seconds; then a member board's
  caller, from the board's own address, calls (it met "the door is full").
- ``slow-requests``: 21 addresses x 10 HTTP requests that never finish
  their headers (a header every few seconds), renewed as they are closed;
  then a new telnet caller tries to log in (every slot was taken).
- ``dns-rebinding``: a page on evil.example whose name points at the door
  opens the WebSocket with its own name as Host and Origin (it got a 101).
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from typing import Any

from bench.reading import read_until

ATTACKS = ("ping-flood", "parked-sockets", "hub-half-open", "slow-requests", "dns-rebinding")
"""In the order they run."""

BOARD_SECRET = "bench-board-secret-0123"
"""The member board of the benchmark's hub (``[[rlogin.board]]`` in :mod:`bench.abuse`), calling from 127.0.0.2."""

CONFIG = (f'[rlogin]\nenabled = true\nport = 0\n\n[[rlogin.board]]\ntag = "BENCH"\nsecret = "{BOARD_SECRET}"\n'
          'handshake = "synchronet"\naddresses = ["127.0.0.2"]\n')
"""What these attacks need of the door's configuration."""


async def attack(name: str, telnet_port: int, web_port: int, rlogin_port: int, seconds: float) -> dict[str, Any]:
    """Run the attack ``name`` for about ``seconds``."""
    end = time.monotonic() + seconds
    if name == "ping-flood":
        return await _ping_flood(web_port, end)
    if name == "parked-sockets":
        return await _ping_flood(web_port, end, park=True)
    if name == "hub-half-open":
        return await _hub_half_open(rlogin_port, end)
    if name == "slow-requests":
        return await _slow_requests(telnet_port, web_port, end)
    if name == "dns-rebinding":
        return await _dns_rebinding(web_port)
    raise ValueError(f"no web attack {name!r}")


def _ping(payload: bytes = b"p" * 100) -> bytes:
    mask = os.urandom(4)
    return struct.pack("!BB", 0x89, 0x80 | len(payload)) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _binary(data: bytes) -> bytes:
    mask = os.urandom(4)
    return struct.pack("!BB", 0x82, 0x80 | len(data)) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _upgrade(web_port: int, host: str = "127.0.0.1", local: str = "127.0.0.1") -> tuple[Any, Any, bytes]:
    """A raw WebSocket client: the connection once the door answered the
    upgrade, and the status line it answered with."""
    reader, writer = await asyncio.open_connection("127.0.0.1", web_port, local_addr=(local, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws HTTP/1.1\r\nHost: {host}:{web_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{web_port}\r\n"
                 "\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer, head.split(b"\r\n", 1)[0]


async def _ping_flood(web_port: int, end: float, park: bool = False) -> dict[str, Any]:
    """Ten sockets log in as guests, then ping without reading until the
    end (``park``: ping for a moment, then stay silent, still not reading)."""
    sockets = []
    for n in range(10):
        reader, writer, status = await _upgrade(web_port)
        if b"101" not in status:
            continue
        writer.write(_binary(f"Pinger{n}\r".encode()))
        await asyncio.sleep(0.2)
        writer.write(_binary(b"g"))
        sockets.append((reader, writer))
    burst = _ping() * 2000  # 212 KB of pings a write
    sent = 0
    flood_until = end if not park else min(end, time.monotonic() + 3)
    while time.monotonic() < flood_until:
        for _, writer in sockets:
            if writer.is_closing():
                continue
            writer.write(burst)
            sent += len(burst)
        try:
            await asyncio.wait_for(asyncio.gather(*(w.drain() for _, w in sockets if not w.is_closing())), 1.0)
        except (TimeoutError, ConnectionError):
            pass
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    dropped = sum(1 for reader, _ in sockets if reader.at_eof() or reader.exception() is not None)
    for _, writer in sockets:
        writer.transport.abort()
    return {"entries": 0, "notes": f"{len(sockets)} sockets, {sent / 2**20:.0f} MiB of pings sent; "
                                   f"{dropped} dropped by the door"}


async def _hub_half_open(rlogin_port: int, end: float) -> dict[str, Any]:
    """A hundred half-open calls from 127.0.0.9, renewed every 10 s; then
    the member board's caller, from the board's address."""
    opened = refused = 0
    while time.monotonic() < end - 2:
        writers = []
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", rlogin_port, local_addr=("127.0.0.9", 0))
            except OSError:
                refused += 1
                continue
            writer.write(b"\0")
            writers.append(writer)
            opened += 1
        await asyncio.sleep(min(10.0, max(0.0, end - 2 - time.monotonic())))
        for writer in writers:
            writer.transport.abort()
    reader, writer = await asyncio.open_connection("127.0.0.1", rlogin_port, local_addr=("127.0.0.2", 0))
    writer.write(b"\0" + BOARD_SECRET.encode() + b"\0Visitor\0ansi-bbs/38400\0")
    try:
        await read_until(reader, b"Main menu", 15)
        got_in = True
    except (TimeoutError, ConnectionError):
        got_in = False
    writer.close()
    return {"entries": 0, "notes": f"{opened} half-open calls ({refused} refused at connect); the board's caller "
                                   f"{'got in' if got_in else 'was KEPT OUT'}", "kept_out": int(not got_in)}


async def _slow_requests(telnet_port: int, web_port: int, end: float) -> dict[str, Any]:
    """21 addresses x 10 requests that send a header every 3 s, renewed
    when the door closes them; then a newcomer logs in over telnet."""
    held: dict[Any, str] = {}
    made = 0

    async def renew() -> None:
        nonlocal made
        for net in range(1, 22):
            local = f"127.0.{net}.1"
            while sum(1 for v in held.values() if v == local) < 10:
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", web_port, local_addr=(local, 0))
                except OSError:
                    break
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held[writer] = local
                made += 1

    while time.monotonic() < end - 3:
        for writer in [w for w in held if w.is_closing() or w.transport.is_closing()]:
            del held[writer]
        await renew()
        for writer in list(held):
            try:
                writer.write(b"X-Slow: 1\r\n")
            except (ConnectionError, RuntimeError):
                del held[writer]
        await asyncio.sleep(3)
    import telnetlib3

    got_in = False
    try:
        reader, writer = await telnetlib3.open_connection("127.0.0.1", telnet_port, encoding=False, term="xterm",
                                                          cols=80, rows=24, connect_minwait=0.05,
                                                          local_addr=("127.0.250.1", 0))
        await read_until(reader, b"Your name:", 10)
        writer.write(b"Newcomer\r")
        await read_until(reader, b"is not registered", 10)
        writer.write(b"g")
        await read_until(reader, b"Main menu", 10)
        got_in = True
        writer.close()
    except (TimeoutError, ConnectionError, OSError):
        got_in = False
    for writer in held:
        writer.transport.abort()
    return {"entries": 0, "notes": f"{made} slow requests from 21 addresses; a new telnet caller "
                                   f"{'got in' if got_in else 'was KEPT OUT'}", "kept_out": int(not got_in)}


async def _dns_rebinding(web_port: int) -> dict[str, Any]:
    """The page of evil.example, its name resolved to the door: Host and
    Origin both say evil.example."""
    _, writer, status = await _upgrade(web_port, host="evil.example")
    writer.close()
    opened = b"101" in status
    return {"entries": int(opened), "notes": f"the door answered {status.decode(errors='replace')!r}"}
