"""Serve processes on one PostgreSQL store find each other (issue 16.2):
the node link's view of who is on line elsewhere, and the peer port that
takes callers handed over by another node (only with the store's token,
only for the account the hello names)."""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Callable

import pytest

from door.net.peer_socket import HELLO_LIMIT, PeerHello
from door.records.passwords import hash_password
from door.server import DoorServer
from door.sysop.lobby import Lobby
from door.sysop.node_link import BEAT, STALE, NodeLink
from door.config import PagingConfig
from door.records.store import Store
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


class Desk:
    """A sysop console as the lobby sees one (the lobby's ``Console``
    protocol): at the desk and free unless told otherwise."""

    def __init__(self, name: str) -> None:
        self.name, self.available, self.busy = name, True, False

    def lobby_changed(self) -> None:
        pass

    def ring(self, page: object) -> None:
        pass


async def until(check, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not within the time"
        await asyncio.sleep(0.05)


@asynccontextmanager
async def two_nodes(url: "str | Path") -> AsyncIterator[tuple[list[Lobby], list[NodeLink]]]:
    """Two node links on the store ``url``, each with its own lobby and
    store connection (as two serve processes have); stopped at the end."""
    stores = [await Store.open(url) for _ in range(2)]
    lobbies = [Lobby(PagingConfig()) for _ in range(2)]
    links = [NodeLink(s, lobby, "127.0.0.1", 1000 + i, f"token{i}") for i, (s, lobby) in enumerate(zip(stores, lobbies))]
    try:
        for link in links:
            await link.start()
        yield lobbies, links
    finally:
        for link in links:
            await link.stop()
        for s in stores:
            await s.close()


async def test_nodes_learn_of_each_other_s_sysop_within_a_beat_or_two(postgres: PostgresServer) -> None:
    async with two_nodes(postgres.new_database()) as (lobbies, links):
        assert lobbies[1].sysop_elsewhere() is None
        desk = Desk("Sysop")
        lobbies[0].add_console(desk)  # the sysop sits down at node 0
        loop = asyncio.get_running_loop()
        started = loop.time()
        await until(lambda: lobbies[1].sysop_elsewhere() is not None)
        assert loop.time() - started <= 4 * BEAT + 1.0  # agreement within about two beats
        node = lobbies[1].sysop_elsewhere()
        assert node is not None and (node.port, node.token) == (1000, "token0")
        assert lobbies[0].sysop_elsewhere() is None  # a sysop here is not elsewhere
        desk.busy = True  # playing someone: not offered
        await until(lambda: lobbies[1].sysop_elsewhere() is None)
        desk.busy = False
        await until(lambda: lobbies[1].sysop_elsewhere() is not None)
        await links[0].stop()  # a node that stops leaves at once
        await until(lambda: lobbies[1].sysop_elsewhere() is None, timeout=2)


async def test_a_node_that_stops_beating_is_gone_after_a_few_seconds(postgres: PostgresServer) -> None:
    async with two_nodes(postgres.new_database()) as (lobbies, links):
        lobbies[0].add_console(Desk("Sysop"))
        await until(lambda: lobbies[1].sysop_elsewhere() is not None)
        assert links[0]._task is not None
        links[0]._task.cancel()  # hung or killed: no goodbye, its rows stay
        await until(lambda: lobbies[1].sysop_elsewhere() is None, timeout=STALE + 3)


@pytest.fixture
async def shared(tmp_path: Path, postgres: PostgresServer) -> AsyncIterator[DoorServer]:
    """A door server on a new PostgreSQL database: a node with a peer port."""
    config = make_config(tmp_path / "data")
    config.store.url = postgres.new_database()
    async with running(config) as server:
        yield server


async def peer(door: DoorServer, line: bytes) -> bytes:
    """What the door's peer port answers ``line`` with, until it closes."""
    assert door.link is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", door.link.port)
    writer.write(line)
    try:
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


def hello(door: DoorServer, **changes: object) -> bytes:
    assert door.link is not None
    fields = dict(token=door.link.token, name="Syd", account=None, cols=80, rows=24, charset="utf-8", term="xterm",
                  challenge="")
    fields.update(changes)
    return b"PEER " + json.dumps(fields).encode() + b"\n"


@pytest.mark.parametrize("line", [
    b"hello\n",
    b"PEER {\"name\": \"Syd\"}\n",
    b"PEER \xff\xfe\n",
    b"PEER " + b"x" * (4 * HELLO_LIMIT) + b"\n",
])
async def test_the_peer_port_refuses_what_is_not_a_node(shared: DoorServer, line: bytes) -> None:
    assert b"only for the door's own servers" in await peer(shared, line)
    assert not shared.sessions


async def test_the_peer_port_refuses_a_wrong_token(shared: DoorServer) -> None:
    assert b"only for the door's own servers" in await peer(shared, hello(shared, token="0" * 64))
    assert not shared.sessions


@pytest.mark.parametrize("challenge", [123, None, "x" * 200])
async def test_the_peer_port_refuses_a_bad_challenge(shared: DoorServer, challenge: object) -> None:
    assert b"only for the door's own servers" in await peer(shared, hello(shared, challenge=challenge))
    assert not shared.sessions


async def test_a_handed_over_caller_must_be_the_account_the_hello_names(shared: DoorServer) -> None:
    assert shared.store is not None
    syd = await shared.store.accounts.create("Syd", hash_password("syd-pass"))
    said = await peer(shared, hello(shared, account=syd.id + 1))
    assert b"could not take you over" in said
    said = await peer(shared, hello(shared, name="Sysop"))  # a guest may not take a reserved name
    assert b"could not take you over" in said


async def test_a_handed_over_caller_arrives_at_the_menu(shared: DoorServer) -> None:
    assert shared.store is not None
    syd = await shared.store.accounts.create("Syd", hash_password("syd-pass"))
    assert shared.link is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", shared.link.port)
    writer.write(PeerHello(shared.link.token, "Syd", syd.id, 80, 24, "utf-8", "xterm").encode())
    seen = b""
    while b"Main menu" not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 10)
    assert b"Welcome, Syd." in seen
    writer.close()


@pytest.mark.parametrize("database", ["postgresql", "sqlite"])
async def test_a_change_is_heard_at_once_not_at_the_next_beat_and_news_costs_no_write(
        database: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The node that changed beats at once; the other hears of it (the
    NOTIFY on PostgreSQL; on the SQLite file of workers, its data_version
    moving) and reads: with the beat slowed to 30 s, the news still takes
    well under a second.  Being woken only reads: the heartbeats (on
    SQLite each a commit that wakes the other) do not set each other off."""
    from door.records.store import DATABASE_NAME
    monkeypatch.setattr("door.sysop.node_link.BEAT", 30.0)
    where = (request.getfixturevalue("postgres").new_database() if database == "postgresql"
             else tmp_path / DATABASE_NAME)
    async with two_nodes(where) as (lobbies, links):
        await asyncio.sleep(0.5)  # both nodes past their first beat, waiting out the 30 s
        loop = asyncio.get_running_loop()
        started = loop.time()
        lobbies[0].add_console(Desk("Sysop"))
        await until(lambda: lobbies[1].sysop_elsewhere() is not None, timeout=5)
        assert loop.time() - started < 1.0
        beats = [node.beats for node in await links[0].store.nodes.others(-1)]
        await asyncio.sleep(1.0)
        assert [node.beats for node in await links[0].store.nodes.others(-1)] == beats  # quiet: no writes


async def test_a_client_s_odd_terminal_type_still_makes_a_hello_the_other_node_takes() -> None:
    """TTYPE is whatever the client sent: control characters and length
    are taken out before it goes into a hello (which refuses them)."""
    from tests.support.memory_terminal import MemoryTerminal

    terminal = MemoryTerminal(term="xterm\x1b]0;title\x07" + "x" * 100)
    hello = PeerHello.decode(PeerHello.for_terminal("token", "Syd", 7, terminal).encode())
    assert hello.term.startswith("xterm]0;title") and len(hello.term) == 40 and hello.term.isprintable()


def test_news_after_the_loop_closed_is_dropped(tmp_path: Path) -> None:
    """A listening thread may hear something after its node's event loop
    is gone (PostgreSQL's reconnects in the middle of a connection attempt
    when the door stops): the wake-up it calls is dropped, not an
    exception on that thread."""
    from door.records.store import DATABASE_NAME
    heard: list[Callable[[], None]] = []

    async def node() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        listen = store.database.listen

        def keep(channel: str, wake: Callable[[], None]) -> Callable[[], None] | None:
            heard.append(wake)
            return listen(channel, wake)

        store.database.listen = keep  # type: ignore[method-assign]
        link = NodeLink(store, Lobby(PagingConfig()), "127.0.0.1", 1000, "token")
        await link.start()
        await link.stop()
        await store.close()

    asyncio.run(node())
    heard[0]()  # the loop is closed now
