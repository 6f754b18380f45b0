"""SSH authentication as an attacker tries it: an unsigned
public-key *query* (RFC 4252 section 7) for the sysop's key, then a switch to
an unregistered user name, must not open the sysop console; identity comes
only from a signed key or a right password, for the name that authenticated."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from door.records.passwords import hash_password
from door.server import DoorServer
from tests.support.clients import watch
from tests.support.server import make_config, running, with_sysop


@pytest.fixture
async def door(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> AsyncIterator[DoorServer]:
    async with running(with_sysop(make_config(tmp_path / "data"), "Gandalf", "sysop-secret", sysop_key)) as server:
        yield server


def query_only(public: asyncssh.SSHKey, queried: asyncio.Event) -> Any:
    """A key pair that shows someone else's public key and cannot sign
    (all an attacker who knows only the public key has)."""
    pair = asyncssh.load_keypairs([asyncssh.generate_private_key("ssh-ed25519")])[0]
    pair.public_data = public.public_data

    def sign(data: bytes) -> bytes:
        queried.set()  # the server answered the query with PK_OK
        raise ValueError("no private key")

    pair.sign = sign
    return pair


class _SwitchingClient(asyncssh.SSHClient):
    """Queries the sysop's key as ``Gandalf``, then asks for the user name
    ``stranger`` (a guest name: no authentication)."""

    def __init__(self, keypair: Any, queried: asyncio.Event) -> None:
        self.keypair = keypair
        self.queried = queried
        self.asked = False
        self.conn: Any = None

    def connection_made(self, conn: asyncssh.SSHClientConnection) -> None:
        self.conn = conn

    def public_key_auth_requested(self) -> Any:
        if self.asked:
            return None
        self.asked = True
        return [self.keypair]

    def password_auth_requested(self) -> str:
        assert self.queried.is_set(), "the server never answered the query with PK_OK"
        self.conn._username = "stranger"  # a new user name on the same connection
        return "anything"


async def test_a_public_key_query_then_another_name_is_a_guest(door: DoorServer, sysop_key) -> None:
    queried = asyncio.Event()
    keypair = query_only(sysop_key, queried)
    conn, _ = await asyncssh.create_connection(
        lambda: _SwitchingClient(keypair, queried), "127.0.0.1", door.ssh_port, username="Gandalf", known_hosts=None,
        agent_path=None, config=None, client_keys=None, preferred_auth="publickey,password")
    async with conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "Your name" in screen.text() or "SYSOP CONSOLE" in screen.text())
        assert "SYSOP CONSOLE" not in screen.text()
        assert "Your name" in screen.text()
        process.stdin.write(b"\x03")
        task.cancel()


async def test_the_sysop_key_signed_still_reaches_the_console(door: DoorServer, sysop_key) -> None:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="gandalf", client_keys=[sysop_key],
                                password=None, known_hosts=None, agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "SYSOP CONSOLE" in screen.text())
        task.cancel()


async def test_a_query_for_a_callers_linked_key_then_another_name_is_a_guest(door: DoorServer) -> None:
    victim_key = asyncssh.generate_private_key("ssh-ed25519")
    account = await door.store.accounts.create("Victim", hash_password("victim-secret"))
    await door.store.accounts.add_ssh_key(account.id, " ".join(victim_key.export_public_key("openssh").decode().split()[:2]))
    queried = asyncio.Event()
    conn, _ = await asyncssh.create_connection(
        lambda: _SwitchingClient(query_only(victim_key, queried), queried), "127.0.0.1", door.ssh_port,
        username="Victim", known_hosts=None, agent_path=None, config=None, client_keys=None,
        preferred_auth="publickey,password")
    async with conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "Your name" in screen.text() or "MAIN MENU" in screen.text().upper())
        assert "Your name" in screen.text(), screen.text()
        task.cancel()
