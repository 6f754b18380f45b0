"""The peer link over TLS, for nodes on different machines: the hello
(the caller's name, account and address) never crosses the network in
the clear; a node without a certificate from the sysop's authority is not
let in, nor called; and a node calls from its own peer_host."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import logging
import socket
import struct
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from door.net.listener import Bind
from door.net.peer_socket import PeerHello, PeerTerminal, connect_peer, peer_tls, start_peers
from door.records.passwords import hash_password
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

SECRET = b"s" * 32


def authority(folder: Path, name: str) -> tuple[Path, Path, Path]:
    """A sysop's own certificate authority and one node certificate it
    signed, as PEM files: (certificate, key, authority)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{name} door authority")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "node")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / f"{name}.crt", folder / f"{name}.key", folder / f"{name}-ca.crt"
    paths[0].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    paths[2].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return paths


async def test_the_peer_link_runs_over_tls_between_the_sysops_own_nodes(tmp_path: Path) -> None:
    cert, key, ca = authority(tmp_path, "ours")
    server_tls, client_tls = peer_tls(str(cert), str(key), str(ca))
    arrived: list[tuple[str, str]] = []

    async def session(terminal: PeerTerminal, hello: PeerHello) -> None:
        arrived.append((hello.name, terminal.address))
        terminal.write(b"welcome over TLS\r\n")
        await terminal.drain()

    server = await start_peers(Bind("127.0.0.1", 0), SECRET, session, tls=server_tls)
    port = server.port
    try:
        link = await connect_peer("127.0.0.1", port, SECRET, PeerHello("Syd", None, 80, 24, "utf-8", "xterm"),
                                  tls=client_tls, source="127.0.0.1")
        assert link is not None
        reader, writer = link
        assert b"welcome over TLS" in await asyncio.wait_for(reader.readuntil(b"TLS\r\n"), 5)
        assert writer.get_extra_info("ssl_object") is not None  # it went over TLS
        writer.close()
        assert arrived and arrived[0][0] == "Syd"
        # a node that speaks plain TCP, or whose certificate another authority signed, gets nowhere
        assert await connect_peer("127.0.0.1", port, SECRET, PeerHello("Eve", None, 80, 24, "utf-8", "xterm")) is None
        other_cert, other_key, other_ca = authority(tmp_path, "theirs")
        _, stranger = peer_tls(str(other_cert), str(other_key), str(other_ca))
        assert await connect_peer("127.0.0.1", port, SECRET, PeerHello("Eve", None, 80, 24, "utf-8", "xterm"),
                                  tls=stranger) is None
        assert [name for name, _ in arrived] == ["Syd"]
    finally:
        server.close()
        await server.wait_closed()


async def test_a_relaying_node_that_dies_on_a_tls_link_ends_its_caller_quietly(
        tmp_path: Path, postgres: PostgresServer, caplog: pytest.LogCaptureFixture) -> None:
    """The node that relays a caller dies (its connection reset, no TLS
    goodbye) while the caller is at the menu of the node over TLS: that
    node ends the session with an info line, not a traceback."""
    cert, key, ca = authority(tmp_path, "ours")
    config = make_config(tmp_path / "data")
    config.store.url = postgres.new_database()
    config.store.peer_certfile, config.store.peer_keyfile, config.store.peer_cafile = str(cert), str(key), str(ca)
    _, client_tls = peer_tls(str(cert), str(key), str(ca))
    caplog.set_level(logging.INFO)
    async with running(config) as door:
        assert door.store is not None and door.link is not None
        syd = await door.store.accounts.create("Syd", hash_password("syd-pass"))
        link = await connect_peer("127.0.0.1", door.link.port, door.link.secret,
                                  PeerHello("Syd", syd.id, 80, 24, "utf-8", "xterm"), tls=client_tls)
        assert link is not None
        reader, writer = link
        seen = b""
        while b"Main menu" not in seen:
            seen += await asyncio.wait_for(reader.read(4096), 10)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, as a killed node's
        writer.transport.abort()
        deadline = asyncio.get_running_loop().time() + 10
        while any(p.name == "Syd" for p in door.ctx.lobby.presences.values()):
            assert asyncio.get_running_loop().time() < deadline, "Syd's session did not end"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]
    assert any(r.levelno == logging.INFO and r.getMessage().startswith("disconnect ") for r in caplog.records)
