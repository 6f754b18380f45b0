"""Serve processes on one PostgreSQL store find each other:
the node link's view of who is on line elsewhere, and the peer port that
takes callers handed over by another node (only from a node that holds
the peer secret, on the connection it was signed for, and only for the
account the hello names)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from door.config import PagingConfig
from door.net.peer_socket import HELLO_LIMIT, PeerHello, connect_peer
from door.records.passwords import hash_password
from door.records.store import Store
from door.server import DoorServer
from door.sysop.lobby import Lobby
from door.sysop.node_link import BEAT, STALE, NodeLink
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
async def two_nodes(url: str | Path) -> AsyncIterator[tuple[list[Lobby], list[NodeLink]]]:
    """Two node links on the store ``url``, each with its own lobby and
    store connection (as two serve processes have); stopped at the end."""
    stores = [await Store.open(url) for _ in range(2)]
    lobbies = [Lobby(PagingConfig()) for _ in range(2)]
    links = [NodeLink(s, lobby, "127.0.0.1", 1000 + i) for i, (s, lobby) in enumerate(zip(stores, lobbies))]
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
        assert node is not None and node.port == 1000
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


async def peer(door: DoorServer, line: bytes | Callable[[bytes], bytes]) -> bytes:
    """What the door's peer port answers ``line`` with (or ``line(nonce)``,
    given the nonce the port sent), until it closes."""
    assert door.link is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", door.link.port)
    nonce = await asyncio.wait_for(reader.readline(), 5)
    assert nonce.startswith(b"NONCE ")
    writer.write(line(bytes.fromhex(nonce[6:].decode().strip())) if callable(line) else line)
    try:
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


def hello(door: DoorServer, secret: bytes | None = None, mac: str | None = None, after: dict[str, object] | None = None,
          **signed: object) -> Callable[[bytes], bytes]:
    """A hello for the port's nonce with the fields ``signed`` changed,
    signed with the door's peer secret (or ``secret``), and then the
    fields ``after`` changed (not covered by the MAC) or a ``mac`` of one's own."""
    assert door.link is not None
    good = PeerHello(**{**dict(name="Syd", account=None, cols=80, rows=24, charset="utf-8", term="xterm",  # type: ignore[arg-type]
                               challenge="", address="127.0.0.9"), **signed})
    changes = after or {}

    def line(nonce: bytes) -> bytes:
        signed, _ = good.encode(secret if secret is not None else door.link.secret, nonce)
        fields = json.loads(signed[5:])
        fields.update(changes)
        if mac is not None:
            fields["mac"] = mac
        return b"PEER " + json.dumps(fields).encode() + b"\n"
    return line


@pytest.mark.parametrize("line", [
    b"hello\n",
    b"PEER {\"name\": \"Syd\"}\n",
    b"PEER \xff\xfe\n",
    b"PEER " + b"x" * (4 * HELLO_LIMIT) + b"\n",
])
async def test_the_peer_port_refuses_what_is_not_a_node(shared: DoorServer, line: bytes) -> None:
    assert b"only for the door's own servers" in await peer(shared, line)
    assert not shared.sessions


async def test_the_peer_port_refuses_a_hello_without_the_peer_secret(shared: DoorServer) -> None:
    assert b"only for the door's own servers" in await peer(shared, hello(shared, secret=b"0" * 64))
    assert b"only for the door's own servers" in await peer(shared, hello(shared, mac="0" * 64))
    assert not shared.sessions


@pytest.mark.parametrize("changes", [{"name": "Ann"}, {"account": 1}, {"address": "10.0.0.1"}, {"nonce": "00" * 32}])
async def test_a_signed_hello_cannot_be_changed(shared: DoorServer, changes: dict[str, object]) -> None:
    assert b"only for the door's own servers" in await peer(shared, hello(shared, after=changes))
    assert not shared.sessions


@pytest.mark.parametrize("challenge", [123, None, "x" * 200])
async def test_the_peer_port_refuses_a_bad_challenge(shared: DoorServer, challenge: object) -> None:
    assert shared.link is not None
    bad = PeerHello("Syd", None, 80, 24, "utf-8", "xterm", challenge, "")  # type: ignore[arg-type]
    said = await peer(shared, lambda nonce: bad.encode(shared.link.secret, nonce)[0])  # type: ignore[union-attr]
    assert b"only for the door's own servers" in said
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
    link = await connect_peer("127.0.0.1", shared.link.port, shared.link.secret,
                              PeerHello("Syd", syd.id, 80, 24, "utf-8", "xterm"))
    assert link is not None
    reader, writer = link
    seen = b""
    while b"Main menu" not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 10)
    assert b"Welcome, Syd." in seen
    writer.close()


async def test_a_caller_in_screen_reader_mode_stays_in_it_when_handed_over(shared: DoorServer) -> None:
    """A guest who chose plain lines is handed to another node
    (to play its sysop, or a caller there): the hello says so."""
    assert shared.link is not None
    link = await connect_peer("127.0.0.1", shared.link.port, shared.link.secret,
                              PeerHello("Gil", None, 80, 24, "utf-8", "xterm", plain=True))
    assert link is not None
    reader, writer = link
    seen = b""
    while b"or Q." not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 10)
    assert b"Screen-reader mode is on" in seen and b"Welcome, Gil" in seen and b"\x1b" not in seen
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
    nonce = b"n" * 32
    hello, _ = PeerHello.decode(PeerHello.for_terminal("Syd", 7, terminal).encode(b"s" * 32, nonce)[0], b"s" * 32,
                                nonce)
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
        link = NodeLink(store, Lobby(PagingConfig()), "127.0.0.1", 1000)
        await link.start()
        await link.stop()
        await store.close()

    asyncio.run(node())
    heard[0]()  # the loop is closed now


# -- nodes trust only each other -------------------------------------


async def test_a_sniffed_hello_does_not_open_another_connection(shared: DoorServer) -> None:
    """A hello is bound to the nonce of the connection it was signed for:
    sent again on a new connection (from anywhere) it is refused."""
    assert shared.link is not None and shared.store is not None
    syd = await shared.store.accounts.create("Syd", hash_password("syd-pass"))
    sniffed: list[bytes] = []

    def sign(nonce: bytes) -> bytes:
        line = PeerHello("Syd", syd.id, 80, 24, "utf-8", "xterm").encode(shared.link.secret, nonce)[0]  # type: ignore[union-attr]
        sniffed.append(line)
        return line
    first = await asyncio.wait_for(peer_until(shared, sign, b"Main menu"), 15)
    assert b"Welcome, Syd." in first
    assert b"only for the door's own servers" in await peer(shared, sniffed[0])
    assert not any(t.kind == "peer" and not t.closed for t in shared.sessions if "Syd" in t.peer)


async def peer_until(door: DoorServer, line: Callable[[bytes], bytes], text: bytes) -> bytes:
    """Send ``line(nonce)`` and read until ``text`` comes (then hang up)."""
    assert door.link is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", door.link.port)
    nonce = await reader.readline()
    writer.write(line(bytes.fromhex(nonce[6:].decode().strip())))
    seen = b""
    try:
        while text not in seen:
            chunk = await reader.read(4096)
            assert chunk, seen
            seen += chunk
        return seen
    finally:
        writer.close()


async def test_the_store_s_tables_hold_no_way_in(shared: DoorServer) -> None:
    """What anyone who reads the store's nodes table learns is the address
    and port: no token there opens a session any more."""
    assert shared.store is not None and shared.link is not None
    rows = await shared.store.database.query(lambda db: db.execute("SELECT * FROM nodes").fetchall())
    assert rows and not any(shared.link.secret.decode() in str(row) for row in rows)
    assert all(row[3] == "" for row in rows)  # the old token column is empty


async def test_silent_connections_cannot_keep_a_hand_over_out(shared: DoorServer) -> None:
    """Silent connections from one address take at most a few waiting
    places; from many addresses they take the oldest places, which an
    honest node (answering within a round trip) never holds for long."""
    from door.net.peer_socket import PENDING_LIMIT, PENDING_PER_ADDRESS

    assert shared.link is not None and shared.store is not None
    syd = await shared.store.accounts.create("Syd", hash_password("syd-pass"))
    silent = []
    for i in range(PENDING_LIMIT + 40):  # over forty addresses of 127/8, as many as they may
        host = f"127.0.0.{2 + i // PENDING_PER_ADDRESS}"
        reader, writer = await asyncio.open_connection("127.0.0.1", shared.link.port, local_addr=(host, 0))
        silent.append((reader, writer))
    for _ in range(3):
        started = asyncio.get_running_loop().time()
        link = await connect_peer("127.0.0.1", shared.link.port, shared.link.secret,
                                  PeerHello("Syd", syd.id, 80, 24, "utf-8", "xterm"))
        assert link is not None, "the hand-over was kept out"
        assert asyncio.get_running_loop().time() - started < 2.0
        reader, writer = link
        seen = b""
        while b"Main menu" not in seen:
            seen += await asyncio.wait_for(reader.read(4096), 10)
        writer.close()
    # one address past its share is closed at once
    extra = [await asyncio.open_connection("127.0.0.1", shared.link.port, local_addr=("127.0.0.200", 0))
             for _ in range(PENDING_PER_ADDRESS + 2)]
    closed = 0
    for reader, _ in extra:
        data = await asyncio.wait_for(reader.read(), 8)  # the nonce then, after HELLO_TIMEOUT, the refusal; or b""
        closed += 0 if data.startswith(b"NONCE") else 1
    assert closed == 2
    for _, writer in silent + extra:
        writer.close()


async def test_the_peer_port_is_not_on_the_callers_address(tmp_path: Path, postgres: PostgresServer) -> None:
    """With ``peer_host`` empty the peer port listens on loopback only,
    even when the callers' listeners face every address."""
    config = make_config(tmp_path / "data")
    config.store.url = postgres.new_database()
    config.server.host = "0.0.0.0"
    async with running(config) as door:
        assert door.link is not None and door.link.address == "127.0.0.1"
        assert {s.getsockname()[0] for s in door.listening.peers.sockets} == {"127.0.0.1"}


async def test_a_relayed_caller_keeps_their_own_address(shared: DoorServer) -> None:
    """Cool-downs, limits and the log count a handed-over caller by the
    address they called from, not by the node that relayed them."""
    from door.sysop.presence import challenger_key

    assert shared.link is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", shared.link.port)
    nonce = await reader.readline()
    writer.write(hello(shared, name="Ivy", address="127.0.0.79")(bytes.fromhex(nonce[6:].decode().strip())))
    seen = b""
    while b"Main menu" not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 10)
    ivy = next(p for p in shared.ctx.lobby.presences.values() if p.name == "Ivy")
    assert ivy.terminal.address == "127.0.0.79"
    assert challenger_key(ivy) == "guest@127.0.0.79"
    assert "127.0.0.79" in ivy.terminal.peer
    writer.close()


async def test_a_node_without_the_secret_is_given_no_caller(shared: DoorServer) -> None:
    """The handing node checks the port's welcome before it relays a key:
    a port that does not hold the secret (a node registered in the store
    by whoever could write it) gets nothing past the hello."""
    assert shared.link is not None
    link = await connect_peer("127.0.0.1", shared.link.port, b"not-the-secret" * 4,
                              PeerHello("Syd", None, 80, 24, "utf-8", "xterm"))
    assert link is None
    got: list[bytes] = []

    async def impostor(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"NONCE " + b"ab" * 32 + b"\n")
        got.append(await reader.readline())
        writer.write(b"WELCOME " + b"0" * 64 + b"\n")
        got.append(await reader.read(100))  # nothing more comes
        writer.close()

    server = await asyncio.start_server(impostor, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        link = await connect_peer("127.0.0.1", port, shared.link.secret,
                                  PeerHello("Syd", None, 80, 24, "utf-8", "xterm"))
        assert link is None
        await until(lambda: len(got) == 2)
        assert got[0].startswith(b"PEER ") and got[1] == b""
    finally:
        server.close()
