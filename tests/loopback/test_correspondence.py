"""Cribbage by correspondence over telnet: two registered callers who
are never on line at the same time play each other, each calling in turn
(an offer made to a caller who is away, answered at their next call,
then sittings of one player each); the login tells a caller their move
waits; a deadline passes and the sweeper ends the game as a loss on
time, unless the player is on vacation, which stops their clock."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from door.games.correspondence import candidates, end_game
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.sweeper import LEASE, sweep
from door.records.game_kinds import GameKind
from door.records.passwords import hash_password
from door.server import DoorServer
from engine.rules import Rules
from tests.loopback.test_bots import bot_in
from tests.loopback.test_callers import PASSWORD, registered
from tests.loopback.test_protocol import answer, next_message
from tests.support.player import Player, TelnetCaller
from tests.support.server import make_config, running


async def _call(door: DoorServer, name: str) -> TelnetCaller:
    """``name`` calls and is at the main menu (what waits for them said there)."""
    return await registered(door.telnet_port, door.store, name)


async def _leave(caller: TelnetCaller) -> None:
    s = caller.screen
    await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"q")
    caller.close()


async def _decide(caller: TelnetCaller, name: str, back: str = "") -> None:
    """Answer the table's prompts (as :class:`~tests.support.player.Player`
    does) until the game waits on the other player ("Your move is kept"),
    or the list ``back`` shows again (the game over)."""
    s = caller.screen
    player = Player(s, caller.send, name=name)
    deadline = time.monotonic() + 60
    last, acted_at = "", 0.0
    while time.monotonic() < deadline:
        text = s.text()
        if "Your move is kept" in text or (back and back in text):
            return
        if "Since your last move" in text:
            await caller.send(b" ")
            await s.wait_for(lambda: "Since your last move" not in s.text())
            continue
        if (text != last or time.monotonic() - acted_at > 1.5) and await player.act(s.prompt(), text):
            last, acted_at = text, time.monotonic()
        s.changed.clear()
        try:
            await asyncio.wait_for(s.changed.wait(), 0.3)
        except TimeoutError:
            pass
    raise AssertionError(f"{name}'s sitting did not end; screen:\n{s.text()}")


async def _sitting(door: DoorServer, name: str) -> str:
    """``name`` calls, opens their one correspondence game (K, 1), plays
    their decisions until the game waits on the other player or is over,
    and leaves; what the menu said when they called."""
    caller = await _call(door, name)
    s = caller.screen
    menu = " ".join(s.text().split())
    await caller.send(b"k")
    await s.wait_for(lambda: "Your games by correspondence" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Your games by correspondence" not in s.text())
    await _decide(caller, name, "Your games by correspondence")
    if "Your move is kept" in s.text():
        await caller.send(b" ")
    await s.wait_for(lambda: "Your games by correspondence" in s.text(), timeout=15)
    await caller.send(b"\x1b")
    await _leave(caller)
    return menu


async def test_two_callers_never_on_line_together_play_by_correspondence(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        store = door.store
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        bob_id = (await store.accounts.create("Bob", hash_password(PASSWORD))).id

        ann = await _call(door, "Ann")  # Ann offers Bob a game; Bob is not on line
        await ann.send(b"k")
        await ann.screen.wait_for(lambda: "N  Offer a game by correspondence" in ann.screen.text())
        await ann.send(b"n")
        await ann.screen.wait_for(lambda: "Name:" in ann.screen.text())
        await ann.send(b"Bob\r")
        await ann.screen.wait_for(lambda: "How many days for each move?" in ann.screen.text())
        await ann.send(b"1")  # one day a move
        await ann.screen.wait_for(lambda: "How do runs count" in ann.screen.text())
        await ann.send(b"1")
        await ann.screen.wait_for(lambda: "Your offer is made: Bob finds it at their next call." in ann.screen.text())
        await ann.send(b" ")
        await ann.screen.wait_for(lambda: "Your games by correspondence" in ann.screen.text())
        await ann.send(b"\x1b")
        await _leave(ann)

        bob = await _call(door, "Bob")  # Bob calls later: the offer waits for him
        assert "1 offer of a correspondence game waits for your answer" in " ".join(bob.screen.text().split())
        await bob.send(b"k")
        await bob.screen.wait_for(lambda: "A  Answer the offers to you (1)" in bob.screen.text())
        await bob.send(b"a")
        await bob.screen.wait_for(lambda: "Ann offers you a game by correspondence: 1 day a move" in " ".join(
            bob.screen.text().split()))
        await bob.send(b"y")
        await _decide(bob, "Bob")  # the deal, and Bob's discard
        await bob.send(b" ")
        await bob.screen.wait_for(lambda: "Your games by correspondence" in bob.screen.text())
        assert "#" in bob.screen.text() and "with Ann: their move" in bob.screen.text()
        await bob.send(b"\x1b")
        await _leave(bob)

        kept = [g for g in await store.saved.unfinished(ann_id) if g.kind is GameKind.CORRESPONDENCE]
        assert len(kept) == 1 and kept[0].deadline is not None
        assert 0.9 * DAY < kept[0].deadline - time.time() <= DAY  # one day a move
        actions = len((await store.saved.load_game(kept[0].id)).actions)  # type: ignore[union-attr]

        said = await _sitting(door, "Ann")  # then each in turn, never on line together
        assert "Your move in 1 correspondence game; the first is due in" in said
        for name in ("Bob", "Ann", "Bob"):
            await _sitting(door, name)
        game = await store.saved.load_game(kept[0].id)
        assert game is not None and len(game.actions) > actions + 3  # the game moved on at every sitting

        # the player to move goes away for three days: the sweeper leaves the game past its deadline
        listed = (await store.saved.unfinished(ann_id))[0]
        mover = ann_id if listed.to_move.value == "you" else bob_id
        due = listed.deadline
        assert due is not None
        away = await _call(door, "Ann" if mover == ann_id else "Bob")  # V in the games by correspondence
        await away.send(b"k")
        await away.screen.wait_for(lambda: "V  Days away" in away.screen.text())
        await away.send(b"v")
        await away.screen.wait_for(lambda: "Days:" in away.screen.text())
        await away.send(b"3\r")
        await away.screen.wait_for(lambda: "You are away for 3 days: your clocks stop until then." in " ".join(
            away.screen.text().split()))
        await away.send(b" ")
        await away.screen.wait_for(lambda: "Your games by correspondence" in away.screen.text())
        await away.send(b"\x1b")
        await _leave(away)
        house = door.ctx.games

        node = await store.leases.holder(LEASE) or "test"  # (this node sweeps: the test steps in its name)

        async def step(now: float):  # type: ignore[no-untyped-def]
            return await sweep(store, node, now, lambda i, loser, how: end_game(house, i, loser, how),
                               lambda at: candidates(house, at))
        swept = await step(due + 60)
        assert swept is not None and swept.ended == []
        swept = await step(due + 4 * DAY)  # past the deadline that the days away moved: a loss on time
        assert swept is not None and [(i, v.how) for i, v in swept.ended] == [(kept[0].id, "time")]
        assert await store.saved.load_game(kept[0].id) is None
        assert await store.correspondence.results.lost_on_time(mover) == 1
        recent = await store.games.recent("Ann", 1)
        assert recent and recent[0].forfeit and recent[0].players[recent[0].winner] != (
            "Ann" if mover == ann_id else "Bob")


async def _sit_by_protocol(ws, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Answer every ask until the table says the game waits on the other
    player (``waiting``, returned) or it is over (``menu``)."""
    while True:
        message = await next_message(ws, timeout=20)
        if seen is not None:
            seen.append(message)
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))
        elif message["type"] in ("waiting", "menu"):
            return message


async def test_a_bot_plays_five_games_by_correspondence_on_one_connection(tmp_path: Path) -> None:
    """Five callers each offer Robo (a bot) a game by correspondence; Robo,
    on one connection, answers the five offers and plays its first
    decisions in each; each caller then calls in by the protocol and
    moves, and Robo, still on line, is told ``your_move`` for each game
    and plays it: five games at once, one sitting at a time."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        store = door.store
        _, token = await store.bots.make("Robo")
        people = [f"Player{i}" for i in range(1, 6)]
        for name in people:
            await store.accounts.create(name, hash_password(PASSWORD))
        robo = await bot_in(door, "Robo", token)
        for name in people:
            ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
            await next_message(ws, "hello")
            await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
            await next_message(ws, "welcome")
            await ws.send(json.dumps({"type": "offer", "name": "Robo", "days": 3}))
            assert "Your offer is made" in (await next_message(ws, "notice"))["text"]
            await ws.close()

        await robo.send(json.dumps({"type": "games"}))
        listed = await next_message(robo, "games")
        assert sorted(o["name"] for o in listed["offers"]) == people and listed["games"] == []
        for offer in listed["offers"]:
            await robo.send(json.dumps({"type": "answer", "offer": offer["offer"], "accept": True}))
            seen: list[dict[str, Any]] = []
            assert (await _sit_by_protocol(robo, seen))["type"] == "waiting", seen
        await robo.send(json.dumps({"type": "games"}))
        games = (await next_message(robo, "games"))["games"]
        assert len(games) == 5 and {g["to_move"] for g in games} == {"them"}
        assert all(0 < g["seconds_left"] <= 3 * 86400 for g in games)

        for name in people:  # each caller moves in turn; Robo hears of it at once
            ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
            await next_message(ws, "hello")
            await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
            await next_message(ws, "welcome")
            await ws.send(json.dumps({"type": "games"}))
            mine = (await next_message(ws, "games"))["games"]
            assert len(mine) == 1 and mine[0]["to_move"] in ("you", "both") and mine[0]["other"] == "Robo"
            await ws.send(json.dumps({"type": "open", "game": mine[0]["game"]}))
            assert (await _sit_by_protocol(ws))["type"] == "waiting"
            await ws.close()
        told = [await next_message(robo, "your_move") for _ in people]
        assert sorted(m["name"] for m in told) == people
        for move in told:  # Robo plays each game where it stands
            await robo.send(json.dumps({"type": "open", "game": move["game"]}))
            assert (await _sit_by_protocol(robo))["type"] == "waiting"
        await robo.send(json.dumps({"type": "games"}))
        games = (await next_message(robo, "games"))["games"]
        assert len(games) == 5 and {g["to_move"] for g in games} == {"them"}
        await robo.send(json.dumps({"type": "away", "days": 2}))
        assert (await next_message(robo, "notice"))["text"].startswith("You are away for 2 days")
        await robo.send(json.dumps({"type": "away", "days": 1}))  # (while away already)
        refused = await next_message(robo, "error")
        assert refused == {"type": "error", "field": "days", "message": "That overlaps a vacation you already set."}
        await robo.close()


async def test_a_game_whose_log_does_not_read_is_an_error_and_the_program_goes_on(tmp_path: Path) -> None:
    """Robo's game by correspondence has a saved move that does not read
    (no such notation): ``open`` answers an ``error`` on ``game``, and the
    session goes on (``games`` still answers)."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        store = door.store
        _, token = await store.bots.make("Robo")
        await store.accounts.create("Ann", hash_password(PASSWORD))
        ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
        await next_message(ws, "hello")
        await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
        await next_message(ws, "welcome")
        await ws.send(json.dumps({"type": "offer", "name": "Robo", "days": 3}))
        await next_message(ws, "notice")
        await ws.close()
        robo = await bot_in(door, "Robo", token)
        await robo.send(json.dumps({"type": "games"}))
        offer = (await next_message(robo, "games"))["offers"][0]
        await robo.send(json.dumps({"type": "answer", "offer": offer["offer"], "accept": True}))
        assert (await _sit_by_protocol(robo))["type"] == "waiting"
        await robo.send(json.dumps({"type": "games"}))
        game = (await next_message(robo, "games"))["games"][0]["game"]

        def spoil(db: Any) -> None:
            last = db.execute("SELECT MAX(seq) FROM saved_actions WHERE saved_id = ?", (game,)).fetchone()[0]
            db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       (game, last + 1, "no such move"))
        await store.saved.database.tx(spoil)

        await robo.send(json.dumps({"type": "open", "game": game}))
        refused = await next_message(robo, "error")
        assert refused["field"] == "game" and "do not replay" in refused["message"]
        await robo.send(json.dumps({"type": "games"}))
        assert [g["game"] for g in (await next_message(robo, "games"))["games"]] == [game]
        await robo.close()
