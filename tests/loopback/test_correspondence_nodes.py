"""Cribbage by correspondence across two nodes of one PostgreSQL store:
a telnet caller on node A and a program by the protocol on node B play a
whole game, first never on line together, each calling in turn with the
store's clock moved on by days; then both on line at once, each move told
to the other at their node as soon as it is made (a program's
``your_move``, a line on a caller's menu).  A second game: the player to
move sets days away, which stop their clock, and the sweeper ends the
game when the deadline they moved passes.  And a tournament's pairing
seated by node A's director is told to its players on line at node B:
programs, a caller in screen-reader mode and one at the full screen."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection

from door.caller.tournaments import seat_and_tell
from door.games.correspondence import candidates, end_game
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.sweeper import LEASE, sweep
from door.records.game_kinds import GameKind
from door.records.names import name_key
from door.records.passwords import hash_password
from door.records.ranked.tournament import Format, Kind
from door.records.store import Store
from door.records.tournaments.director import Director
from door.records.tournaments.settings import Play, Settings
from door.server import DoorServer
from engine.rules import Rules
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _call, _decide, _leave, _sit_by_protocol, _sitting, offer_at_the_screens
from tests.loopback.test_protocol import next_message
from tests.loopback.test_screen_reader import reader, register
from tests.loopback.test_tournament_play import _program
from tests.support.clients import until
from tests.support.fake_clock import FakeClock
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")

HOUR = 3600.0


def _on(door: DoorServer, clock: FakeClock) -> None:
    """Time ``door``'s games, offers, days away and records by ``clock``
    (its nodes' heartbeats and leases keep the real time, which the other
    node's link judges them by)."""
    store = door.store
    assert store is not None
    records = store.correspondence
    for part in (store, store.saved, store.games, store.accounts, records.offers, records.vacations,
                 records.results, door.ctx.lobby):
        part.clock = clock  # type: ignore[union-attr]


@asynccontextmanager
async def _two_nodes(tmp_path: Path, url: str, clock: FakeClock) -> AsyncIterator[tuple[DoorServer, DoorServer]]:
    """Two door servers on the store at ``url``, both on ``clock``, once
    each knows the other is on line."""
    configs = []
    for node in ("a", "b"):
        config = make_config(tmp_path / node)
        config.rules = Rules(game_to=61)
        config.store.url = url
        config.store.peer_secret_file = str(tmp_path / "peer_secret")
        configs.append(config)
    async with running(configs[0]) as node_a, running(configs[1]) as node_b:
        for door in (node_a, node_b):
            _on(door, clock)
        assert await until(lambda: node_a.ctx.lobby.nodes and node_b.ctx.lobby.nodes)
        yield node_a, node_b


async def _seen_at(door: DoorServer, name: str, here: bool = True) -> None:
    """Wait until ``door`` knows ``name`` is on line at another node (or,
    ``here`` False, no longer is)."""
    key = name_key(name)
    assert await until(lambda: any(name_key(p.name) == key for p in door.ctx.lobby.elsewhere) == here), (
        f"{door} never saw {name} {'come' if here else 'go'}")


async def _sit_at(ws: ClientConnection, game: int) -> str:
    """The program opens kept game ``game`` and plays until it waits on
    the other player (``waiting``) or is over (``menu``)."""
    await ws.send(json.dumps({"type": "open", "game": game}))
    return str((await _sit_by_protocol(ws))["type"])


async def _bobs_sitting(node_b: DoorServer) -> None:
    """Bob calls node B by the protocol, plays the one game that waits on
    him, and goes."""
    bob = await _program(node_b.web_port, "Bob")
    await bob.send(json.dumps({"type": "games"}))
    mine = (await next_message(bob, "games"))["games"]
    assert len(mine) == 1 and mine[0]["to_move"] in ("you", "both") and mine[0]["other"] == "Ann"
    assert 0 < mine[0]["seconds_left"] <= DAY
    assert await _sit_at(bob, mine[0]["game"]) == "waiting"
    await bob.close()


async def _offer(node_a: DoorServer) -> None:
    """Ann calls node A and offers Bob a game by correspondence, a day a
    move; Bob is not on line."""
    ann = await _call(node_a, "Ann")
    await offer_at_the_screens(ann, "Bob")
    await ann.send(b"\x1b")
    await _leave(ann)


async def test_a_caller_on_one_node_and_a_program_on_another_play_by_correspondence(
        tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    clock = FakeClock(time.time())
    store = await Store.open(url, clock)
    try:
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        bob_id = (await store.accounts.create("Bob", hash_password(PASSWORD))).id
        async with _two_nodes(tmp_path, url, clock) as (node_a, node_b):
            await _offer(node_a)  # Monday: Ann offers; Bob is not on line
            clock.now += 20 * HOUR  # Bob calls node B by the protocol and takes it; Ann is not on line
            bob = await _program(node_b.web_port, "Bob")
            await bob.send(json.dumps({"type": "games"}))
            offers = (await next_message(bob, "games"))["offers"]
            assert [o["name"] for o in offers] == ["Ann"]
            await bob.send(json.dumps({"type": "answer", "offer": offers[0]["offer"], "accept": True}))
            assert (await _sit_by_protocol(bob))["type"] == "waiting"
            await bob.close()
            kept = [g for g in await store.saved.unfinished(ann_id) if g.kind is GameKind.CORRESPONDENCE]
            assert len(kept) == 1 and kept[0].deadline is not None
            assert kept[0].deadline - clock() == pytest.approx(DAY, abs=60)  # a day from Bob's move, by the store's clock
            game_id = kept[0].id

            for _ in range(2):  # a day a sitting, each on their own node, never on line together
                clock.now += 20 * HOUR
                said = await _sitting(node_a, "Ann")
                assert "Your move in 1 correspondence game; the first is due in 4 hours" in said
                clock.now += 20 * HOUR
                await _bobs_sitting(node_b)

            # both on line: each move reaches the other at their node at once, to the end of the game
            clock.now += 20 * HOUR
            bob = await _program(node_b.web_port, "Bob")
            await _seen_at(node_a, "Bob")
            ann = await _call(node_a, "Ann")
            await _seen_at(node_b, "Ann")
            s, sittings = ann.screen, 0
            while True:
                await ann.send(b"k")
                await s.wait_for(lambda: "Your games by correspondence" in s.text())
                if "with Bob" not in s.text():
                    break  # the game is over
                await ann.send(b"1")
                await s.wait_for(lambda: "Your games by correspondence" not in s.text())
                await _decide(ann, "Ann", "Your games by correspondence")
                if "Your move is kept" not in s.text():
                    break  # (the game ended at Ann's move)
                await ann.send(b" ")
                await s.wait_for(lambda: "Your games by correspondence" in s.text())
                await ann.send(b"\x1b")
                await s.wait_for(lambda: "Main menu" in s.text())
                assert "Your move in game #" not in " ".join(s.text().split())  # (told below, not before)
                told = await next_message(bob, "your_move", timeout=10)  # Ann moved at A: Bob hears of it at B
                assert told == {"type": "your_move", "game": game_id, "name": "Ann"}
                sittings += 1
                if await _sit_at(bob, game_id) == "menu":
                    break  # the game ended at Bob's move
                await s.wait_for(lambda: "Your move in game #" in " ".join(s.text().split())  # ... and Ann at A
                                 and "with Bob (K on the menu)" in " ".join(s.text().split()), timeout=10)
            assert sittings >= 3
            assert await store.saved.load_game(game_id) is None  # played to its end
            recent = await store.games.recent("Ann", 1)
            assert recent and not recent[0].forfeit and max(recent[0].scores) >= 61

            # a second game: Bob offers, Ann takes it at A and moves; Bob, told at B, goes away three days
            await bob.send(json.dumps({"type": "offer", "name": "Ann", "days": 1}))
            assert "Your offer is made" in (await next_message(bob, "notice"))["text"]
            if "Your games by correspondence" in s.text():
                await ann.send(b"\x1b")
            await s.wait_for(lambda: "Main menu" in s.text())
            await ann.send(b"k")
            await s.wait_for(lambda: "A  Answer the offers to you (1)" in s.text())
            await ann.send(b"a")
            await s.wait_for(lambda: "Bob offers you a game by correspondence" in " ".join(s.text().split()))
            await ann.send(b"y")
            await _decide(ann, "Ann")
            await ann.send(b" ")
            await s.wait_for(lambda: "Your games by correspondence" in s.text())
            await ann.send(b"\x1b")
            await _leave(ann)
            second = (await next_message(bob, "your_move", timeout=10))["game"]
            await bob.send(json.dumps({"type": "away", "days": 3}))
            assert (await next_message(bob, "notice"))["text"].startswith("You are away for 3 days")
            await bob.close()
            listed = (await store.saved.unfinished(bob_id))[0]
            assert listed.id == second and listed.deadline is not None

            async def step(now: float):  # type: ignore[no-untyped-def]
                node = await store.leases.holder(LEASE) or "test"  # (the test steps in the sweeping node's name)
                return await sweep(store, node, now, lambda i, loser, how: end_game(node_a.ctx.games, i, loser, how),
                                   lambda at: candidates(node_a.ctx.games, at))
            swept = await step(listed.deadline + 60)  # Bob's days away stop his clock
            assert swept is not None and swept.ended == []
            swept = await step(listed.deadline + 4 * DAY)  # past the deadline they moved: a loss on time
            assert swept is not None and [(i, v.how) for i, v in swept.ended] == [(second, "time")]
            assert await store.saved.load_game(second) is None
            assert await store.correspondence.results.lost_on_time(bob_id) == 1
            assert await store.correspondence.results.lost_on_time(ann_id) == 0
    finally:
        await store.close()


async def test_a_tournament_pairing_seated_at_one_node_is_told_to_its_players_on_line_at_another(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Two programs, a caller in screen-reader mode and a caller at the
    full screen, all on line at node B, are told of their pairings, which
    node A's director seated: ``your_move``, and a line on the menu."""
    url = postgres.new_database()
    clock = FakeClock(time.time())
    store = await Store.open(url, clock)
    try:
        for name in ("Cy", "Dee", "Fay"):
            await store.accounts.create(name, hash_password(PASSWORD))
        settings = Settings(Format(Kind.SWISS, rounds=1), rules=Rules(game_to=61), play=Play.CORRESPONDENCE,
                            move_days=3, round_days=14, closes=clock() + 600)
        await store.tournaments.create("winter", "Winter by post", settings)
        async with _two_nodes(tmp_path, url, clock) as (node_a, node_b):
            programs = {name: await _program(node_b.web_port, name) for name in ("Cy", "Dee")}
            for ws in programs.values():
                await ws.send(json.dumps({"type": "enter", "name": "winter"}))
                assert (await next_message(ws, "notice"))["text"] == "You are in winter."
            eve, pump, writer = await reader(node_b.telnet_port, term="dumb")  # screen-reader mode
            await eve.wait_for("Screen-reader mode is on")
            await register(eve, "Eve", PASSWORD)
            fay = await _call(node_b, "Fay")
            for name in ("Eve", "Fay"):
                await store.tournaments.enter("winter", name)
            for name in ("Cy", "Dee", "Eve", "Fay"):
                await _seen_at(node_a, name)
            director = Director(store.tournaments, store.leases, "node a's director")
            seatings = await director.advance(clock() + 601)  # entries closed: two pairings
            assert seatings is not None and len(seatings) == 2
            await seat_and_tell(node_a.ctx.games, node_a.ctx.lobby, seatings)  # seated at A
            opponent = {s.players[i]: s.players[1 - i] for s in seatings for i in (0, 1)}
            for name, ws in programs.items():  # ... and told at B, where all four are on line
                told = await next_message(ws, "your_move", timeout=10)
                assert told["name"] == opponent[name]
                account = await store.accounts.find(name)
                assert account is not None
                assert [g.id for g in await store.saved.unfinished(account.id)] == [told["game"]]
            await eve.wait_for(re.compile(rf"Your move in game #\d+ with {opponent['Eve']} \(K on the menu\)\."),
                               timeout=10)
            await fay.screen.wait_for(lambda: f"with {opponent['Fay']} (K on the menu)" in " ".join(
                fay.screen.text().split()), timeout=10)
            for ws in programs.values():
                await ws.close()
            fay.close()
            writer.close()
            pump.cancel()
    finally:
        await store.close()


async def test_a_live_tournament_game_opened_at_another_node_is_played_at_the_node_that_seated_it(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """A live round paired and seated at node A, its players on line at
    node B: both are told there; the program that opens its game at B is
    told it is played at another of the door's servers (B builds no second
    table for it), and the caller who opens it at B is taken to node A,
    whose table waits for her and offers her seat at once."""
    url = postgres.new_database()
    clock = FakeClock(time.time())
    store = await Store.open(url, clock)
    try:
        for name in ("Cy", "Fay"):
            await store.accounts.create(name, hash_password(PASSWORD))
        settings = Settings(Format(Kind.SWISS, rounds=1), rules=Rules(game_to=61), play=Play.LIVE, round_hours=1,
                            show_minutes=15, closes=clock() + 600)
        await store.tournaments.create("duel", "The duel", settings)
        async with _two_nodes(tmp_path, url, clock) as (node_a, node_b):
            cy = await _program(node_b.web_port, "Cy")
            fay = await _call(node_b, "Fay")
            for name in ("Cy", "Fay"):
                await store.tournaments.enter("duel", name)
                await _seen_at(node_a, name)
            director = Director(store.tournaments, store.leases, "node a's director")
            seatings = await director.advance(clock() + 601)
            assert seatings is not None and len(seatings) == 1
            await seat_and_tell(node_a.ctx.games, node_a.ctx.lobby, seatings)  # a live table at A
            [table] = [t for t in node_a.ctx.lobby.tables if not t.settings.by_turns]
            game = (await next_message(cy, "your_move", timeout=10))["game"]  # told at B
            await cy.send(json.dumps({"type": "open", "game": game}))
            refused = await next_message(cy, "error", timeout=10)
            assert "played at another of this door's servers" in refused["message"], refused
            assert not [t for t in node_b.ctx.lobby.tables if not t.settings.by_turns]  # (no second table)

            s = fay.screen
            await s.wait_for(lambda: "with Cy (K on the menu)" in " ".join(s.text().split()), timeout=10)
            await fay.send(b"k")
            await s.wait_for(lambda: "Your games by correspondence" in s.text())
            await fay.send(b"1")
            await s.wait_for(lambda: "taking you" in s.text(), timeout=10)
            await fay.send(b" ")
            await s.wait_for(lambda: "Your game against Cy is waiting for you" in s.text(), timeout=10)
            await fay.send(b"y")  # (her session goes on at A, where the table waits for her)
            seat = [p.name for p in table.seats].index("Fay")
            assert await until(lambda: seat not in table.absent), "Fay never sat down at node A's table"
            await cy.close()
            fay.close()
    finally:
        await store.close()
