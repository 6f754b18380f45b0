"""The web listener without a browser: the page and its
headers, the WebSocket session (a guest to the menu, a resize), and the
door's rules for strangers: origin, frame size, message rate, the
connection gate at accept, X-Forwarded-For only from a proxy."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pyte
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from door.net.terminal import TerminalKind
from door.server import DoorServer
from tests.support.server import make_config, running


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data")
    config.web.max_message = 1024
    config.web.message_rate = 100
    config.web.origins = ["https://bbs.example.org"]
    async with running(config) as server:
        yield server


def get(door: DoorServer, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{door.web_port}{path}", timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


class WebScreen:
    """A WebSocket caller whose output goes to a pyte screen."""

    def __init__(self, ws: ClientConnection, cols: int = 80, rows: int = 25) -> None:
        self.ws = ws
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, words: str, timeout: float = 10.0) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while words not in self.text():
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no {words!r} on the screen:\n{self.text()}"
            message = await asyncio.wait_for(self.ws.recv(), left)
            if isinstance(message, bytes):
                self.stream.feed(message)


def origin(door: DoorServer) -> str:
    return f"http://127.0.0.1:{door.web_port}"


async def test_the_page_its_headers_and_nothing_else_of_the_disk(web: DoorServer) -> None:
    status, headers, body = await asyncio.to_thread(get, web, "/")
    assert status == 200 and b"vendor/xterm.js" in body and b"<script>" not in body  # no inline script
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = await asyncio.to_thread(get, web, "/vendor/xterm.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript") and len(body) > 100_000
    for path in ("/../pyproject.toml", "/vendor/VENDOR.json", "/door.py", "/%2e%2e/pyproject.toml"):
        assert (await asyncio.to_thread(get, web, path))[0] == 404, path


async def test_a_guest_plays_from_the_websocket_and_the_window_size_follows(web: DoorServer) -> None:
    async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin=origin(web)) as ws:
        s = WebScreen(ws, 100, 30)
        await s.until("Your name:")
        await ws.send('{"cols": 100, "rows": 30}')
        await ws.send(b"Webster\r")
        await s.until("is not registered")
        await ws.send(b"g")
        await s.until("Main menu")
        presence = next(p for p in web.ctx.lobby.presences.values() if p.name == "Webster")
        assert presence.terminal.kind is TerminalKind.WEB and presence.terminal.charset.name == "utf-8"
        assert (presence.terminal.cols, presence.terminal.rows) == (100, 30)
        await ws.send(b"1")
        await s.until("Press 1 or 2")
        await ws.send(b"1")
        await s.until("blank line deals")
        await ws.send(b"\r")
        await s.until("Choose 2 cards")


async def test_another_origin_is_refused_and_a_listed_one_is_not(web: DoorServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin="https://evil.example"):
            pass
    assert refused.value.response.status_code == 403
    async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin="https://bbs.example.org") as ws:
        await WebScreen(ws).until("Your name:")


async def test_an_origin_is_read_as_a_url_and_must_be_the_pages_own_exactly(web: DoorServer) -> None:
    """Look-alikes of the page's origin are refused: a host that begins
    with the door's address, another port, a user before the host, a
    path, a scheme the page does not have, a port that is not a number."""
    port = web.web_port
    for stranger in (f"http://127.0.0.1:{port}.evil.example", f"http://127.0.0.1:{port + 1}",
                     f"http://127.0.0.1:{port}@evil.example", f"http://evil.example#@127.0.0.1:{port}",
                     f"http://127.0.0.1:{port}/page", f"ftp://127.0.0.1:{port}", "http://127.0.0.1",
                     f"http://127.0.0.1:{port}x", "null", f"http://localhost:{port}"):
        with pytest.raises(InvalidStatus) as refused:
            async with connect(f"ws://127.0.0.1:{port}/ws", origin=stranger):
                pass
        assert refused.value.response.status_code == 403, stranger
    with pytest.raises(InvalidStatus) as refused:  # the game protocol's socket too
        async with connect(f"ws://127.0.0.1:{port}/api/v1/play",
                           origin=f"http://127.0.0.1:{port}.evil.example"):
            pass
    assert refused.value.response.status_code == 403
    for own in (f"http://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}"):
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=own) as ws:
            await WebScreen(ws).until("Your name:")


async def test_dns_rebinding_a_name_the_sysop_did_not_list_gets_nothing(web: DoorServer) -> None:
    """A page on evil.example whose DNS points at the door: its requests
    name evil.example as the Host, and its socket's Origin equals that
    Host.  Neither is the door's name: refused (it was a 101 before)."""
    rebound = f"evil.example:{web.web_port}"
    with pytest.raises(InvalidStatus) as refused:  # (the browser's Host: the name it resolved, not an address)
        async with connect(f"ws://{rebound}/ws", origin=f"http://{rebound}", host="127.0.0.1", port=web.web_port):
            pass
    assert refused.value.response.status_code == 421
    request = urllib.request.Request(f"http://127.0.0.1:{web.web_port}/", headers={"Host": rebound})
    with pytest.raises(urllib.error.HTTPError) as page:
        await asyncio.to_thread(urllib.request.urlopen, request, None, 5)
    assert page.value.code == 421
    # the door's own name, and a page on it, still work
    async with connect(f"ws://localhost:{web.web_port}/ws", origin=f"http://localhost:{web.web_port}") as ws:
        await WebScreen(ws).until("Your name:")


async def test_a_listed_host_name_is_the_only_one_answered(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.web.hosts = ["door.example.org"]
    async with running(config) as door:
        async with connect("ws://door.example.org/ws", origin="https://door.example.org", host="127.0.0.1",
                           port=door.web_port):
            pass  # (a TLS proxy in front: the page's origin is https on the listed name)
        with pytest.raises(InvalidStatus):
            async with connect(f"ws://127.0.0.1:{door.web_port}/ws", origin=f"http://127.0.0.1:{door.web_port}"):
                pass


async def test_a_message_past_the_limit_ends_the_connection(web: DoorServer) -> None:
    async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin=origin(web), max_size=None) as ws:
        await WebScreen(ws).until("Your name:")
        await ws.send(b"x" * 5000)  # over max_message (1 KiB)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


async def test_a_flood_of_messages_is_read_at_the_message_rate(web: DoorServer) -> None:
    """600 one-key messages at 100 a second (a burst of 100 first) take
    the door about five seconds to read: the rest waited in the socket."""
    async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin=origin(web)) as ws:
        s = WebScreen(ws)
        await s.until("Your name:")
        started = time.monotonic()
        for _ in range(599):
            await ws.send(b"\x0c")  # Ctrl-L: read and handled, no name typed
        await ws.send(b"Z\r")
        await s.until("is not registered", timeout=30)
        assert time.monotonic() - started >= 4.0


async def test_the_gate_counts_web_connections_at_accept(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.limits.max_per_address = 2
    async with running(config) as door:
        url = f"ws://127.0.0.1:{door.web_port}/ws"
        async with connect(url, origin=origin(door)) as one, connect(url, origin=origin(door)) as two:
            await WebScreen(one).until("Your name:")
            await WebScreen(two).until("Your name:")
            reader, writer = await asyncio.open_connection("127.0.0.1", door.web_port)
            said = await asyncio.wait_for(reader.read(), 5)  # refused before a byte of request
            assert said.startswith(b"HTTP/1.1 503") and b"too many calls from your address" in said
            writer.close()
        await asyncio.sleep(0.2)
        async with connect(url, origin=origin(door)) as three:  # the slots came back
            await WebScreen(three).until("Your name:")


async def test_x_forwarded_for_is_believed_from_a_proxy_only(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.web.proxies = ["127.0.0.1"]
    async with running(config) as door:
        url = f"ws://127.0.0.1:{door.web_port}/ws"
        headers = {"X-Forwarded-For": "6.6.6.6, 203.0.113.9"}
        async with connect(url, origin=origin(door), additional_headers=headers) as ws:
            await WebScreen(ws).until("Your name:")
            assert {p.terminal.address for p in door.ctx.lobby.presences.values()} == {"203.0.113.9"}
    config = make_config(tmp_path / "data2")  # no proxy configured: the header is anybody's word
    async with running(config) as door:
        url = f"ws://127.0.0.1:{door.web_port}/ws"
        async with connect(url, origin=origin(door), additional_headers=headers) as ws:
            await WebScreen(ws).until("Your name:")
            assert {p.terminal.address for p in door.ctx.lobby.presences.values()} == {"127.0.0.1"}


async def test_a_peer_that_answers_no_ping_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ping every PING_INTERVAL seconds (30; a fraction of a second
    here); a peer that sends no pong within as long is dropped, and its
    slot is free again."""
    import base64
    import os

    import door.net.web as web_module

    monkeypatch.setattr(web_module, "PING_INTERVAL", 0.3)
    async with running(make_config(tmp_path / "data")) as door:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.web_port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{door.web_port}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 101")
        await asyncio.sleep(0.2)
        assert door.gate is not None and door.gate.total == 1 and door.sessions
        # never a pong: the door closes the connection
        while await asyncio.wait_for(reader.read(4096), 5):
            pass
        await asyncio.sleep(2.5)  # (the close handshake's grace: CLOSE_GRACE)
        assert door.gate.total == 0 and not door.sessions
        writer.close()


def _self_signed(where: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, PEM files in ``where``."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = where / "cert.pem", where / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


async def test_https_directly_from_a_certificate(tmp_path: Path) -> None:
    import ssl

    cert_file, key_file = _self_signed(tmp_path)
    config = make_config(tmp_path / "data")
    config.web.certfile, config.web.keyfile = str(cert_file), str(key_file)
    async with running(config) as door:
        client = ssl.create_default_context(cafile=str(cert_file))
        async with connect(f"wss://127.0.0.1:{door.web_port}/ws", ssl=client,
                           origin=f"https://127.0.0.1:{door.web_port}") as ws:
            await WebScreen(ws).until("Your name:")
        with pytest.raises(InvalidStatus):  # the origin is the https page's, not the http one's
            async with connect(f"wss://127.0.0.1:{door.web_port}/ws", ssl=client,
                               origin=f"http://127.0.0.1:{door.web_port}"):
                pass


async def test_a_flood_from_a_browser_does_not_slow_a_telnet_caller(web: DoorServer) -> None:
    """Thousands of messages from one WebSocket: past its rate the door
    stops reading it (the rest waits in the sender's TCP window, not in the
    door), and a telnet caller is answered meanwhile."""
    from tests.support.clients import until
    from tests.support.player import log_in_as_guest, telnet_caller

    async with connect(f"ws://127.0.0.1:{web.web_port}/ws", origin=origin(web), write_limit=2 ** 20,
                       close_timeout=1) as ws:  # (its close waits 1 s, not 10, on a door that rightly stopped reading it)
        await WebScreen(ws).until("Your name:")
        [terminal] = list(web.sessions)

        async def flood() -> None:
            for _ in range(5000):
                await ws.send(b"\x0c" * 1000)  # Ctrl-L a thousand times a message

        flooding = asyncio.create_task(flood())
        transport = terminal._ws.transport  # type: ignore[attr-defined]
        assert await until(lambda: not transport.is_reading(), 5), "a browser over its share is still read"
        calm = await telnet_caller(web.telnet_port)
        await log_in_as_guest(calm, "Calm")  # (its waits time out in seconds)
        calm.close()
        flooding.cancel()


def _ping_frames(count: int, payload: bytes = b"p" * 100) -> bytes:
    """``count`` masked ping frames, as a client sends them (RFC 6455)."""
    import os
    import struct

    frame = bytearray()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    frame += struct.pack("!BB", 0x89, 0x80 | len(payload)) + mask + masked
    return bytes(frame) * count


async def test_a_ping_flood_that_never_reads_cannot_fill_the_door(web: DoorServer) -> None:
    """The library parses every frame as it comes and answers every ping
    with a pong at once: ten sockets that ping and never read took a door
    to 600 MB, and its event loop with it.  A socket is read at its share
    (READ_RATE bytes a second, the rest waits in its own TCP window), past
    a few a second pings are not answered, and what waits for a client is
    bounded."""
    import base64
    import os

    from door.net.web import PING_BURST, PING_RATE, READ_BURST, READ_RATE

    reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{web.web_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                 f"Origin: {origin(web)}\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 101")
    [connection] = [c for c in web.listening.web.server.connections]  # type: ignore[union-attr, attr-defined]
    started = asyncio.get_running_loop().time()
    writer.write(_ping_frames(100_000))  # 10.6 MB of pings, never a byte read back (it waits in our buffers)
    await asyncio.sleep(2.0)
    elapsed = asyncio.get_running_loop().time() - started
    parsed = connection.pings_ignored + PING_BURST + int(PING_RATE * elapsed) + 1
    assert parsed * 106 <= (READ_BURST + READ_RATE * elapsed) * 1.5  # read at its share, no faster
    assert connection.pings_ignored > 0  # past the burst and the rate: not answered
    assert connection.transport.get_write_buffer_size() <= 256 * 1024
    writer.transport.abort()
