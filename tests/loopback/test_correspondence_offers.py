"""Offers of games by correspondence to anyone and to callers of other
boards: an open offer posted at the screens (N, "anyone") is taken at
another caller's A and played; one posted by the protocol (``offer``
without a name) and taken by two programs at once goes to exactly one,
the other told it is gone; it is not taken from the network it was made
from, nor by its maker; on the cribbage hub a member board's caller is
offered a game as ``alias@BOARD`` before they ever called, and finds it
at their first call through their board; elsewhere such a name is
refused, saying why."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from door.records.game_kinds import GameKind
from door.records.passwords import hash_password
from door.server import DoorServer
from engine.rules import Rules
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _call, _decide, _leave, _sit_by_protocol, offer_at_the_screens
from tests.loopback.test_hub import SYNC_SECRET, hub_config, rlogin
from tests.loopback.test_protocol import next_message
from tests.support.server import make_config, running


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _program(door: DoorServer, name: str) -> Any:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await next_message(ws, "welcome")
    return ws


async def _games(ws: Any) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "games"}))
    return await next_message(ws, "games")  # type: ignore[no-any-return]


async def test_an_offer_to_anyone_made_at_the_screens_is_taken_at_another_callers_list(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    config.ranked.same_network = True  # (every caller of the test calls from 127.0.0.1)
    async with running(config) as door:
        store = door.store
        for name in ("Ann", "Bob"):
            await store.accounts.create(name, hash_password(PASSWORD))
        ann = await _call(door, "Ann")
        await offer_at_the_screens(ann, "Anyone", days=b"2")
        await ann.screen.wait_for(lambda: "W  Withdraw your offer to anyone" in ann.screen.text())
        assert "A  " not in ann.screen.text()  # her own offer is not hers to take
        await ann.send(b"\x1b")
        await _leave(ann)

        bob = await _call(door, "Bob")
        await bob.send(b"k")
        await bob.screen.wait_for(lambda: "A  Take an offer made to anyone (1)" in bob.screen.text())
        await bob.send(b"a")
        await bob.screen.wait_for(lambda: "Ann offers a game by correspondence to anyone: 2 days a move" in _flat(
            bob.screen.text()))
        await bob.send(b"y")
        await _decide(bob, "Bob")  # the deal, and Bob's discard
        await bob.send(b" ")
        await bob.screen.wait_for(lambda: "with Ann: their move" in bob.screen.text())
        assert "A  " not in bob.screen.text()  # taken: nobody else is offered it
        await bob.send(b"\x1b")
        await _leave(bob)
        ann_id = (await store.accounts.find("Ann")).id  # type: ignore[union-attr]
        kept = [g for g in await store.saved.unfinished(ann_id) if g.kind is GameKind.CORRESPONDENCE]
        assert len(kept) == 1 and kept[0].other == "Bob"
        assert await store.correspondence.offers.open_to_anyone() == []


async def test_two_programs_take_one_offer_to_anyone_at_once_and_one_gets_it(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        for name in ("Ann", "Bob", "Cy"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        ann, bob, cy = [await _program(door, n) for n in ("Ann", "Bob", "Cy")]
        await ann.send(json.dumps({"type": "offer", "days": 3}))
        assert (await next_message(ann, "notice"))["text"].startswith("Your offer to anyone is made")
        assert (await _games(ann))["offers"] == []  # her own is left out
        listed = (await _games(bob))["offers"]
        assert [(o["name"], o["open"], o["days"]) for o in listed] == [("Ann", True, 3)]
        offer = listed[0]["offer"]

        await bob.send(json.dumps({"type": "answer", "offer": offer, "accept": True}))
        refused = await next_message(bob, "error")  # Bob calls from Ann's network (the loopback's)
        assert refused["field"] == "offer" and refused["message"].startswith("That offer was made from your network")
        await ann.send(json.dumps({"type": "answer", "offer": offer, "accept": True}))
        assert (await next_message(ann, "error"))["message"].startswith("That is your own offer")

        door.ctx.ranked.same_network = True  # the sysop allows one network: the race
        for ws in (bob, cy):
            await ws.send(json.dumps({"type": "answer", "offer": offer, "accept": True}))
        firsts = await asyncio.gather(*(next_message(ws, timeout=20) for ws in (bob, cy)))
        lost = [i for i, m in enumerate(firsts) if m["type"] == "error"]
        assert len(lost) == 1, firsts
        assert firsts[lost[0]] == {"type": "error", "field": "offer", "message": "That offer is no longer open."}
        winner = (bob, cy)[1 - lost[0]]
        assert (await _sit_by_protocol(winner))["type"] == "waiting"
        games = (await _games(ann))["games"]
        assert len(games) == 1 and games[0]["other"] == ("Bob", "Cy")[1 - lost[0]]
        for ws in (ann, bob, cy):
            await ws.close()


async def test_a_maker_who_filled_their_cap_since_is_named_and_the_offer_kept(tmp_path: Path) -> None:
    """Ann offers Bob a game, then Cy; Cy accepts, which fills Ann's cap
    (one game here); Bob's accepting is refused, naming Ann's cap, and the
    offer stays in his list (it was spent, the game refused by the store)."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    config.correspondence.max_open = 1
    async with running(config) as door:
        for name in ("Ann", "Bob", "Cy"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        ann, bob, cy = [await _program(door, n) for n in ("Ann", "Bob", "Cy")]
        for other in ("Bob", "Cy"):
            await ann.send(json.dumps({"type": "offer", "name": other}))
            await next_message(ann, "notice")
        offer_to_cy = (await _games(cy))["offers"][0]["offer"]
        await cy.send(json.dumps({"type": "answer", "offer": offer_to_cy, "accept": True}))
        assert (await _sit_by_protocol(cy))["type"] == "waiting"
        offers = (await _games(bob))["offers"]
        await bob.send(json.dumps({"type": "answer", "offer": offers[0]["offer"], "accept": True}))
        assert await next_message(bob, "error") == {
            "type": "error", "field": "offer", "message": "Ann has 1 correspondence game under way, the most this "
            "board allows: the offer stays open until they finish one."}
        assert (await _games(bob))["offers"] == offers
        for ws in (ann, bob, cy):
            await ws.close()


async def test_declining_an_offer_and_withdrawing_one_are_each_answered(tmp_path: Path) -> None:
    """A program's ``answer`` with ``accept`` false is told what it did
    (it was answered by nothing, so a program could not tell a decline
    from a message lost), and the ``games`` message lists the offers it
    made (it could not learn their ids, so not withdraw them): Bob
    declines Ann's offer, Ann withdraws her offer to Cy, and a second try
    at either is an error on ``offer``."""
    async with running(make_config(tmp_path / "data")) as door:
        for name in ("Ann", "Bob", "Cy"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        ann, bob = [await _program(door, n) for n in ("Ann", "Bob")]
        for other in ("Bob", "Cy"):
            await ann.send(json.dumps({"type": "offer", "name": other}))
            await next_message(ann, "notice")
        to_bob = (await _games(bob))["offers"][0]["offer"]
        made = (await _games(ann))["made"]
        assert [o["name"] for o in made] == ["Bob", "Cy"]  # (her own offers, to withdraw: not in "offers")
        to_cy = made[1]["offer"]
        for ws, offer, said in ((bob, to_bob, "You declined Ann's offer."),
                                (ann, to_cy, "You withdrew your offer to Cy.")):
            await ws.send(json.dumps({"type": "answer", "offer": offer, "accept": False}))
            assert await next_message(ws) == {"type": "notice", "text": said}
            await ws.send(json.dumps({"type": "answer", "offer": offer, "accept": False}))
            assert (await next_message(ws))["field"] == "offer"
        for ws in (ann, bob):
            await ws.close()


async def test_an_offer_to_a_caller_of_another_board_is_refused_off_the_hub(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data")) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        ann = await _program(door, "Ann")
        await ann.send(json.dumps({"type": "offer", "name": "Bob@SYNC", "days": 3}))
        refused = await next_message(ann, "error")
        assert refused["field"] == "name" and "this board is no cribbage hub" in refused["message"]
        await ann.close()


async def test_on_the_hub_a_member_boards_caller_is_offered_a_game_before_their_first_call(tmp_path: Path) -> None:
    config = hub_config(tmp_path / "data")
    async with running(config) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        ann = await _program(door, "Ann")  # the hub's own caller, by the protocol
        await ann.send(json.dumps({"type": "offer", "name": "Bob@NOPE", "days": 3}))
        assert "No board 'NOPE' is a member of this hub" in (await next_message(ann, "error"))["message"]
        await ann.send(json.dumps({"type": "offer", "name": "bob@sync", "days": 3}))
        assert (await next_message(ann, "notice"))["text"] == "Your offer is made: bob@sync finds it at their next call."
        bob_account = await door.store.accounts.find("bob@SYNC")
        assert bob_account is not None and bob_account.name == "bob@SYNC"
        longest = "Twenty-letter-alias!@SYNC"  # (longer than a local name may be)
        await ann.send(json.dumps({"type": "offer", "name": longest, "days": 3}))
        assert (await next_message(ann, "notice"))["text"].startswith(f"Your offer is made: {longest}")

        bob, _ = await rlogin(door, SYNC_SECRET, "bob")  # his first call, through his board
        s = bob.screen
        await s.wait_for(lambda: "Main menu" in s.text())
        assert "1 offer of a correspondence game waits for your answer" in _flat(s.text())
        await bob.send(b"k")
        await s.wait_for(lambda: "A  Answer the offers to you (1)" in s.text())
        await bob.send(b"a")
        await s.wait_for(lambda: "Ann offers you a game by correspondence" in _flat(s.text()))
        await bob.send(b"y")
        await _decide(bob, "bob@SYNC")
        await bob.send(b" ")
        await s.wait_for(lambda: "with Ann: their move" in s.text())
        bob.close()
        games = (await _games(ann))["games"]
        assert len(games) == 1 and games[0]["other"] == "bob@SYNC" and games[0]["to_move"] in ("you", "both")
        await ann.close()
