"""Games that live in the store: a table whose players have all gone is
not kept in any node's memory, and is taken up from the store by the
node its players call."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

from door.play.table import Table
from door.records.passwords import hash_password
from door.records.store import Store
from tests.loopback.test_callers import PASSWORD, both_in_chat, challenge, registered
from tests.loopback.test_resume import GAME_ROWS
from tests.support.player import RIGHT
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


def _tables() -> list[Table]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, Table)]


async def test_a_table_whose_players_have_all_gone_leaves_memory_and_resumes_on_another_node(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Ann and Bob play at node A, in the play of their first hand; both
    hang up.  A keeps no table (not one :class:`~door.play.table.Table`
    object is left in the process, as ``gc`` finds them), and the game is
    in the store: both call node B, and it goes on there with the same
    seats, cards and scores."""
    url = postgres.new_database()
    store = await Store.open(url)
    for name in ("Ann", "Bob"):
        await store.accounts.create(name, hash_password(PASSWORD))
    configs = []
    for node in ("a", "b"):
        config = make_config(tmp_path / node)
        config.store.url = url
        config.store.peer_secret_file = str(tmp_path / "peer_secret")
        configs.append(config)
    try:
        async with running(configs[0]) as node_a, running(configs[1]) as node_b:
            assert _tables() == []
            ann = await registered(node_a.telnet_port, store, "Ann")
            bob = await registered(node_a.telnet_port, store, "Bob")
            await challenge(ann, "Bob", run_mode=b"2")
            await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
            await bob.send(b"y")
            await both_in_chat(ann, bob)
            for c in (ann, bob):
                await c.send(b"\r")
            for c in (ann, bob):
                await c.screen.wait_for(lambda c=c: c.screen.prompt().startswith("Choose 2 cards"))
                await c.send(b"\r" + RIGHT + b"\r\r")
            await ann.screen.wait_for(lambda: any(c.screen.prompt().startswith("Your turn") for c in (ann, bob)),
                                      timeout=15)
            pone = next(c for c in (ann, bob) if c.screen.prompt().startswith("Your turn"))
            dealer = bob if pone is ann else ann
            await pone.send(b"\r")
            await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
            await asyncio.sleep(0.3)
            before = {c is ann: c.screen.lines()[GAME_ROWS] for c in (ann, bob)}
            ann_deals = dealer is ann
            assert len(_tables()) == 1
            for c in (ann, bob):
                c.close()
                await asyncio.wait_for(c.done, 5)
            async with asyncio.timeout(10):
                while node_a.sessions or node_a.ctx.lobby.tables:
                    await asyncio.sleep(0.05)
            assert _tables() == []  # nobody connected: no table in memory, on any node

            bob = await registered(node_b.telnet_port, store, "Bob", until="Ask them to go on with it?")
            await bob.send(b"n")  # kept for later: Bob waits at B's menu
            await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
            ann = await registered(node_b.telnet_port, store, "Ann", until="Ask them to go on with it?")
            await ann.send(b"y")
            await bob.screen.wait_for(lambda: "Ann asks you to go on with your game #" in " ".join(
                bob.screen.text().split()), timeout=10)
            await bob.send(b"y")
            dealer = ann if ann_deals else bob
            await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
            await asyncio.sleep(0.3)
            assert ann.screen.lines()[GAME_ROWS] == before[True]
            assert bob.screen.lines()[GAME_ROWS] == before[False]
            for c in (ann, bob):
                c.close()
    finally:
        await store.close()
