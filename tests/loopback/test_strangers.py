"""One stranger cannot fill, slow or split the door.

- One SSH connection is one caller: a second session channel is refused
  with a channel-open failure, and channels past the first (when the sysop
  allows more) count against the address's and the door's limits.
- A demonstration cannot be sped past its floor.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncssh
import pytest

from door.server import DoorServer
from tests.support.clients import until, watch
from tests.support.server import make_config, running


def ssh_connect(door: DoorServer, user: str = "shells"):  # type: ignore[no-untyped-def]
    return asyncssh.connect("127.0.0.1", door.ssh_port, username=user, known_hosts=None, client_keys=None,
                            agent_path=None, config=None)


async def test_one_ssh_connection_gets_one_session(door: DoorServer) -> None:
    async with ssh_connect(door) as conn:
        first = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(first, 80, 24)
        assert await until(lambda: "Your name" in screen.text())
        refused = 0
        for _ in range(20):  # (the attack opened 210)
            with pytest.raises(asyncssh.ChannelOpenError) as failure:
                await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            refused += 1
        assert refused == 20
        assert "session" in failure.value.reason
        assert len(door.sessions) == 1
        # the first session goes on as if nothing happened
        first.stdin.write(b"Ann\r")
        assert await until(lambda: "not registered" in screen.text())
        task.cancel()
    assert await until(lambda: not door.sessions and door.gate is not None and door.gate.total == 0)


async def test_extra_ssh_sessions_count_against_the_address(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.limits.ssh_sessions = 8
    config.limits.max_per_address = 3
    async with running(config) as door:
        async with ssh_connect(door) as conn:
            processes = []
            for _ in range(3):  # the connection and two more sessions: the address's three
                processes.append(await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None))
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            assert door.gate is not None and door.gate.total == 3
            # nor can a new connection from the address get in
            with pytest.raises((asyncssh.Error, OSError)):
                async with ssh_connect(door, "other") as other:
                    await other.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            processes[1].close()
            assert await until(lambda: door.gate is not None and door.gate.total == 2)
            processes.append(await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None))
            assert door.gate.total == 3
        assert await until(lambda: door.gate is not None and door.gate.total == 0)


async def test_refused_hellos_cannot_flood_the_log(tmp_path: Path) -> None:
    """400 bad hellos on a worker's peer port from one address
    (451 KiB of log a second before) write at most a burst of lines."""
    import re

    from door.net.logs import SOURCE_BURST
    from tests.support.server import start_workers_process

    proc, _ = start_workers_process(tmp_path / "data", 2)
    try:
        port = None
        deadline = time.monotonic() + 20
        while port is None and time.monotonic() < deadline:
            for line in list(proc.log_tail):  # type: ignore[attr-defined]
                if m := re.search(r"peers reach it on 127\.0\.0\.1:(\d+)", line):
                    port = int(m.group(1))
            await asyncio.sleep(0.05)
        assert port is not None
        for _ in range(400):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            await reader.readline()
            writer.write(b"PEER {}\n")
            await reader.read()
            writer.close()
        await asyncio.sleep(0.5)
        refused = [line for line in list(proc.log_tail) if "peer hello from" in line]  # type: ignore[attr-defined]
        assert SOURCE_BURST // 2 <= len(refused) <= SOURCE_BURST + 1, len(refused)
    finally:
        proc.terminate()
        proc.wait(10)


async def test_a_storm_of_telnet_commands_gets_a_share_of_the_loop(door: DoorServer) -> None:
    """Found while measuring the honest callers' delays under attack: a window-size storm (telnet
    commands telnetlib3 answers itself, which never reach the door's input
    limit) was parsed 256 KiB at a time, keeping every other caller waiting
    for over a second (bench.abuse resize-storm: honest p99 1,364 ms).  Now a
    connection is read at most READ_SIZE bytes at once and, past a burst, at
    READ_RATE a second: the rest waits in the sender's TCP window."""
    from door.net.telnet import READ_BURST, READ_SIZE

    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
    await asyncio.sleep(1.2)  # past the negotiation the client never answers
    writer.write(b"Storm\r" + bytes([255, 251, 31]))
    storm = b"".join(bytes([255, 250, 31, 1, i % 200, 0, 24 + i % 200, 255, 240]) for i in range(60_000))
    writer.write(storm)  # 540 KB of window sizes at once
    assert await until(lambda: len(door.sessions) == 1)
    [terminal] = list(door.sessions)
    transport = terminal._writer.transport  # type: ignore[attr-defined]
    assert transport.max_size == READ_SIZE
    assert await until(lambda: not transport.is_reading(), 5), "a connection over its share is still read"
    assert len(storm) > READ_BURST  # (paused after its burst: the rest waits in the kernel's buffers)
    # a caller at another connection is answered meanwhile
    from tests.support.player import log_in_as_guest, telnet_caller
    calm = await telnet_caller(door.telnet_port)
    await log_in_as_guest(calm, "Calm")
    calm.close()
    writer.close()
