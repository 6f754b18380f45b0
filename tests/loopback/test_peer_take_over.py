"""An account logging in at one node by the game protocol closes its
session at another over that node's peer port: the signed ``TAKE`` line
(only a node holding the peer secret is listened to; a line signed as a
turn or a sysop's kick is not a take-over) and the port's answers."""

from __future__ import annotations

import asyncio
import json

import pytest

from door.net.listener import Bind
from door.net.peer_notes import PeerTakeOver, canonical, sign
from door.net.peer_socket import send_take_over, start_peers

SECRET = b"s" * 40
NONCE = bytes(32)


def test_a_take_over_reads_back_only_under_its_secret_and_its_own_label() -> None:
    take = PeerTakeOver(7)
    assert PeerTakeOver.decode(take.encode(SECRET, NONCE), SECRET, NONCE) == take
    with pytest.raises(ValueError, match="wrong MAC"):
        PeerTakeOver.decode(take.encode(b"t" * 40, NONCE), SECRET, NONCE)
    with pytest.raises(ValueError, match="wrong MAC"):
        PeerTakeOver.decode(take.encode(SECRET, NONCE), SECRET, bytes(31) + b"\x01")  # another connection's
    fields = {"account": 7, "nonce": "00"}
    as_a_turn = sign(SECRET, b"cribbage-door peer turn v1", NONCE, canonical(fields))
    with pytest.raises(ValueError, match="wrong MAC"):  # a turn's signature is not a take-over's
        PeerTakeOver.decode(b"TAKE " + json.dumps({**fields, "mac": as_a_turn}).encode(), SECRET, NONCE)


@pytest.mark.parametrize("value", [0, -3, True, "7", None])
def test_a_take_over_of_no_account_is_refused(value: object) -> None:
    fields = {"account": value, "nonce": "00"}
    forged = b"TAKE " + json.dumps({**fields, "mac": sign(SECRET, b"cribbage-door peer take-over v1", NONCE,
                                                           canonical(fields))}).encode()
    with pytest.raises(ValueError, match="account"):
        PeerTakeOver.decode(forged, SECRET, NONCE)


async def test_the_peer_port_answers_whether_the_account_s_sessions_ended() -> None:
    asked: list[int] = []

    async def take(request: PeerTakeOver) -> bool:
        asked.append(request.account)
        await asyncio.sleep(0.05)  # (the sessions there are waited for before the answer)
        return request.account == 7

    async def never(*_: object) -> None:
        raise AssertionError("no caller is handed over in these tests")
    listener = await start_peers(Bind("127.0.0.1", 0), SECRET, never, take=take)
    try:
        assert await send_take_over("127.0.0.1", listener.port, SECRET, PeerTakeOver(7)) is True
        assert await send_take_over("127.0.0.1", listener.port, SECRET, PeerTakeOver(8)) is False  # one held on
        assert await send_take_over("127.0.0.1", listener.port, b"t" * 40, PeerTakeOver(7)) is None
        assert asked == [7, 8]  # the unsigned one never reached it
    finally:
        listener.close()
        await listener.wait_closed()
