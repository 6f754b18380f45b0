"""Accounts with real clients: registering and logging in over telnet,
wrong passwords slowed down and logged, SSH key linking and key login."""

from __future__ import annotations

import asyncio
import logging

import asyncssh
import pytest

from door.records.passwords import hash_password
from door.server import DoorServer
from tests.support.clients import telnet_client, watch


async def type_line(writer, screen, wait_text: str, line: str) -> None:
    await screen.wait_for(lambda: wait_text in screen.text())
    writer.write(line.encode() + b"\r")


async def test_register_over_telnet_then_statistics(door: DoorServer) -> None:
    _, writer, screen, _ = await telnet_client(door)
    await type_line(writer, screen, "Your name:", "Newt")
    await screen.wait_for(lambda: "is not registered" in screen.text())
    writer.write(b"r")
    await type_line(writer, screen, "Choose a password", "abc")
    await screen.wait_for(lambda: "at least 6 characters" in screen.text())
    writer.write(b"newtpass\r")
    await type_line(writer, screen, "again", "newtpass")
    await screen.wait_for(lambda: "Main menu" in screen.text() and "Welcome, Newt." in screen.text())
    assert await door.store.accounts.find("NEWT") is not None
    assert "newtpass" not in screen.text() and "********" not in screen.text()
    writer.write(b"3")
    await screen.wait_for(lambda: "Statistics of Newt" in screen.text())
    assert "Games played" in screen.text()
    writer.close()


async def register(door: DoorServer, name: str) -> object:
    """A telnet caller types ``name`` and chooses R; the screen once it asks
    for a password or says why not."""
    _, writer, screen, _ = await telnet_client(door)
    await type_line(writer, screen, "Your name:", name)
    await screen.wait_for(lambda: "is not registered" in screen.text())
    writer.write(b"r")
    await screen.wait_for(lambda: "Choose a password" in screen.text() or "registered from" in screen.text())
    if "Choose a password" in screen.text():
        writer.write(b"secret-pass\r")
        await type_line(writer, screen, "again", "secret-pass")
        await screen.wait_for(lambda: "Main menu" in screen.text())
    writer.close()
    return screen


async def test_registrations_from_one_address_are_limited(door: DoorServer) -> None:
    """A script registering name after name from one address: past
    ``register_per_address`` in the window, the next is told why before it
    is asked for a password (no hash is made), and no account is made."""
    door.config.limits.register_per_address = 2  # (the context shares these settings)
    for name in ("Ada", "Bea"):
        await register(door, name)
    screen = await register(door, "Cal")
    text = " ".join(screen.text().split())
    assert "Too many names were registered from your address lately. Play as a guest" in text
    assert "Choose a password" not in text
    assert await door.store.accounts.find("Cal") is None
    assert await door.store.accounts.find("Bea") is not None


async def test_registrations_in_all_are_limited_in_the_same_transaction(door: DoorServer) -> None:
    """``register_total`` holds whatever the addresses, checked where the
    account is made (two registrations cannot both pass it)."""
    from door.records.accounts import RegistrationLimit, TooManyRegistrations
    limit = RegistrationLimit(window=3600, per_address=10, total=3)
    for i, address in enumerate(("10.0.0.1", "10.0.0.2", "10.0.0.3")):
        await door.store.accounts.create(f"Name{i}", hash_password("x" * 8), address, limit)
    with pytest.raises(TooManyRegistrations, match="Too many names were registered lately"):
        await door.store.accounts.create("Name9", hash_password("x" * 8), "10.0.0.4", limit)
    assert await door.store.accounts.registration_refused("10.0.0.5", limit)
    assert not await door.store.accounts.registration_refused("10.0.0.5", RegistrationLimit(total=4))


async def test_a_few_addresses_cannot_switch_registration_off_for_everybody(door: DoorServer) -> None:
    """Ten addresses registering five names each filled
    ``register_total`` and refused every newcomer for the hour.  Now one
    network stops at ``per_network``; networks that fill ``total``
    leave the ``reserve`` to networks that have not registered."""
    from door.records.accounts import RegistrationLimit, TooManyRegistrations
    limit = RegistrationLimit()  # the defaults: 5 an address, 10 a network, 50 in all, 50 kept in reserve
    made = 0
    for a in range(10):  # ten addresses of one /24
        for i in range(5):
            try:
                await door.store.accounts.create(f"Net{a}x{i}", "-", f"198.51.100.{a + 1}", limit)
                made += 1
            except TooManyRegistrations as exc:
                assert "your network" in str(exc) or "your address" in str(exc)
    assert made == limit.per_network
    for a in range(8):  # and eight addresses of eight networks, five each: fifty in all
        for i in range(5):
            await door.store.accounts.create(f"Far{a}x{i}", "-", f"203.0.{a}.9", limit)
    # fifty in all from networks that registered: one more of theirs is refused ...
    with pytest.raises(TooManyRegistrations, match="registered lately"):
        await door.store.accounts.create("Late", "-", "203.0.1.200", limit)
    assert await door.store.accounts.registration_refused("2001:db8::1", limit) == ""
    # ... and a newcomer from anywhere else still registers (IPv6 networks are /56)
    await door.store.accounts.create("Newcomer", "-", "192.0.2.10", limit)
    await door.store.accounts.create("Sixer", "-", "2001:db8:0:100::1", limit)
    assert await door.store.accounts.registration_refused("2001:db8:0:1ff::1", limit) != ""  # the same /56
    assert await door.store.accounts.registration_refused("2001:db8:0:200::1", limit) == ""


async def test_login_with_backoff_and_a_logged_failure(door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    await door.store.accounts.create("Tess", hash_password("right-one"))
    _, writer, screen, _ = await telnet_client(door)
    await type_line(writer, screen, "Your name:", "tess")
    await type_line(writer, screen, "Welcome back, Tess", "wrong-one")
    with caplog.at_level(logging.WARNING, logger="door.caller.login"):
        await screen.wait_for(lambda: "Wrong password." in screen.text())
    assert any("wrong password for 'Tess'" in r.getMessage() for r in caplog.records)
    assert not any("wrong-one" in r.getMessage() for r in caplog.records)
    writer.write(b"right-one\r")
    await screen.wait_for(lambda: "Main menu" in screen.text() and "Welcome, Tess." in screen.text())
    assert door.ctx.throttle.failures("tess") == 0
    writer.close()


async def ssh_menu(door: DoorServer, **kwargs) -> str:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, known_hosts=None, agent_path=None, config=None,
                                **kwargs) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "Main menu" in screen.text() or "SSH key" in screen.text())
        if "SSH key" in screen.text():
            # the question is on screen whole, and Y is confirmed
            assert "ssh-ed25519" in screen.text() and "Press Y to link it, N to leave it." in screen.text()
            process.stdin.write(b"y")
            await screen.wait_for(lambda: "The key is linked." in screen.text())
            process.stdin.write(b" ")
            await screen.wait_for(lambda: "Main menu" in screen.text())
        text = screen.text()
        process.stdin.write(b"q")
        await asyncio.wait_for(task, 5)
        return text


async def test_ssh_password_then_linked_key_logs_straight_in(door: DoorServer) -> None:
    account = await door.store.accounts.create("Keyla", hash_password("key-pass"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    # first call: the key is unknown, the password logs in, the door offers to link the key
    text = await ssh_menu(door, username="keyla", client_keys=[key], password="key-pass")
    assert "Welcome, Keyla." in text
    assert await door.store.accounts.has_ssh_keys(account.id)
    # second call: the key alone logs in, no password anywhere
    text = await ssh_menu(door, username="Keyla", client_keys=[key], password=None)
    assert "Welcome, Keyla." in text
    # another key without the password is refused at the SSH login
    other = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", door.ssh_port, username="Keyla", client_keys=[other], password=None,
                               known_hosts=None, agent_path=None, config=None)


async def test_wrong_ssh_password_is_refused_and_logged(door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    await door.store.accounts.create("Sid", hash_password("sid-pass"))
    with caplog.at_level(logging.WARNING, logger="door.caller.login"), pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", door.ssh_port, username="sid", client_keys=None,
                               password="nope-nope", known_hosts=None, agent_path=None, config=None)
    assert any("wrong password for 'Sid'" in r.getMessage() and "ssh" in r.getMessage() for r in caplog.records)
