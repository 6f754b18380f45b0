"""The cribbage hub: callers from other boards over rlogin, with
a raw rlogin client (RFC 1282): one board with Synchronet's handshake, one
with DoorParty's; their callers play each other as alias@TAG; a wrong secret
is refused and counted; an alias that is also a local name stays apart."""

from __future__ import annotations

import asyncio
import re
import struct
from pathlib import Path

import pytest

from door.config import BoardConfig, Config, Handshake
from door.net.rlogin import HandshakeError, parse_handshake
from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_callers import both_in_chat, challenge
from tests.support.player import ClientScreen, Cp437Screen, Player, TelnetCaller
from tests.support.server import make_config, running

SYNC_SECRET = "sync-secret-0123"
DP_SECRET = "doorparty-secret-4567"


def hub_config(data: Path) -> Config:
    config = make_config(data, game_to=61)
    config.rlogin.enabled = True
    config.rlogin.port = 0
    config.rlogin.boards = [BoardConfig("SYNC", SYNC_SECRET, Handshake.SYNCHRONET),
                            BoardConfig("DP", DP_SECRET, Handshake.DOORPARTY)]
    return config


async def rlogin(door: DoorServer, client_user: str, server_user: str, term: str = "ansi-bbs/38400",
                 cols: int = 80, rows: int = 24, source: str | None = None) -> tuple[TelnetCaller, bytes]:
    """Call the hub as a member board's rlogin client does (from the
    loopback address ``source``); returns the caller and the first byte
    the door answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", door.rlogin_port,
                                                   local_addr=(source, 0) if source else None)
    writer.write(b"\0" + client_user.encode() + b"\0" + server_user.encode() + b"\0" + term.encode() + b"\0")
    first = await reader.read(1)
    writer.write(b"\xff\xffss" + struct.pack(">HHHH", rows, cols, 0, 0))  # the window size, in band
    screen = Cp437Screen(cols, rows) if term.startswith("ansi") else ClientScreen(cols, rows)  # (a BBS: CP437)

    async def pump() -> None:
        while data := await reader.read(4096):
            screen.feed(data)

    return TelnetCaller(writer, screen, asyncio.create_task(pump())), first


async def test_callers_of_two_boards_play_each_other_as_alias_at_tag(tmp_path: Path) -> None:
    async with running(hub_config(tmp_path / "data")) as door:
        local = await door.store.accounts.create("Ann", hash_password("local-ann-secret"))
        ann, first = await rlogin(door, SYNC_SECRET, "Ann", rows=30)
        assert first == b"\0"
        await ann.screen.wait_for(lambda: "Welcome, Ann@SYNC." in ann.screen.text())
        bob, _ = await rlogin(door, DP_SECRET, "[DP]Bob")
        await bob.screen.wait_for(lambda: "Welcome, Bob@DP." in bob.screen.text())
        sizes = {p.name: (p.terminal.cols, p.terminal.rows) for p in door.ctx.lobby.callers()}
        assert sizes["Ann@SYNC"] == (80, 30)  # the window size the client sent
        await challenge(ann, "Bob@DP")
        await bob.screen.wait_for(lambda: "Ann@SYNC challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        ends = await asyncio.gather(Player(ann.screen, ann.send, name="Ann@SYNC").play(timeout=200),
                                    Player(bob.screen, bob.send, name="Bob@DP").play(timeout=200))
        assert all(re.search(r"wins? \d+ to \d+!", e) for e in ends)
        games = await door.store.games.recent()
        assert len(games) == 1 and games[0].players == ("Ann@SYNC", "Bob@DP")
        hub_ann = await door.store.accounts.find("Ann@SYNC")
        assert hub_ann is not None and hub_ann.id != local.id  # the local Ann is someone else
        assert await door.store.games.recent("Ann") == []
        assert (await door.store.statistics.player("Ann@SYNC")).games == 1
        for c in (ann, bob):
            c.close()


@pytest.mark.parametrize("client_user,server_user", [
    ("wrong-secret-0000", "Ann"),          # Synchronet's handshake, no board has this secret
    (SYNC_SECRET, "[DP]Ann"),              # DoorParty's tag with another board's secret
    (DP_SECRET, "[XX]Ann"),                # a tag no board has
])
async def test_a_wrong_secret_is_refused_and_counted(tmp_path: Path, client_user: str, server_user: str) -> None:
    async with running(hub_config(tmp_path / "data")) as door:
        checks = door.ctx.throttle.checks
        caller, first = await rlogin(door, client_user, server_user)
        await asyncio.wait_for(caller.done, 10)  # the door hangs up
        assert first == b"\0"
        assert "not a member of the cribbage hub" in caller.screen.text()
        assert door.ctx.throttle.checks == checks + 1  # counted as a wrong password is
        assert await door.store.accounts.find("Ann@DP") is None and await door.store.accounts.find("Ann") is None


async def test_a_local_caller_cannot_take_a_hub_name(tmp_path: Path) -> None:
    from tests.support.player import telnet_caller
    async with running(hub_config(tmp_path / "data")) as door:
        caller = await telnet_caller(door.telnet_port)
        await caller.screen.wait_for(lambda: "Your name:" in caller.screen.text())
        await caller.send(b"Bob@DP\r")
        await caller.screen.wait_for(lambda: "A name with @ belongs to a caller from another board" in
                                     caller.screen.text())
        caller.close()


@pytest.mark.parametrize("data,why", [
    (b"Ann\0Ann\0ansi/9600\0", "NUL byte"),
    (b"\0Ann\0Ann\0", "client-user, server-user"),
    (b"\0" + b"A" * 200 + b"\0Ann\0ansi\0", "over 128 bytes"),
    (b"\0Ann\0A\x1b[2Jnn\0ansi\0", "control characters"),
])
def test_a_malformed_handshake_is_refused_with_its_reason(data: bytes, why: str) -> None:
    with pytest.raises(HandshakeError, match=re.escape(why)):
        parse_handshake(data)


async def test_garbage_instead_of_a_handshake_is_hung_up_on(tmp_path: Path) -> None:
    async with running(hub_config(tmp_path / "data")) as door:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.rlogin_port)
        writer.write(b"\0" + b"x" * 5000)  # no NUL: over the limit
        assert await asyncio.wait_for(reader.read(), 10) == b""  # closed, no answer
        writer.close()
        assert len(door.sessions) == 0


async def test_the_terminal_type_may_name_the_screen_to_start_on(tmp_path: Path) -> None:
    async with running(hub_config(tmp_path / "data")) as door:
        caller, _ = await rlogin(door, SYNC_SECRET, "Ann", term="ansi-bbs+computer/38400")
        await caller.screen.wait_for(lambda: "Press 1 or 2" in caller.screen.text())  # the game's options at once
        assert "Game options" in caller.screen.text()
        caller.close()
        assert parse_handshake(b"\0s\0Ann\0ansi-bbs+Daily/9600\0").start == "daily"
        assert parse_handshake(b"\0s\0Ann\0ansi-bbs+Daily/9600\0").term == "ansi-bbs"


async def test_a_board_is_proved_by_its_addresses_not_its_secret_alone(tmp_path: Path) -> None:
    """rlogin sends a board's secret in the clear with every call: anyone
    on the path could replay it.  A board lists the addresses it calls
    from; a call from elsewhere is closed before a byte is read (the
    secret included), and a secret replayed from another board's address
    is refused.  A stranger's hundred half-open calls shut nobody out."""
    config = hub_config(tmp_path / "data")
    config.rlogin.boards = [BoardConfig("SYNC", SYNC_SECRET, Handshake.SYNCHRONET, ("127.0.0.2",)),
                            BoardConfig("DP", DP_SECRET, Handshake.DOORPARTY, ("127.0.0.3/32",))]
    async with running(config) as door:
        half_open = []
        for _ in range(100):  # a stranger's flood: one byte each, never a whole handshake
            reader, writer = await asyncio.open_connection("127.0.0.1", door.rlogin_port, local_addr=("127.0.0.9", 0))
            writer.write(b"\0")
            half_open.append((reader, writer))
        for r, _ in half_open:  # each closed at once, unread (an abort: a reset, or the end of the stream)
            try:
                assert await asyncio.wait_for(r.read(), 5) == b""
            except ConnectionResetError:
                pass
        for _, w in half_open:
            w.close()
        ann, first = await rlogin(door, SYNC_SECRET, "Ann", source="127.0.0.2")  # the board, from its address
        assert first == b"\0"
        await ann.screen.wait_for(lambda: "Welcome, Ann@SYNC." in ann.screen.text())
        # SYNC's secret, replayed from DP's address: not SYNC
        eve, _ = await rlogin(door, SYNC_SECRET, "Eve", source="127.0.0.3")
        await eve.screen.wait_for(lambda: "not a member of the cribbage hub" in eve.screen.text(), timeout=10)
        assert "Eve@SYNC" not in {p.name for p in door.ctx.lobby.callers()}
        for c in (ann, eve):
            c.close()
