"""Bad input and bad clients: random bytes on the telnet and SSH
input paths, telnet option storms and silly window sizes, and a client that
stops reading; every other caller goes on as if nothing happened."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import socket

import asyncssh
import pytest

from door.server import DoorServer
from tests.support.clients import watch
from tests.support.player import Player, log_in_as_guest, telnet_caller

IAC, SB, SE, WILL, DO = 255, 250, 240, 251, 253
NAWS = 31


def no_session_failed(caplog: pytest.LogCaptureFixture) -> None:
    failures = [r.getMessage() for r in caplog.records if "session failed" in r.getMessage()]
    assert not failures, failures


@pytest.mark.slow
async def test_a_megabyte_of_noise_while_another_caller_plays(door: DoorServer,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    noisy = await telnet_caller(door.telnet_port)
    player_conn = await telnet_caller(door.telnet_port)
    rnd = random.Random(6)

    async def noise() -> int:
        """A megabyte of random bytes; random keys may well log in and
        press Q, and then the door rightly hangs up: stop there."""
        sent = 0
        try:
            for _ in range(256):
                noisy.writer.write(rnd.randbytes(4096))  # type: ignore[attr-defined]
                await noisy.writer.drain()  # type: ignore[attr-defined]
                sent += 4096
                await asyncio.sleep(0)
        except ConnectionError:
            pass
        return sent

    player = Player(player_conn.screen, player_conn.send, name="Calm")
    sent, screen = await asyncio.gather(noise(), player.play(timeout=150))
    assert sent > 0
    assert re.search(r"(You win|Computer wins) \d+ to \d+!", screen)
    no_session_failed(caplog)
    noisy.close()
    player_conn.close()


async def raw_session(door: DoorServer, payload: bytes) -> bytes:
    """A raw TCP client: send ``payload`` (telnet commands and all), read
    for a moment, hang up; returns what came back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
    writer.write(payload)
    await writer.drain()
    got = b""
    try:
        while len(got) < 200_000:
            chunk = await asyncio.wait_for(reader.read(65536), 2.5)
            if not chunk:
                break
            got += chunk
    except TimeoutError:
        pass
    writer.close()
    return got


def naws(cols: int, rows: int) -> bytes:
    body = bytes([cols >> 8, cols & 255, rows >> 8, rows & 255]).replace(b"\xff", b"\xff\xff")
    return bytes([IAC, WILL, NAWS, IAC, SB, NAWS]) + body + bytes([IAC, SE])


@pytest.mark.parametrize("payload", [
    naws(0, 0) + b"Zed\r",
    naws(65535, 65535) + b"Zed\r",
    naws(1, 1) + b"Zed\r",
    bytes(random.Random(1).choice([IAC]) if i % 3 == 0 else random.Random(i).choice([WILL, DO, SB, SE, 0, 1, 24, 31])
          for i in range(30_000)),
    b"\x00" * 100_000 + b"Zed\r",
    b"\xff\xfa" + b"\x18" * 50_000,  # a subnegotiation that never ends
], ids=["naws-zero", "naws-huge", "naws-tiny", "iac-storm", "nul-flood", "endless-sb"])
async def test_telnet_abuse_is_survived(door: DoorServer, payload: bytes, caplog: pytest.LogCaptureFixture) -> None:
    await raw_session(door, payload)
    # the server still serves a normal caller, and no session failed
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "After")
    caller.close()
    no_session_failed(caplog)


async def test_random_bytes_over_ssh(door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="noise", known_hosts=None, client_keys=None,
                                agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        rnd = random.Random(9)
        process.change_terminal_size(0, 0)
        process.change_terminal_size(9999, 9999)
        process.change_terminal_size(80, 24)
        try:
            for _ in range(64):
                process.stdin.write(rnd.randbytes(4096))
                await asyncio.sleep(0)
        except (BrokenPipeError, asyncssh.Error):
            pass  # random keys may press Q; the door then rightly hangs up
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "After")
    caller.close()
    no_session_failed(caplog)


async def test_a_client_that_stops_reading_is_cut_off(door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    door.config.limits.max_output = 8192
    door.config.limits.stuck_timeout = 1.0
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a tiny window: the server's buffer fills
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", door.telnet_port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(b"Stuck\r" + b"\x0c" * 3000)  # thousands of full redraws, none of them read
    await writer.drain()
    with caplog.at_level(logging.INFO, logger="door.net.terminal"):
        for _ in range(800):  # (a burst of Ctrl-Ls is one redraw: bursts of their own)
            await asyncio.sleep(0.01)
            writer.write(b"\x0c")  # the screen keeps changing, as a game would
            if any("has not read" in r.getMessage() for r in caplog.records):
                break
    assert any("has not read" in r.getMessage() for r in caplog.records)
    # the server's buffer for it never grew far past the limit
    assert all(t.buffered() < 8192 + 65536 for t in door.sessions)
    writer.close()
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "After")
    caller.close()
