"""A game by turns told across nodes over the peer port: the signed
``TURN`` line (only a node holding the peer secret is listened to; a line
signed as a sysop's ``KICK`` is not a turn), the port's answers, and the
node link's queue of turns to send, which cannot grow past its bound."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest

from door.config import PagingConfig
from door.net.listener import Bind
from door.net.peer_notes import canonical, sign
from door.net.peer_socket import PeerKick, PeerTurn, send_kick, send_turn, start_peers
from door.records.nodes import Node, Present
from door.records.store import Store
from door.sysop.lobby import Lobby
from door.sysop.node_link import TURNS_WAITING, NodeLink

SECRET = b"s" * 40
NONCE = bytes(32)


def test_a_turn_reads_back_only_under_its_secret_and_its_own_label() -> None:
    turn = PeerTurn(7, 42, 1, "Ann")
    assert PeerTurn.decode(turn.encode(SECRET, NONCE), SECRET, NONCE) == turn
    with pytest.raises(ValueError, match="wrong MAC"):
        PeerTurn.decode(turn.encode(b"t" * 40, NONCE), SECRET, NONCE)
    with pytest.raises(ValueError, match="wrong MAC"):
        PeerTurn.decode(turn.encode(SECRET, NONCE), SECRET, bytes(31) + b"\x01")  # another connection's
    kick = PeerKick("Ann", "Sysop").encode(SECRET, NONCE)
    with pytest.raises(ValueError):
        PeerTurn.decode(b"TURN " + kick[5:], SECRET, NONCE)  # a kick's signature is not a turn's


@pytest.mark.parametrize("field, value", [("account", 0), ("game", -1), ("number", True), ("game", "42"),
                                          ("other", "")])
def test_a_turn_with_a_bad_field_is_refused_saying_which(field: str, value: object) -> None:
    line = PeerTurn(7, 42, 1, "Ann").encode(SECRET, NONCE)
    fields = json.loads(line[5:])
    fields[field] = value
    fields.pop("mac")
    forged = b"TURN " + json.dumps({**fields, "mac": sign(SECRET, b"cribbage-door peer turn v1", NONCE,
                                                           canonical(fields))}).encode()
    with pytest.raises(ValueError, match=field if field != "other" else "name"):
        PeerTurn.decode(forged, SECRET, NONCE)


async def test_the_peer_port_tells_the_player_on_line_there_and_says_so() -> None:
    heard: list[PeerTurn] = []

    def turn(request: PeerTurn) -> bool:
        heard.append(request)
        return request.account == 7
    listener = await start_peers(Bind("127.0.0.1", 0), SECRET, lambda *_: _never(), turn=turn)
    try:
        assert await send_turn("127.0.0.1", listener.port, SECRET, PeerTurn(7, 42, 1, "Ann")) is True
        assert await send_turn("127.0.0.1", listener.port, SECRET, PeerTurn(8, 43, 2, "Bob")) is False
        assert await send_turn("127.0.0.1", listener.port, b"t" * 40, PeerTurn(7, 44, 1, "Ann")) is None
        assert heard == [PeerTurn(7, 42, 1, "Ann"), PeerTurn(8, 43, 2, "Bob")]  # the unsigned one never reached it
    finally:
        listener.close()
        await listener.wait_closed()


async def test_a_kick_is_still_answered_beside_turns() -> None:
    """The sysop's kick shares the signed line's way with turns: a turn
    callback does not take a kick, nor a kick callback a turn."""
    ended: list[str] = []

    def kick(request: PeerKick) -> bool:
        ended.append(request.name)
        return request.name == "Ann"
    listener = await start_peers(Bind("127.0.0.1", 0), SECRET, lambda *_: _never(), kick=kick,
                                 turn=lambda _: True)
    try:
        assert await send_kick("127.0.0.1", listener.port, SECRET, PeerKick("Ann", "Sysop")) is True
        assert await send_kick("127.0.0.1", listener.port, SECRET, PeerKick("Bob", "Sysop")) is False
        assert await send_kick("127.0.0.1", listener.port, b"t" * 40, PeerKick("Ann", "Sysop")) is None
        assert ended == ["Ann", "Bob"]
    finally:
        listener.close()
        await listener.wait_closed()


async def _never() -> None:
    raise AssertionError("no caller is handed over in these tests")


async def test_a_flood_of_turns_waits_in_a_bounded_queue(tmp_path: Path) -> None:
    """Turns for a node that does not take them as fast as they come wait
    at most :data:`TURNS_WAITING`; the rest are dropped and counted."""
    store = await Store.open(tmp_path / "door.db")
    try:
        link = NodeLink(store, Lobby(PagingConfig()), "127.0.0.1", 0, SECRET)  # (not started: nothing is sent)
        there = Present(2, "Bob", "", False)
        for game in range(1, TURNS_WAITING + 101):
            link.tell_turn(there, PeerTurn(9, game, 1, "Ann"))
        assert link._turns.qsize() == TURNS_WAITING
        assert link.turns_dropped == 100
    finally:
        await store.close()


async def test_a_node_that_is_down_misses_its_turns_and_the_others_still_get_theirs(tmp_path: Path) -> None:
    heard: list[PeerTurn] = []
    listener = await start_peers(Bind("127.0.0.1", 0), SECRET, lambda *_: _never(),
                                 turn=lambda t: heard.append(t) is None)
    with socket.socket() as s:  # a port nobody listens on: a node that is down
        s.bind(("127.0.0.1", 0))
        down = s.getsockname()[1]
    store = await Store.open(tmp_path / "door.db")
    lobby = Lobby(PagingConfig())
    link = NodeLink(store, lobby, "127.0.0.1", 0, SECRET)
    await link.start()
    try:
        lobby.nodes = {98: Node(98, "127.0.0.1", down, 1, 1), 99: Node(99, "127.0.0.1", listener.port, 1, 1)}
        for game in range(1, 11):
            link.tell_turn(Present(98, "Bob", "", False), PeerTurn(8, game, 1, "Ann"))
        link.tell_turn(Present(97, "Cy", "", False), PeerTurn(9, 20, 1, "Ann"))  # (a node gone since)
        link.tell_turn(Present(99, "Dee", "", False), PeerTurn(10, 21, 1, "Ann"))
        async with asyncio.timeout(10):
            while not heard:
                await asyncio.sleep(0.01)
        assert heard == [PeerTurn(10, 21, 1, "Ann")]
        assert link._turns.empty()
    finally:
        await link.stop()
        await store.close()
        listener.close()
        await listener.wait_closed()
