"""Password guessing is limited across
connections and transports without locking the owner out, and one
account has one session (a second login takes over; never two writers of
one saved game)."""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pytest

from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_resume import log_in, play_into_the_hand
from tests.support.player import telnet_caller


async def ssh_try(door: DoorServer, user: str, password: str, local: str = "127.0.0.1") -> bool:
    """One SSH login with a password; True when it got in."""
    try:
        async with asyncssh.connect("127.0.0.1", door.ssh_port, username=user, password=password,
                                    known_hosts=None, client_keys=None, agent_path=None, config=None,
                                    local_addr=(local, 0), login_timeout=30):
            return True
    except (asyncssh.PermissionDenied, asyncssh.DisconnectError, ConnectionError, OSError):
        return False


@pytest.mark.slow
async def test_parallel_guesses_get_the_address_budget_and_the_owner_still_gets_in(door: DoorServer) -> None:
    await door.store.accounts.create("Vic", hash_password("right-one"))
    door.config.limits.max_per_address = 50
    assert door.gate is not None
    door.gate.max_per_address = 50
    # 30 connections at once, 3 passwords each, all from one address
    results = await asyncio.gather(*(ssh_try(door, "Vic", f"guess{i}") for i in range(30)))
    assert not any(results)
    throttle = door.ctx.throttle
    assert throttle.checks <= throttle.per_address, throttle.checks  # 10 scrypt checks, not 90
    # that address is done for the window, even with the right password ...
    assert not await ssh_try(door, "Vic", "right-one")
    # ... and over telnet too: one throttle for both transports
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in(caller.writer, s, "Vic", "right-one")
    await s.wait_for(lambda: "from your address" in s.text())
    caller.close()
    # the owner, elsewhere, is checked at once and gets in
    started = time.monotonic()
    assert await ssh_try(door, "Vic", "right-one", local="127.0.0.2")
    assert time.monotonic() - started < 5


async def test_one_connection_cannot_outrun_its_password_attempts(door: DoorServer) -> None:
    """The per-connection limit holds however fast the requests come: the
    count and the close happen before the wrong answer's wait."""
    await door.store.accounts.create("Wes", hash_password("right-one"))
    tries: list[str] = []

    class Guesser(asyncssh.SSHClient):
        def password_auth_requested(self) -> str:
            tries.append("x")
            return f"guess{len(tries)}"

    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError, ConnectionError)):
        conn, _ = await asyncssh.create_connection(Guesser, "127.0.0.1", door.ssh_port, username="Wes",
                                                   known_hosts=None, client_keys=None, agent_path=None,
                                                   config=None)
        conn.close()
    assert len(tries) <= door.config.limits.ssh_password_attempts
    assert door.ctx.throttle.failures("Wes") <= door.config.limits.ssh_password_attempts


@pytest.mark.slow
async def test_a_second_login_takes_over_and_the_game_stays_whole(door: DoorServer) -> None:
    await door.store.accounts.create("Tia", hash_password("tia-secret"))
    first = await telnet_caller(door.telnet_port)
    await log_in(first.writer, first.screen, "Tia", "tia-secret")
    before = await play_into_the_hand(first.writer, first.screen)
    second = await telnet_caller(door.telnet_port)
    await log_in(second.writer, second.screen, "Tia", "tia-secret")
    s = second.screen
    await s.wait_for(lambda: "unfinished game" in s.text())
    # the first line was told and closed
    await asyncio.wait_for(first.done, 10)
    assert "logged in again from somewhere else" in " ".join(first.screen.text().split())
    assert sum(1 for p in door.ctx.lobby.presences.values() if p.name == "Tia") == 1
    await second.send(b"y")
    await s.wait_for(lambda: s.prompt().startswith("Your turn"), timeout=15)
    from tests.loopback.test_resume import GAME_ROWS
    assert s.lines()[GAME_ROWS] == before
    second.close()
