"""Cribbage by correspondence over telnet: two registered callers who
are never on line at the same time play each other, each calling in turn
(an offer made to a caller who is away, answered at their next call,
then sittings of one player each); the login tells a caller their move
waits; a deadline passes and the sweeper ends the game as a loss on
time, unless the player is on vacation, which stops their clock; the
loser's statistics screen counts it."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from door.games.correspondence import candidates, end_game
from door.records.cli import run_records
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.sweeper import LEASE, sweep
from door.records.game_kinds import GameKind
from door.records.passwords import hash_password
from door.records.ranked.ratings import MatchRecord
from door.records.store import DATABASE_NAME
from door.server import DoorServer
from engine.actions import Claim
from engine.rules import Counting, Rules
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


async def offer_at_the_screens(caller: TelnetCaller, name: str, days: bytes = b"1", counting: bytes = b"1") -> None:
    """At the main menu, ``caller`` offers ``name`` (or ``Anyone``) a game
    by correspondence (K, then N): the ``days`` choice's key, runs in any
    order, one game, not rated, ``counting`` (1: the door counts the hands,
    2: each player their own, with muggins); the screen says it is made,
    and the list shows again."""
    s = caller.screen
    await caller.send(b"k")
    await s.wait_for(lambda: "N  Offer a game by correspondence" in s.text())
    await caller.send(b"n")
    for asked, key in (("Name:", name.encode() + b"\r"), ("How many days for each move?", days),
                       ("How do runs count", b"1"), ("One game, or a match?", b"1"), ("Rated?", b"n"),
                       ("Who counts the hands", counting)):
        await s.wait_for(lambda asked=asked: asked in s.text())
        await caller.send(key)
    made = ("Your offer to anyone is made" if name.lower() == "anyone" else
            f"Your offer is made: {name} finds it at their next call.")
    await s.wait_for(lambda: made in s.text())
    await caller.send(b" ")
    await s.wait_for(lambda: "Your games by correspondence" in s.text())


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
        await offer_at_the_screens(ann, "Bob")  # one day a move, the door counts
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
        matches = await store.database.query(lambda db: db.execute(
            "SELECT best_of, forfeit, account0, account1, leaver FROM matches").fetchall())
        assert len(matches) == 1 and matches[0][:2] == (1, 1)  # the match forfeited, as a live one left
        assert matches[0][2 + matches[0][4]] == mover
        loser = await _call(door, "Ann" if mover == ann_id else "Bob")  # their statistics screen has it (3)
        await loser.send(b"3")
        await loser.screen.wait_for(lambda: "Correspondence games lost on time" in loser.screen.text())
        row = next(line for line in loser.screen.lines() if "lost on time" in line)
        assert row.split()[-1] == "1", row
        forfeits = next(line for line in loser.screen.lines() if "by forfeit" in line)
        assert forfeits.split()[-3:] == ["0", "/", "1"], forfeits
        await loser.send(b" ")
        await _leave(loser)


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


async def _program(door: DoorServer, name: str):  # type: ignore[no-untyped-def]
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await next_message(ws, "welcome")
    return ws


async def test_a_game_by_correspondence_counted_by_hand_with_muggins_by_the_protocol(tmp_path: Path) -> None:
    """Ann offers Bob a game counted by hand; neither is ever on line when
    the other is.  Each claims their own hands at their own sittings (these
    programs claim nothing, so muggins gives every point of a hand to the
    other, who is away); the other finds the count said at their next
    sitting."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        for name in ("Ann", "Bob"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        ann = await _program(door, "Ann")
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "counting": "manual"}))
        assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
        await ann.close()

        bob = await _program(door, "Bob")
        await bob.send(json.dumps({"type": "games"}))
        offer = (await next_message(bob, "games"))["offers"][0]
        assert offer["name"] == "Ann" and offer["counting"] == "manual"
        await bob.send(json.dumps({"type": "answer", "offer": offer["offer"], "accept": True}))
        seen: list[dict[str, Any]] = []
        assert (await _sit_by_protocol(bob, seen))["type"] == "waiting"
        await bob.close()
        game_id = None
        names, turn = ("Ann", "Bob"), 0
        mugged: list[tuple[str, dict[str, Any]]] = []  # (who claimed, the count) for each count with muggins
        for _ in range(40):
            ws = await _program(door, names[turn])
            if game_id is None:
                await ws.send(json.dumps({"type": "games"}))
                game_id = (await next_message(ws, "games"))["games"][0]["game"]
            await ws.send(json.dumps({"type": "open", "game": game_id}))
            seen = []
            end = await _sit_by_protocol(ws, seen)
            await ws.close()
            asks = [m for m in seen if m["type"] == "ask" and m["ask"] == "count"]
            shows = [m for m in seen if m["type"] == "event" and m.get("event") == "show"]
            for show in shows:
                assert show["claim"] is not None  # every count was a player's claim, none the door's
            if asks and any(s["muggins"] > 0 for s in shows):
                mugged.append((names[turn], next(s for s in shows if s["muggins"] > 0)))
            if len(mugged) >= 2 or end["type"] == "menu":
                break
            turn = 1 - turn
        assert len(mugged) >= 2, mugged
        # the player who took muggins was away when it was taken, and is told of the count at their next sitting
        claimer, show = mugged[0]
        other = await _program(door, "Bob" if claimer == "Ann" else "Ann")
        await other.send(json.dumps({"type": "open", "game": game_id}))
        later: list[dict[str, Any]] = []
        await _sit_by_protocol(other, later)
        await other.close()
        assert any(m.get("event") == "show" and m["cards"] == show["cards"] and m["muggins"] == show["muggins"]
                   for m in later)


async def test_a_player_lets_the_computer_peg_a_hand_by_the_protocol(tmp_path: Path) -> None:
    """Ann, by the protocol, hands the pegging of her first hand to the
    computer (``peg_for_me``) when first asked for a card: she is asked for
    no other card of that hand, yet all four are played, at her sittings
    and at Bob's while she is away; Bob's program is told (``computer_pegs``)."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        for name in ("Ann", "Bob"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        ann = await _program(door, "Ann")
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3}))
        await next_message(ann, "notice")
        await ann.close()
        bob = await _program(door, "Bob")
        await bob.send(json.dumps({"type": "games"}))
        offer = (await next_message(bob, "games"))["offers"][0]
        await bob.send(json.dumps({"type": "answer", "offer": offer["offer"], "accept": True}))
        assert (await _sit_by_protocol(bob))["type"] == "waiting"
        game_id = (await door.store.saved.unfinished((await door.store.accounts.find("Bob")).id))[0].id
        await bob.close()

        names, turn, hand = ("Ann", "Bob"), 0, 1
        handed, ann_asked_in_hand_1, bob_told = False, 0, []
        played_by_ann: list[str] = []
        for _ in range(12):
            ws = await _program(door, names[turn])
            await ws.send(json.dumps({"type": "open", "game": game_id}))
            while True:
                message = await next_message(ws, timeout=20)
                if message["type"] == "event" and message["event"] == "deal":
                    hand = message["hand_number"]
                if message["type"] == "event" and message["event"] == "card" and message["seat"] == 0 and hand == 1:
                    played_by_ann.append(message["card"])
                if message["type"] == "event" and message["event"] == "computer_pegs" and turn == 1:
                    bob_told.append(message)
                if message["type"] == "ask":
                    if turn == 0 and message["ask"] == "play" and hand == 1:
                        ann_asked_in_hand_1 += 1
                        if not handed:
                            handed = True
                            await ws.send(json.dumps({"type": "peg_for_me"}))
                            continue
                    await ws.send(json.dumps(answer(message)))
                elif message["type"] in ("waiting", "menu"):
                    break
            await ws.close()
            if hand >= 2 and bob_told:
                break
            turn = 1 - turn
        assert handed and ann_asked_in_hand_1 == 1  # asked once: then the computer pegged the hand for her
        assert bob_told and bob_told[0]["seat"] == 0 and bob_told[0]["hand_number"] == 1
        assert len(set(played_by_ann)) == 4  # all four of her cards of that hand were played


async def test_at_the_screens_a_game_offered_counted_by_hand_is_counted_by_its_players(tmp_path: Path) -> None:
    """Ann offers Bob, at the screens (N), a game where each counts their
    own hands; Bob is told so when he answers (A); at their sittings over
    telnet each types their own counts (the game's log keeps claims)."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        store = door.store
        await store.accounts.create("Ann", hash_password(PASSWORD))
        bob_id = (await store.accounts.create("Bob", hash_password(PASSWORD))).id
        ann = await _call(door, "Ann")
        await offer_at_the_screens(ann, "Bob", counting=b"2")  # each their own, with muggins
        await ann.send(b"\x1b")
        await _leave(ann)
        offers = await store.correspondence.offers.received(bob_id)
        assert len(offers) == 1 and offers[0].terms.manual

        bob = await _call(door, "Bob")
        await bob.send(b"k")
        await bob.screen.wait_for(lambda: "A  Answer the offers to you (1)" in bob.screen.text())
        await bob.send(b"a")
        await bob.screen.wait_for(lambda: "each player counts their own hands, with muggins" in " ".join(
            bob.screen.text().split()))
        await bob.send(b"y")
        await _decide(bob, "Bob")
        await bob.send(b" ")
        await bob.screen.wait_for(lambda: "Your games by correspondence" in bob.screen.text())
        await bob.send(b"\x1b")
        await _leave(bob)

        for name in ["Ann", "Bob"] * 6:
            kept = [g for g in await store.saved.unfinished(bob_id) if g.kind is GameKind.CORRESPONDENCE]
            saved = await store.saved.load_game(kept[0].id)
            assert saved is not None and saved.rules.counting is Counting.MANUAL
            if any(isinstance(a, Claim) for a in saved.actions):
                break
            to_move = kept[0].to_move.value
            if (to_move == "you") == (name == "Ann"):
                continue  # (it waits on the other: their sitting next)
            await _sitting(door, name)
        else:
            raise AssertionError("nobody counted a hand")


async def test_a_best_of_three_by_correspondence_is_played_to_its_end_through_offers(tmp_path: Path) -> None:
    """Ann offers Bob a rated match of the best of three by the protocol;
    Bob accepts; then each calls in turn and plays their sitting, never
    both on line, game after game, until one has won two: one match kept,
    of two or three games, rated in the pool of play by turns (their live
    ratings untouched), and nothing left in either list."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    config.ranked.min_games, config.ranked.min_age_days = 0, 0  # (new accounts, both on 127.0.0.1)
    config.ranked.same_network = True
    async with running(config) as door:
        store = door.store
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        await store.accounts.create("Bob", hash_password(PASSWORD))
        ann = await _program(door, "Ann")
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "best_of": 4}))
        assert (await next_message(ann, "error"))["field"] == "best_of"  # (not 1, 3 or 5)
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "best_of": 3, "rated": True}))
        assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
        await ann.close()

        bob = await _program(door, "Bob")
        await bob.send(json.dumps({"type": "games"}))
        offers = (await next_message(bob, "games"))["offers"]
        assert [(o["name"], o["best_of"], o["rated"]) for o in offers] == [("Ann", 3, True)]
        await bob.send(json.dumps({"type": "answer", "offer": offers[0]["offer"], "accept": True}))
        assert (await _sit_by_protocol(bob))["type"] == "waiting"
        await bob.close()

        numbers, sittings = set(), 0
        while games := [g for g in await store.saved.unfinished(ann_id) if g.kind is GameKind.CORRESPONDENCE]:
            assert len(games) == 1 and sittings < 400
            numbers.add(games[0].number)
            name = "Ann" if games[0].to_move.value in ("you", "both") else "Bob"
            ws = await _program(door, name)
            await ws.send(json.dumps({"type": "games"}))
            listed = (await next_message(ws, "games"))["games"]
            await ws.send(json.dumps({"type": "open", "game": listed[0]["game"]}))
            seen: list[dict[str, Any]] = []
            assert (await _sit_by_protocol(ws, seen))["type"] in ("waiting", "menu"), seen
            await ws.close()
            sittings += 1
        matches = await store.database.query(lambda db: db.execute(
            "SELECT best_of, wins0, wins1, winner, forfeit, rated, by_turns FROM matches").fetchall())
        assert len(matches) == 1, matches
        best_of, wins0, wins1, winner, forfeit, rated, by_turns = matches[0]
        assert best_of == 3 and max(wins0, wins1) == 2 and (wins0, wins1)[winner] == 2 and not forfeit
        assert rated == 1 and by_turns == 1
        rating = await store.ratings.of(ann_id, by_turns=True)
        assert rating is not None and rating.matches == 1 and (rating.rating.rating > 1500) == (winner == 0)
        assert await store.ratings.of(ann_id) is None  # (live play's pool: not moved)
        played = await store.games.recent("Ann", 10)
        assert len(played) == wins0 + wins1 and len(numbers) == len(played) >= 2
        out = io.StringIO()  # the sysop's view: how often each side's decisions matched the expert's
        args = argparse.Namespace(action="ratings", target=None, yes=False, days=30.0)
        assert await asyncio.to_thread(run_records, args, tmp_path / "data" / DATABASE_NAME, out) == 0
        said = out.getvalue()
        assert "(by turns)" in said and "Decisions that matched the expert's" in said, said
        for name in ("Ann", "Bob"):
            line = next(line for line in said.splitlines() if line.startswith(f"  {name} ") and "by turns" in line)
            assert re.fullmatch(rf"  {name} +by turns \d+% of \d+ in {len(played)} games; live -", line), line


async def test_a_rated_offer_that_fair_play_no_longer_allows_is_played_unrated(tmp_path: Path) -> None:
    """Ann offers Bob a rated game; before he answers, the pair plays its
    day's most rated matches: Bob's acceptance is told the game is not
    rated after all and why, and the kept game is unrated."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    config.ranked.min_games, config.ranked.min_age_days = 0, 0
    config.ranked.same_network = True
    async with running(config) as door:
        store = door.store
        ann_id = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        bob_id = (await store.accounts.create("Bob", hash_password(PASSWORD))).id
        ann = await _program(door, "Ann")
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "rated": True}))
        assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
        await ann.close()
        for _ in range(config.ranked.pair_per_day):  # (live rated matches of the pair count as well)
            await store.ratings.record(MatchRecord(("Ann", "Bob"), (ann_id, bob_id), 1, True, (1, 0), 0))
        bob = await _program(door, "Bob")
        await bob.send(json.dumps({"type": "games"}))
        offers = (await next_message(bob, "games"))["offers"]
        assert [o["rated"] for o in offers] == [True]
        await bob.send(json.dumps({"type": "answer", "offer": offers[0]["offer"], "accept": True}))
        told = await next_message(bob, "notice")
        assert told["text"].startswith("This is not rated after all: Ann and Bob have played 3 rated matches"), told
        assert (await _sit_by_protocol(bob))["type"] == "waiting"
        await bob.close()
        kept = [g for g in await store.saved.unfinished(ann_id) if g.kind is GameKind.CORRESPONDENCE]
        saved = await store.saved.load_game(kept[0].id)
        assert saved is not None and saved.rated is False and saved.best_of == 1


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
