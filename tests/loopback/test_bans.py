"""Bans across the nodes of a shared store: a ban made on one node (by its
store, as the console and ``records ban`` make them) ends the banned
caller's call on the other and refuses them there, told the reason; an
address's ban refuses the connection at accept; ``records ban``,
``bans`` and ``unban`` from the command line."""

from __future__ import annotations

import argparse
import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from door.records.cli import run_records
from door.records.passwords import hash_password
from door.records.store import DATABASE_NAME, Store
from door.server import DoorServer
from door.sysop.ban_list import READ_EVERY
from tests.support.clients import console_client
from tests.support.player import log_in_registered, telnet_caller
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running


@asynccontextmanager
async def two_nodes(tmp_path: Path, url: str) -> AsyncIterator[tuple[DoorServer, DoorServer]]:
    configs = [make_config(tmp_path / name) for name in ("a", "b")]
    for config in configs:
        config.store.url = url
        config.store.peer_secret_file = str(tmp_path / "peer_secret")
    async with running(configs[0]) as a, running(configs[1]) as b:
        yield a, b


async def test_a_ban_made_on_one_node_ends_the_call_and_refuses_the_caller_at_the_other(
        tmp_path: Path, postgres: PostgresServer) -> None:
    async with two_nodes(tmp_path, postgres.new_database()) as (a, b):
        assert a.store is not None and b.store is not None
        caller = await log_in_registered(b.telnet_port, b.store, "Mallory", "mallory-pass")
        await a.store.bans.add("mallory", "cheating at the club night", "Sysop")
        s = caller.screen
        await s.wait_for(lambda: "banned from this door: cheating at the club night." in s.text(),
                         timeout=READ_EVERY + 5)
        await asyncio.wait_for(caller.done, 5)  # (the call ends)
        again = await telnet_caller(b.telnet_port)
        t = again.screen
        await t.wait_for(lambda: "Your name:" in t.text())
        await again.send(b"Mallory\r")
        await t.wait_for(lambda: "Password:" in t.text())
        await again.send(b"mallory-pass\r")
        await t.wait_for(lambda: "Sorry, you are banned from this door: cheating at the club night." in t.text())
        await asyncio.wait_for(again.done, 5)
        assert "Main menu" not in t.text()
        # a guest of another name is still welcome
        other = await log_in_registered(b.telnet_port, b.store, "Nell", "nell-pass")
        other.close()


async def test_an_address_banned_on_one_node_is_refused_at_accept_on_the_other(
        tmp_path: Path, postgres: PostgresServer) -> None:
    async with two_nodes(tmp_path, postgres.new_database()) as (a, b):
        assert a.store is not None
        ban = await a.store.bans.add("127.0.0.0/8", "a flood of registrations", "Sysop")
        await asyncio.sleep(READ_EVERY + 0.5)
        caller = await telnet_caller(b.telnet_port)
        await asyncio.wait_for(caller.done, 5)
        assert "Sorry, you are banned from this door: a flood of registrations." in caller.screen.text()
        await a.store.bans.lift(ban.id)
        await asyncio.sleep(READ_EVERY + 0.5)
        welcome = await telnet_caller(b.telnet_port)
        await welcome.screen.wait_for(lambda: "Your name:" in welcome.screen.text())
        welcome.close()


async def test_the_console_of_one_node_ends_a_call_at_the_other(tmp_path: Path, postgres: PostgresServer) -> None:
    """K at a console, on a caller listed on another node, ends that call
    by the node link (the caller told why); a caller of this node is not touched."""
    async with two_nodes(tmp_path, postgres.new_database()) as (a, b):
        assert b.store is not None
        far = await log_in_registered(b.telnet_port, b.store, "Farley", "farley-pass")
        near = await log_in_registered(a.telnet_port, b.store, "Nearby", "nearby-pass")
        keys, console, task = await console_client(tmp_path / "a")
        await console.wait_for(lambda: "Farley" in console.text() and "node " in console.text(), timeout=10)
        keys.write(b"\x1b[B")  # (Nearby first, this node's own; then Farley, at the other node)
        await keys.drain()
        await asyncio.sleep(0.2)
        keys.write(b"k")
        await console.wait_for(lambda: "Disconnect Farley? (Y/N)" in console.text())
        keys.write(b"y")
        await far.screen.wait_for(lambda: "The sysop has ended your call. Goodbye." in far.screen.text())
        await asyncio.wait_for(far.done, 5)
        await console.wait_for(lambda: "disconnected Farley on node" in console.text())
        assert not near.done.done()
        near.close()
        keys.close()
        task.cancel()


async def test_a_ban_from_one_node_s_console_reaches_the_caller_at_the_other(
        tmp_path: Path, postgres: PostgresServer) -> None:
    async with two_nodes(tmp_path, postgres.new_database()) as (a, b):
        assert b.store is not None
        far = await log_in_registered(b.telnet_port, b.store, "Farley", "farley-pass")
        keys, console, task = await console_client(tmp_path / "a")
        await console.wait_for(lambda: "Farley" in console.text(), timeout=10)
        keys.write(b"b")
        await console.wait_for(lambda: "Ban Farley for (the reason they are told):" in console.text())
        keys.write(b"rude in the chat\r")
        await console.wait_for(lambda: "banned Farley on every node" in console.text())
        await far.screen.wait_for(lambda: "banned from this door: rude in the chat." in far.screen.text(),
                                  timeout=READ_EVERY + 5)
        await asyncio.wait_for(far.done, 5)
        keys.close()
        task.cancel()


def records(where: Path, *argv: str) -> tuple[int, str]:
    action, *rest = argv
    args = argparse.Namespace(action=action, target=rest[0] if rest else None, yes=True, reason="", ban_for="",
                              days=30.0, pool=None)
    for flag, value in zip(rest[1::2], rest[2::2], strict=True):
        setattr(args, flag, value)
    out = io.StringIO()
    return run_records(args, where, out), out.getvalue()


async def test_records_ban_lists_and_lifts_from_the_command_line(tmp_path: Path) -> None:
    where = tmp_path / DATABASE_NAME
    store = await Store.open(where)
    await store.accounts.create("Ann", hash_password("ann-pass"))
    await store.close()
    status, said = await asyncio.to_thread(records, where, "ban", "Ann", "reason", "spam in the chat", "ban_for", "7d")
    assert status == 0 and said.startswith("Ban 1: account Ann, until ")
    assert (await asyncio.to_thread(records, where, "ban", "10.0.0.0/8", "reason", "scans"))[0] == 0
    status, said = await asyncio.to_thread(records, where, "bans")
    assert "account  Ann" in said and "network  10.0.0.0/8" in said and "until never" in said
    assert (await asyncio.to_thread(records, where, "ban", "10.0.0.1/8", "reason", "x"))[0] == 2  # (host bits)
    assert (await asyncio.to_thread(records, where, "ban", "Bob"))[0] == 2  # (no reason)
    assert (await asyncio.to_thread(records, where, "ban", "Bob", "reason", "x", "ban_for", "soon"))[0] == 2
    assert (await asyncio.to_thread(records, where, "unban", "1"))[0] == 0
    status, said = await asyncio.to_thread(records, where, "bans")
    assert "Ann" not in said and "10.0.0.0/8" in said
    assert (await asyncio.to_thread(records, where, "unban", "1"))[0] == 1
