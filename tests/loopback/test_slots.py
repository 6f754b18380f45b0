"""One connection can neither freeze the others nor
keep a slot it no longer uses.

- A caller who stops reading and hangs up ends its session at once (its
  ``drain()`` used to wait forever: telnetlib3 never woke it).
- A caller who stops reading and stays is cut off after ``stuck_timeout``,
  on telnet and on SSH.
- Connections are counted at accept, on every transport, before any
  negotiation: unauthenticated SSH connections take the address's slots too.
- A telnet connection that never reaches the name prompt, or stays silent
  at the login screens, is closed after ``login_timeout``.
- A paste or a window-size storm costs one frame per burst, not one per key.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
import time
from pathlib import Path

import asyncssh
import pytest

from door.net.gate import ConnectionGate, raise_descriptor_limit
from door.server import DoorServer
from door.ui.renderer import Renderer
from tests.support.clients import until
from tests.support.player import log_in_as_guest, telnet_caller
from tests.support.server import make_config, running

IAC, SB, SE, WILL = 255, 250, 240, 251
NAWS = 31


async def non_reader(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw TCP client with a tiny receive window that will read nothing."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def test_a_non_reader_that_hangs_up_frees_its_slot_at_once(door: DoorServer,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    door.config.limits.max_output = 1 << 30  # the door writes on and waits in drain()
    _, writer = await non_reader(door.telnet_port)
    writer.write(b"Stuck\r" + b"\x0c" * 2000)  # redraws it never reads
    await writer.drain()
    assert await until(lambda: door.gate is not None and door.gate.total == 1)
    for _ in range(500):  # redraws in bursts of their own, until the door's writes back up
        if any(t.buffered() > 0 for t in door.sessions):
            break
        writer.write(b"\x0c")
        await asyncio.sleep(0.01)
    # its session now waits in drain()
    assert any(t.buffered() > 0 for t in door.sessions)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    writer.close()  # a reset: the caller is gone
    with caplog.at_level(logging.INFO, logger="door"):
        # stuck_timeout is 30 s: the session must end long before it
        assert await until(lambda: not door.sessions, 5), "the session outlived its connection"
    assert door.gate is not None and door.gate.total == 0
    assert any("disconnect" in r.getMessage() for r in caplog.records)


async def test_a_non_reader_that_stays_is_cut_off_over_telnet(door: DoorServer,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    door.config.limits.stuck_timeout = 1.0
    _, writer = await non_reader(door.telnet_port)
    writer.write(b"Stuck\r")
    with caplog.at_level(logging.INFO, logger="door.net.terminal"):
        for _ in range(800):
            if any("has not read" in r.getMessage() for r in caplog.records):
                break
            writer.write(b"\x0c")  # a redraw now and then, never read
            await asyncio.sleep(0.01)
        assert any("has not read" in r.getMessage() for r in caplog.records)
    assert await until(lambda: not door.sessions, 5)
    assert door.gate is not None and door.gate.total == 0
    writer.close()


async def test_a_non_reader_that_stays_is_cut_off_over_ssh(door: DoorServer,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    door.config.limits.stuck_timeout = 1.0
    door.config.limits.max_output = 16384
    conn = await asyncssh.connect("127.0.0.1", door.ssh_port, username="Sloth", known_hosts=None,
                                  client_keys=None, agent_path=None, config=None,
                                  window=8192, max_pktsize=4096)
    # a client that never reads stdout: its window stays spent
    process = await conn.create_process(term_type="xterm", term_size=(500, 300), encoding=None)
    with caplog.at_level(logging.INFO, logger="door.net.terminal"):
        for _ in range(100):
            process.change_terminal_size(500 - _ % 2, 300)  # full repaints of a big window
            process.stdin.write(b"\x0c")
            await asyncio.sleep(0.05)
            if any("has not read" in r.getMessage() for r in caplog.records):
                break
        assert any("has not read" in r.getMessage() for r in caplog.records)
    assert await until(lambda: not door.sessions, 5)
    conn.abort()


async def test_the_sysop_kick_never_waits_for_a_non_reader() -> None:
    """A stuck caller's close: the connection is aborted soon after, not kept
    while its unread output waits."""
    loop = asyncio.get_running_loop()
    served: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served.append(writer)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    _, client = await non_reader(port)
    await until(lambda: bool(served))
    from door.net import output as terminal_module
    from door.net.stream_terminal import StreamTerminal
    reader = asyncio.StreamReader()
    t = StreamTerminal("telnet", "x", "xterm", 80, 24, reader, served[0])
    served[0].transport.set_write_buffer_limits(high=1 << 30)
    for _ in range(200):
        t.write(b"x" * 65536)
    assert t.buffered() > 0
    old = terminal_module.CLOSE_GRACE
    terminal_module.CLOSE_GRACE = 0.2
    try:
        started = loop.time()
        t.close()
        assert await until(lambda: served[0].transport.is_closing() and t.buffered() == 0, 5)
        assert loop.time() - started < 4
    finally:
        terminal_module.CLOSE_GRACE = old
        client.close()
        server.close()


async def test_ssh_connections_count_against_the_address_from_accept(door: DoorServer) -> None:
    """Ten raw TCP connections to the SSH port (no key exchange, no login)
    use up the address: the eleventh connection, on telnet, is refused."""
    door.config.limits.max_per_address = 10
    assert door.gate is not None
    door.gate.max_per_address = 10
    socks = []
    for _ in range(10):
        s = socket.create_connection(("127.0.0.1", door.ssh_port))
        socks.append(s)
    assert await until(lambda: door.gate is not None and door.gate.total == 10)
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
    got = await asyncio.wait_for(reader.read(4096), 5)
    assert b"too many calls from your address" in got
    assert await asyncio.wait_for(reader.read(4096), 5) == b""  # and closed
    writer.close()
    for s in socks:
        s.close()
    assert await until(lambda: door.gate is not None and door.gate.total == 0)
    caller = await telnet_caller(door.telnet_port)  # the slots came back
    await log_in_as_guest(caller, "After")
    caller.close()


async def test_a_flood_of_ssh_connections_is_refused_before_the_key_exchange(door: DoorServer) -> None:
    assert door.gate is not None
    door.gate.max_per_address = 3
    socks = [socket.create_connection(("127.0.0.1", door.ssh_port)) for _ in range(3)]
    assert await until(lambda: door.gate is not None and door.gate.total == 3)
    reader, writer = await asyncio.open_connection("127.0.0.1", door.ssh_port)
    assert await asyncio.wait_for(reader.read(4096), 5) == b""  # closed at once: no SSH version line was sent
    writer.close()
    for s in socks:
        s.close()


async def test_telnet_that_never_reaches_the_name_prompt_is_closed(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.server.connect_maxwait = 30.0  # negotiation would wait this long
    config.server.login_timeout = 1.0
    async with running(config) as door:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
        started = time.monotonic()
        while await asyncio.wait_for(reader.read(4096), 10):  # negotiation only; then closed
            pass
        assert time.monotonic() - started < 8
        assert await until(lambda: door.gate is not None and door.gate.total == 0)
        writer.close()


async def test_silence_at_the_login_screens_ends_after_login_timeout(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.server.login_timeout = 1.0
    async with running(config) as door:
        caller = await telnet_caller(door.telnet_port)
        await caller.screen.wait_for(lambda: "Your name:" in caller.screen.text())
        await asyncio.wait_for(caller.done, 10)  # the door hung up
        assert await until(lambda: not door.sessions)


def test_the_descriptor_limit_is_raised_and_respected() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        got = raise_descriptor_limit()
        assert got == (hard if hard != resource.RLIM_INFINITY else got)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == got
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]), hard))
    gate = ConnectionGate(5000, 10, descriptors=1024)
    assert gate.max_total == 1024 - 64  # refused cleanly well before accept() fails
    assert [gate.admit("a").refused for _ in range(11)].count(None) == 10


async def count_frames(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    frames = [0]
    render = Renderer.render

    def counting(self: Renderer, canvas):  # type: ignore[no-untyped-def]
        frames[0] += 1
        return render(self, canvas)

    monkeypatch.setattr(Renderer, "render", counting)
    return frames


async def test_a_paste_costs_one_frame_per_burst(door: DoorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    caller = await telnet_caller(door.telnet_port, 200, 100)
    await caller.screen.wait_for(lambda: "Your name:" in caller.screen.text())
    frames = await count_frames(monkeypatch)
    paste = b"x" * 50_000
    await caller.send(paste)
    await caller.send(b"\x08" * 20 + b"Paste\r")
    await caller.screen.wait_for(lambda: "is not registered" in caller.screen.text(), 60)
    # 50,000 keys; a frame per key was 50,000 paints of a 200x100 window
    assert frames[0] < 500, frames[0]
    caller.close()


async def test_a_storm_of_window_sizes_costs_few_frames(door: DoorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
    writer.write(b"Storm\r")
    await writer.drain()
    assert await until(lambda: bool(door.sessions))
    await asyncio.sleep(1.5)  # past negotiation
    frames = await count_frames(monkeypatch)
    storm = b"".join(bytes([IAC, SB, NAWS, 0, 80 + i % 100, 0, 24 + i % 50, IAC, SE]) for i in range(5000))
    writer.write(bytes([IAC, WILL, NAWS]) + storm)
    await writer.drain()
    await asyncio.sleep(2)
    assert frames[0] < 200, frames[0]
    writer.close()


async def test_finished_telnet_calls_are_not_kept_alive(door: DoorServer) -> None:
    """telnetlib3 kept the last 1,000 connections' protocols (reader,
    writer, timers) in a queue nobody reads: the soak's memory growth."""
    import gc

    from door.net.telnet import TelnetTerminal

    for i in range(25):
        caller = await telnet_caller(door.telnet_port)
        await log_in_as_guest(caller, f"Brief{i}")
        await caller.send(b"q")
        await asyncio.wait_for(caller.done, 10)
        caller.close()
    assert await until(lambda: not door.sessions)
    await asyncio.sleep(0.2)
    gc.collect()
    protocols = [o for o in gc.get_objects() if type(o).__name__ == "GatedTelnetServer"]
    terminals = [o for o in gc.get_objects() if isinstance(o, TelnetTerminal)]
    assert len(protocols) <= 3 and len(terminals) <= 3, (len(protocols), len(terminals))
