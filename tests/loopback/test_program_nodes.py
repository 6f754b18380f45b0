"""One session an account across the nodes, for programs too: two door
servers on one throwaway PostgreSQL store.  A program that logs in with
an account already on line at the other node takes the account's one
session (a program cannot be handed over to another node as a caller at
the screens is): the older session there is closed and told why, as one
is when the account logs in again at the same node.  The program's claim
goes with its session (a later login at its node is not sent elsewhere),
or, when it left a game going on at its node, with that game.  At one
node, an older program's session is told in a ``bye``."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from door.records.names import name_key
from door.records.passwords import hash_password
from door.records.store import Store
from door.server import DoorServer
from tests.loopback.test_bot_pool import until_listed
from tests.loopback.test_bots import bot_in
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _call
from tests.loopback.test_correspondence_nodes import _seen_at, _two_nodes
from tests.loopback.test_protocol import next_message
from tests.loopback.test_tournament_play import _program
from tests.support.clients import until
from tests.support.fake_clock import FakeClock
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")

TOLD = "logged in again from somewhere else"


def _here(door: DoorServer, name: str) -> list[bool]:
    """Whether each of ``name``'s sessions on line at ``door`` was handed
    to another node (``away``)."""
    key = name_key(name)
    return [p.away for p in door.ctx.lobby.presences.values() if p.name and name_key(p.name) == key]


async def _holder(store: Store, account_id: int) -> int | None:
    """The node that holds ``account_id``'s one session, by the store."""
    row = await store.database.tx(lambda db: db.execute(
        "SELECT node_id FROM sessions WHERE account_id = ?", (account_id,)).fetchone())
    return None if row is None else int(row[0])


async def _closed_with_bye(ws: ClientConnection) -> str:
    """The text of the ``bye`` an older program's session is closed with
    (and the connection then ends)."""
    bye = await next_message(ws, "bye", timeout=15)
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return str(bye["text"])


async def _still_on_line(ws: ClientConnection) -> None:
    """The program's session goes on: it answers at the menu."""
    await ws.send(json.dumps({"type": "lobby"}))
    await next_message(ws, "lobby")


async def _node_id(door: DoorServer) -> int:
    assert door.link is not None and door.link.node_id is not None
    return door.link.node_id


async def test_a_program_logging_in_at_another_node_closes_the_caller_s_session_at_the_screens(
        tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    try:
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        async with _two_nodes(tmp_path, url, FakeClock(time.time())) as (node_a, node_b):
            ann = await _call(node_a, "Ann")  # at node A's menu by telnet
            await _seen_at(node_b, "Ann")
            program = await _program(node_b.web_port, "Ann")  # then by the protocol at node B
            await asyncio.wait_for(ann.done, 15)  # the caller at the screens was told, and the line closed
            assert TOLD in " ".join(ann.screen.text().split())
            assert await until(lambda: not _here(node_a, "Ann"))
            await _still_on_line(program)
            assert _here(node_b, "Ann") == [False]
            assert await _holder(store, ann_id) == await _node_id(node_b)
            await program.close()
    finally:
        await store.close()


async def test_a_program_logging_in_at_another_node_closes_the_older_program_s_session(
        tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    try:
        await store.accounts.create("Ann", hash_password(PASSWORD))
        async with _two_nodes(tmp_path, url, FakeClock(time.time())) as (node_a, node_b):
            older = await _program(node_a.web_port, "Ann")
            await _seen_at(node_b, "Ann")
            newer = await _program(node_b.web_port, "Ann")
            assert TOLD in await _closed_with_bye(older)  # told why, in a bye, then closed
            assert await until(lambda: not _here(node_a, "Ann"))
            await _still_on_line(newer)
            # and the other way round: the screens at node A are sent to the program's node B, which closes it
            ann = await _call(node_a, "Ann")
            assert TOLD in await _closed_with_bye(newer)
            assert await until(lambda: _here(node_a, "Ann") == [True] and _here(node_b, "Ann") == [False])
            ann.close()
    finally:
        await store.close()


async def test_a_program_s_claim_is_released_when_it_leaves(tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    try:
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        async with _two_nodes(tmp_path, url, FakeClock(time.time())) as (node_a, node_b):
            program = await _program(node_b.web_port, "Ann")
            assert await _holder(store, ann_id) == await _node_id(node_b)  # the program holds the account's session
            await program.send(json.dumps({"type": "leave"}))
            await next_message(program, "bye")
            await program.close()
            assert await until(lambda: not _here(node_b, "Ann"))
            assert await _holder(store, ann_id) is None
            await _seen_at(node_a, "Ann", here=False)
            ann = await _call(node_a, "Ann")  # a third login, at node A, stays there: it is not sent to node B
            assert _here(node_a, "Ann") == [False] and not _here(node_b, "Ann")
            assert await _holder(store, ann_id) == await _node_id(node_a)
            ann.close()
    finally:
        await store.close()


async def _holder_becomes(store: Store, account_id: int, node: int | None) -> bool:
    """Wait (bounded) until the store says ``node`` holds ``account_id``'s session."""
    for _ in range(100):
        if await _holder(store, account_id) == node:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_program_that_drops_during_a_game_keeps_its_claim_until_the_game_ends(
        tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    store = await Store.open(url)
    try:
        async with _two_nodes(tmp_path, url, FakeClock(time.time())) as (_, node_b):
            _, robo_token = await store.bots.make("Robo")
            _, bender_token = await store.bots.make("Bender")
            robo_account = await store.accounts.find("Robo")
            assert robo_account is not None
            robo = await bot_in(node_b, "Robo", robo_token)
            bender = await bot_in(node_b, "Bender", bender_token)  # (at the menu: it accepts by itself)
            await until_listed(robo, "Bender")
            await robo.send(json.dumps({"type": "challenge", "name": "Bender"}))
            await next_message(robo, "table")
            await next_message(robo, "ask")
            await robo.close()  # Robo's line drops: the game waits for it to come back
            assert await until(lambda: not _here(node_b, "Robo"))
            assert len(node_b.ctx.lobby.tables) == 1
            await asyncio.sleep(0.5)
            assert await _holder(store, robo_account.id) == await _node_id(node_b)  # (calling any node leads back)
            await bender.send(json.dumps({"type": "leave"}))  # Bender leaves the table too: the game ends
            assert await until(lambda: not node_b.ctx.lobby.tables, timeout=15)
            assert await _holder_becomes(store, robo_account.id, None)
    finally:
        await store.close()


async def test_a_program_closed_by_a_login_at_its_own_node_is_told_in_a_bye(tmp_path: Path) -> None:
    """At one node too: the older program's session is told why in a
    ``bye`` (once a bell and a terminal's coloured line, which a program
    cannot read as JSON)."""
    async with running(make_config(tmp_path)) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        older = await _program(door.web_port, "Ann")
        newer = await _program(door.web_port, "Ann")
        assert TOLD in await _closed_with_bye(older)
        await _still_on_line(newer)
        assert _here(door, "Ann") == [False]
        await newer.close()
