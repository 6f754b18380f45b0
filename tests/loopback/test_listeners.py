"""Every listener of the door is one type (door.net.listener.Listener),
whichever library accepts underneath: it says the port it bound when
asked for any free port, and once closed nobody gets in."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncssh
import pytest

from door.net.gate import ConnectionGate
from door.net.listener import Bind, Listener
from door.net.local_socket import start_local
from door.net.rlogin import start_rlogin
from door.net.ssh import start_ssh
from door.net.telnet import start_telnet
from door.net.terminal import Terminal


async def _nobody(*_: object) -> None:
    """A session that is never reached in these tests."""


async def _refused(port: int) -> bool:
    """True when a TCP connection to ``port`` on loopback is refused."""
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return True
    writer.close()
    return False


async def _listeners(tmp_path: Path) -> list[Listener]:
    gate = ConnectionGate(10, 10)
    key = asyncssh.generate_private_key("ssh-ed25519")
    return [
        await start_telnet(Bind("127.0.0.1", 0), _nobody, gate=gate),
        await start_ssh(Bind("127.0.0.1", 0), _nobody, key, lambda peer, close: None,  # type: ignore[arg-type,return-value]
                        gate=gate),
        await start_rlogin(Bind("127.0.0.1", 0), _nobody, gate),  # type: ignore[arg-type]
    ]


async def test_each_listener_says_its_port_and_closes(tmp_path: Path) -> None:
    listeners = await _listeners(tmp_path)
    try:
        assert [listener.name for listener in listeners] == ["telnet", "ssh", "rlogin"]
        for listener in listeners:
            assert listener.port > 0
            assert listener.port == listener.sockets[0].getsockname()[1]
            assert not await _refused(listener.port)
    finally:
        for listener in listeners:
            listener.close()
            await listener.wait_closed()
    for listener in listeners:
        assert await _refused(listener.port), listener.name


async def test_a_unix_socket_listener_has_no_port(tmp_path: Path) -> None:
    listener = await start_local(tmp_path / "x.sock", lambda reader, writer: _nobody(), b"no\r\n")
    try:
        assert listener.port == 0
        assert listener.sockets[0].family == socket.AF_UNIX
    finally:
        listener.close()
        await listener.wait_closed()
    assert not isinstance(listener, Terminal)
    with pytest.raises(OSError):
        await asyncio.open_unix_connection(str(tmp_path / "x.sock"))
