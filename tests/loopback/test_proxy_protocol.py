"""Callers behind a TCP load balancer: the PROXY protocol (versions 1
and 2) on the telnet, SSH and rlogin ports, believed only from the
addresses in ``[server] proxies``.  The balancer here is a raw client on
127.0.0.2 that writes the header as HAProxy does; a header from any other
address is refused, and a listed proxy that sends none is cut off."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from door.config import BoardConfig, Config, Handshake
from door.net import proxy_protocol
from door.server import DoorServer
from tests.support.clients import until
from tests.support.server import make_config, running

PROXY = "127.0.0.2"
CALLER = "203.0.113.9"
SECRET = "sync-secret-0123"


def proxied_config(data: Path) -> Config:
    config = make_config(data)
    config.server.proxies = [PROXY]
    config.rlogin.enabled = True
    config.rlogin.port = 0
    # the board's callers come through the balancer: its address is the one the header names
    config.rlogin.boards = [BoardConfig("SYNC", SECRET, Handshake.SYNCHRONET, ("203.0.113.0/24",))]
    return config


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(proxied_config(tmp_path / "data")) as server:
        yield server


def v1(port: int, source: str = CALLER, source_port: int = 50123) -> bytes:
    return f"PROXY TCP4 {source} 127.0.0.1 {source_port} {port}\r\n".encode()


def v2(port: int, source: str = CALLER, source_port: int = 50123) -> bytes:
    addresses = ipaddress.IPv4Address(source).packed + ipaddress.IPv4Address("127.0.0.1").packed
    body = addresses + struct.pack("!HH", source_port, port)
    return proxy_protocol.V2_SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


def addresses(door: DoorServer) -> set[str]:
    return {terminal.address for terminal in door.sessions}


async def closed(reader: asyncio.StreamReader, seconds: float = 5.0) -> bool:
    """True when the door ends the connection within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(4096):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


async def test_a_telnet_caller_behind_the_balancer_is_known_by_their_own_address(door: DoorServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port, local_addr=(PROXY, 0))
    writer.write(v1(door.telnet_port))
    assert await reader.read(1)  # the telnet negotiation begins once the header is read
    assert await until(lambda: CALLER in addresses(door))
    assert PROXY not in addresses(door)
    writer.close()


async def test_an_ssh_caller_behind_the_balancer_with_a_version_2_header(door: DoorServer) -> None:
    sock = socket.socket()
    sock.bind((PROXY, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", door.ssh_port))
    await asyncio.get_running_loop().sock_sendall(sock, v2(door.ssh_port, "198.51.100.20"))
    async with asyncssh.connect(sock=sock, username="Pia", known_hosts=None, client_keys=None, agent_path=None,
                                config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        assert await until(lambda: "198.51.100.20" in addresses(door))
        process.close()


async def test_a_hub_board_behind_the_balancer_is_known_by_its_own_address(door: DoorServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", door.rlogin_port, local_addr=(PROXY, 0))
    writer.write(v1(door.rlogin_port) + b"\0" + SECRET.encode() + b"\0Ann\0ansi/38400\0")
    assert await reader.read(1) == b"\0"  # the board's address (the header's) is one it lists
    assert await until(lambda: CALLER in addresses(door))
    writer.close()


@pytest.mark.parametrize("listener", ["telnet", "ssh", "rlogin"])
async def test_a_header_from_an_address_not_listed_is_refused(door: DoorServer, listener: str,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    port = {"telnet": door.telnet_port, "ssh": door.ssh_port, "rlogin": door.rlogin_port}[listener]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)  # (127.0.0.1 is no proxy here)
    writer.write(v1(port, "192.0.2.1"))
    assert await closed(reader)
    assert "192.0.2.1" not in addresses(door)
    if listener != "rlogin":  # (the hub closes a stranger to its boards before reading a byte)
        assert any("not in [server] proxies" in r.getMessage() for r in caplog.records)
    writer.close()


async def test_a_caller_who_connects_directly_is_served_as_before(door: DoorServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port)
    assert await reader.read(1)
    assert await until(lambda: "127.0.0.1" in addresses(door))
    writer.close()


async def test_a_listed_proxy_that_sends_garbage_or_nothing_is_cut_off(door: DoorServer,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port, local_addr=(PROXY, 0))
    writer.write(b"GET / HTTP/1.0\r\n\r\n")
    assert await closed(reader)
    monkeypatch.setattr(proxy_protocol, "HEADER_TIMEOUT", 0.3)
    reader, writer = await asyncio.open_connection("127.0.0.1", door.telnet_port, local_addr=(PROXY, 0))
    assert await closed(reader, 3.0)
    assert addresses(door) == set()
