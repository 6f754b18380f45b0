"""BBS nodes join a running server.  ``cribbage-door door``
under a BBS (a PTY and a DOOR32.SYS) hands its caller to the
``cribbage-door serve`` running on the same data folder: the caller pages
the sysop at the console and plays them; two nodes challenge each other
and play a whole game; and the node socket refuses what is not a node."""

from __future__ import annotations

import asyncio
import json
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.net.node_socket import HELLO_LIMIT, NODE_SOCKET, NodeHello
from door.records.store import DATABASE_NAME, Store
from door.server import DoorServer
from tests.support.clients import console_client
from tests.support.player import Player
from tests.support.pty_door import PtyDoor, door32
from tests.support.server import make_config, running, start_server_process


@pytest.fixture
def served(tmp_path: Path):
    """``cribbage-door serve`` on ``tmp_path/data``, 61-point games, no
    computer delay; stopped at the end."""
    config = tmp_path / "serve.toml"
    config.write_text("[rules]\ngame_to = 61\n[computer]\ndelay = 0\nprocesses = 0\n"
                      "[caller]\npegging_pause = 0\nhand_pause = 0\n[paging]\npage_timeout = 20\n")
    proc, _, _ = start_server_process(tmp_path / "data", "--config", str(config))
    yield proc
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)


async def node(tmp_path: Path, name: str, number: int) -> PtyDoor:
    """A BBS node's door process for the user ``name``, at the main menu."""
    folder = tmp_path / f"node{number}"
    folder.mkdir()
    door = PtyDoor(folder, door32(folder, name), data_dir=tmp_path / "data")
    await door.start()
    await door.screen.wait_for(lambda: "Main menu" in door.screen.text() and f"Welcome, {name}." in door.screen.text(),
                               timeout=20)
    return door


@pytest.mark.slow
async def test_a_door_mode_caller_plays_the_sysop_of_the_running_server(tmp_path: Path, served) -> None:
    sysop, console, task = await console_client(tmp_path / "data")
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
    door = await node(tmp_path, "Doorman", 1)
    s = door.screen
    # the caller is one of the server's: the console lists them, and they may page the sysop
    await console.wait_for(lambda: "Doorman" in console.text() and "main menu" in console.text())
    await s.wait_for(lambda: "Play the sysop" in s.text())
    assert "Terminal: ANSI-BBS (CP437)" in s.text()  # the node's charset, as its drop file said
    await door.send(b"6")
    await s.wait_for(lambda: "Reason:" in s.text())
    await door.send(b"a game from node 1?\r")
    await console.wait_for(lambda: "PAGE from Doorman" in console.text())
    sysop.write(b"y")
    await s.wait_for(lambda: "accepted your page" in s.text())
    await door.send(b"1")
    await s.wait_for(lambda: s.prompt().startswith("Chat"))
    await console.wait_for(lambda: console.prompt().startswith("Chat"))
    await door.send(b"hello from the BBS\r")
    await console.wait_for(lambda: "Doorman: hello from the BBS" in console.text())

    async def console_send(data: bytes) -> None:
        sysop.write(data)

    mine, theirs = Player(s, door.send, name="Doorman"), Player(console, console_send, name="Sysop")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    for end in ends:
        assert re.search(r"wins? \d+ to \d+!", end), end
    await mine.leave()
    assert await door.finish() == 0
    sysop.close()
    store = await Store.open(tmp_path / "data" / DATABASE_NAME)
    games = await store.games.recent("Doorman")
    await store.close()
    assert len(games) == 1 and games[0].opponent == "sysop" and max(games[0].scores) == 61


@pytest.mark.slow
async def test_two_door_mode_callers_play_each_other_through_the_running_server(tmp_path: Path, served) -> None:
    ann = await node(tmp_path, "Ann", 1)
    bob = await node(tmp_path, "Bob", 2)
    await ann.screen.wait_for(lambda: "8  Play another caller" in ann.screen.text())
    await ann.send(b"8")
    await ann.screen.wait_for(lambda: "1  Bob" in ann.screen.text())
    await ann.send(b"1")
    await ann.screen.wait_for(lambda: "Press 1 or 2" in ann.screen.text())
    await ann.send(b"2")
    await ann.screen.wait_for(lambda: "How long a match?" in ann.screen.text())
    await ann.send(b"1")
    await bob.screen.wait_for(lambda: "Ann challenges you to a 61-point game" in bob.screen.text())
    await bob.send(b"y")
    mine, theirs = Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    for end in ends:
        assert re.search(r"(You win|Ann wins|Bob wins) \d+ to \d+!", end), end
    for door in (ann, bob):
        await Player(door.screen, door.send).leave()
        assert await door.finish() == 0
    store = await Store.open(tmp_path / "data" / DATABASE_NAME)
    games = await store.games.recent("Ann")
    await store.close()
    assert len(games) == 1 and games[0].players == ("Ann", "Bob") and games[0].opponent == "caller"


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data")) as server:
        yield server


async def hand_over(door: DoorServer, line: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(str(Path(door.config.server.data_dir) / NODE_SOCKET))
    writer.write(line)
    return reader, writer


async def answer(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), 10)


@pytest.mark.parametrize("line, why", [
    (b"hello\n", b"expected: NODE {json}"),
    (b"NODE {\"name\": \"Ann\"}\n", b"expected the fields"),
    (b"NODE " + json.dumps({"name": "Ann", "node": 1, "cols": 80, "rows": 24, "charset": "koi8-r",
                            "seconds": 60, "plain": False}).encode() + b"\n", b"charset: one of"),
    (b"NODE " + json.dumps({"name": "A" * 41, "node": 1, "cols": 80, "rows": 24, "charset": "cp437",
                            "seconds": 60, "plain": False}).encode() + b"\n", b"name: 1 to 40 characters"),
    (b"NODE \xff\xfe\n", b"not JSON"),
    (b"NODE " + b"x" * (4 * HELLO_LIMIT) + b"\n", b"did not understand"),  # past the line limit
])
async def test_the_node_socket_refuses_what_is_not_a_node(door: DoorServer, line: bytes, why: bytes) -> None:
    reader, writer = await hand_over(door, line)
    said = await answer(reader)
    assert b"did not understand this node" in said and why in said
    assert not door.sessions  # no session was started
    writer.close()


async def test_a_node_caller_with_a_reserved_name_is_refused(door: DoorServer) -> None:
    reader, writer = await hand_over(door, NodeHello("Sysop", 3, 80, 24, "cp437", 600).encode())
    assert b"cannot take the BBS user name" in await answer(reader)
    assert await door.store.accounts.find("Sysop") is None
    writer.close()


async def test_a_node_caller_without_ansi_gets_plain_lines_on_the_server(door: DoorServer) -> None:
    """The BBS said no ANSI; the door process hands the caller to
    the running server, which says the door in plain lines."""
    reader, writer = await hand_over(door, NodeHello("Plainly", 3, 80, 24, "ascii", 600, plain=True).encode())
    said = b""
    while b"or Q." not in said:
        said += await asyncio.wait_for(reader.read(4096), 10)
    assert b"Screen-reader mode is on" in said and b"Welcome, Plainly." in said and b"\x1b" not in said
    writer.close()


async def test_a_node_caller_s_time_runs_out_on_the_server(door: DoorServer) -> None:
    """The seconds the BBS gave the caller count on the server, which ends
    the session (and so the door process's relay)."""
    reader, writer = await hand_over(door, NodeHello("Latecomer", 3, 80, 24, "utf-8", 0).encode())
    said = await answer(reader)
    assert b"Your time is up" in said
    assert (await door.store.accounts.find("Latecomer")) is not None  # the BBS user's account, as in door mode
    writer.close()


async def test_a_relayed_caller_who_floods_a_far_end_that_does_not_read_is_not_read_either() -> None:
    """The relay (a BBS node's door process, or a serve process handing a
    caller to another) stops reading the caller while the far end has a
    transport's worth unsent: 200 KB pasted, or 32 MiB, never piles up in
    the relaying process."""
    from door.net.relay import relay
    from tests.support.memory_terminal import MemoryTerminal

    async def never_reads(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(60)

    far = await asyncio.start_server(never_reads, "127.0.0.1", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", far.sockets[0].getsockname()[1])
    caller = MemoryTerminal()
    relaying = asyncio.create_task(relay(caller, reader, writer, b"NODE {}\n"))
    chunk, fed, budget = b"x" * 4096, 0, 32 * 1024 * 1024
    try:
        while fed < budget:  # the caller's pump: reads only while there is room
            try:
                await asyncio.wait_for(caller.room(), 2)
            except TimeoutError:
                break
            caller.feed(chunk)
            fed += len(chunk)
            await asyncio.sleep(0)
        assert fed < budget  # held back once the kernel's buffers and the transport's high-water mark were full
        assert writer.transport.get_write_buffer_size() <= writer.transport.get_write_buffer_limits()[1] + len(chunk)
    finally:
        relaying.cancel()
        await asyncio.gather(relaying, return_exceptions=True)
        far.close()


async def test_keys_typed_while_a_caller_is_handed_over_reach_the_far_end() -> None:
    """Nothing the caller typed is lost when the relay starts: a key the
    session decoded but never read, half an escape sequence, and bytes
    not yet decoded all reach the far end, in order; the LF of a CR LF
    whose Enter was read is not a second Enter there (the CI failure of
    stop 48: "6" pressed as the caller was handed to the sysop's node)."""
    from door.net.keys import KeyName
    from door.net.relay import FrameDecoder, relay
    from tests.support.memory_terminal import MemoryTerminal

    got = bytearray()
    hello_seen = asyncio.Event()
    enough = asyncio.Event()

    async def far_end(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        hello_seen.set()
        while chunk := await reader.read(100):
            got.extend(chunk)
            if got.endswith(b"z"):
                enough.set()

    far = await asyncio.start_server(far_end, "127.0.0.1", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", far.sockets[0].getsockname()[1])
    caller = MemoryTerminal()
    caller.feed(b"1\r")  # the menu's key and Enter, read by the session
    assert (await caller.get_key()).char == "1"
    assert (await caller.get_key()).name is KeyName.ENTER
    caller.feed(b"\n6\x1b[")  # the end of that CR LF, a key and half an arrow, decoded by the next read
    caller.resized(100, 30)
    assert (await caller.get_key()).char == "6"  # (a resize waits behind them)
    caller.feed(b"C\r\x00x")  # the rest of the arrow, Enter (CR NUL), x: never decoded
    relaying = asyncio.create_task(relay(caller, reader, writer, b"HELLO\n"))
    try:
        await asyncio.wait_for(hello_seen.wait(), 5)
        caller.feed(b"z")  # typed once the relay runs
        await asyncio.wait_for(enough.wait(), 5)
        typed, sizes = FrameDecoder().feed(bytes(got))
        assert typed == b"\x1b[C\r\x00xz"  # the arrow whole, nothing before it, nothing lost
        assert sizes == [(100, 30)]  # and the size change that waited with them
    finally:
        relaying.cancel()
        await asyncio.gather(relaying, return_exceptions=True)
        writer.close()
        far.close()


async def test_a_caller_who_paused_output_is_not_left_frozen_when_handed_over() -> None:
    """Ctrl-S held the door's output (the original door) just before the caller was
    handed over: the Ctrl-Q that would resume it now goes to the far end,
    so the hand-over resumes it here, what was held first, and the far
    end's screen shows (without this the caller's screen stayed frozen)."""
    from door.net.relay import relay
    from tests.support.memory_terminal import MemoryTerminal

    async def far_end(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(b"\x1b[2;1HTHE FAR END")
        await reader.read()

    far = await asyncio.start_server(far_end, "127.0.0.1", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", far.sockets[0].getsockname()[1])
    caller = MemoryTerminal()
    caller.feed(b"\x13")  # Ctrl-S
    assert await caller.get_key(timeout=0.05) is None and caller.paused
    caller.write(b"HELD HERE")
    relaying = asyncio.create_task(relay(caller, reader, writer, b"HELLO\n"))
    try:
        for _ in range(100):
            if "THE FAR END" in caller.text():
                break
            await asyncio.sleep(0.05)
        assert not caller.paused
        assert caller.text().splitlines()[:2] == ["HELD HERE", "THE FAR END"]
    finally:
        relaying.cancel()
        await asyncio.gather(relaying, return_exceptions=True)
        writer.close()
        far.close()
