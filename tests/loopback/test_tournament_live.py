"""A tournament played live, end to end: five registered callers enter,
four of them on line by the game protocol; at each round's set time the
director pairs it and the game service seats every pairing at once at a
live table, each player on line called to it (``your_move``); the two
players of a pairing play their game together at once; the fifth player
never comes, and the player paired with them wins by forfeit when the
round's time to come has passed; the results go to the standings and the
next round is paired, until the Swiss is over."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from door.caller.tournaments import seat_and_tell
from door.records.passwords import hash_password
from door.records.ranked.tournament import Format, Kind
from door.records.tournaments.director import Director
from door.records.tournaments.settings import Play, Settings
from door.records.tournaments.values import State
from engine.rules import Counting, Rules
from tests.loopback.test_callers import PASSWORD, registered
from tests.loopback.test_correspondence import _decide, _leave
from tests.loopback.test_protocol import answer, next_message
from tests.support.server import make_config, running

ON_LINE = ["Ann", "Bob", "Cy", "Dee"]
ABSENT = "Eve"
RULES = Rules(game_to=61, counting=Counting.AUTOMATIC)


async def _program(port: int, name: str) -> ClientConnection:
    """``name`` logged in by the game protocol with their password."""
    ws = await connect(f"ws://127.0.0.1:{port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await next_message(ws, "welcome")
    return ws


async def _play_out(ws: ClientConnection, game: int) -> list[dict[str, Any]]:
    """Sit down to the live game ``game`` and play every decision until
    the table is done with the program (``menu``); what it was sent."""
    await ws.send(json.dumps({"type": "open", "game": game}))
    seen = []
    while (message := await next_message(ws, timeout=30))["type"] not in ("menu", "waiting", "error"):
        seen.append(message)
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))
    seen.append(message)
    return seen


async def test_a_live_swiss_seats_each_pairing_at_once_and_a_player_who_never_comes_loses(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    async with running(config) as door:
        store, lobby = door.store, door.ctx.lobby
        for name in [*ON_LINE, ABSENT]:
            await store.accounts.create(name, hash_password(PASSWORD))
        start = time.time()
        settings = Settings(Format(Kind.SWISS, rounds=2), rules=RULES, play=Play.LIVE, round_hours=1,
                            show_minutes=15, closes=start + 600)
        await store.tournaments.create("tonight", "Tonight's Swiss", settings)
        programs = {name: await _program(door.web_port, name) for name in ON_LINE}
        for ws in programs.values():
            await ws.send(json.dumps({"type": "enter", "name": "tonight"}))
            assert await next_message(ws) == {"type": "notice", "text": "You are in tonight."}
        await store.tournaments.enter("tonight", ABSENT)  # (entered by the sysop; never on line)

        director = Director(store.tournaments, store.leases, "test director")
        now = start + 601  # entries closed: round 1's set time
        seatings = await director.advance(now)
        for wave in (1, 2):
            assert seatings is not None and len(seatings) == 2  # five players: two games and a bye
            assert all(s.live and s.show_by == now + 15 * 60 for s in seatings)
            await seat_and_tell(door.ctx.games, lobby, seatings)

            # every pairing is at a live table now, and each player on line is called to it at once
            live = [t for t in lobby.tables if not t.ended.is_set()]
            assert len(live) == 2 and not any(t.settings.by_turns for t in live)
            assert all(t.settings.forfeit_after_grace and t.rejoin_timeout is not None for t in live)
            called = {}
            for s in seatings:
                for name in s.players:
                    if name != ABSENT:
                        told = await next_message(programs[name], "your_move")
                        assert told["name"] == next(n for n in s.players if n != name)
                        called[name] = told["game"]
            view = await store.tournaments.view("tonight")
            assert {p.players for p in view.pairings if p.wave == wave and p.players[1] is not None} \
                == {s.players for s in seatings}

            # the two players of a pairing without Eve sit down and play it out together, at once
            full = [s for s in seatings if ABSENT not in s.players]
            seen = await asyncio.gather(*(_play_out(programs[n], called[n]) for s in full for n in s.players))
            assert all(any(m["type"] == "ask" for m in got) and got[-1]["type"] == "menu" for got in seen)
            view = await store.tournaments.view("tonight")
            for s in full:
                played = next(p for p in view.pairings if p.id == s.pairing)
                assert played.how == "played" and max(played.scores) == 61, played

            # Eve's opponent sits down and waits for her; at the time to come she has not come: a forfeit
            lone = [s for s in seatings if ABSENT in s.players]
            for s in lone:
                ws = programs[next(n for n in s.players if n != ABSENT)]
                await ws.send(json.dumps({"type": "open", "game": called[next(n for n in s.players if n != ABSENT)]}))
                await next_message(ws, "ask")  # (their first decision: the table waits for Eve)
            if lone:
                assert await director.advance(now + 14 * 60) == []  # before the time to come nothing moves
                now += 15 * 60 + 1
            seatings = await director.advance(now)  # Eve's game decided, and the next round paired
            await seat_and_tell(door.ctx.games, lobby, [])  # (the decided game's table ended, its game dropped)
            view = await store.tournaments.view("tonight")
            for s in lone:
                present = next(n for n in s.players if n != ABSENT)
                assert (await next_message(programs[present], "menu", timeout=10))["type"] == "menu"
                forfeit = next(p for p in view.pairings if p.id == s.pairing)
                assert forfeit.how == "forfeit" and forfeit.players[forfeit.winner or 0] == present, forfeit
            winners = [p.players[p.winner] for p in view.pairings if p.wave == wave and p.winner is not None]
            assert len(winners) == 3 and all(line.points >= 2 for line in view.standings if line.name in winners)
            if wave == 1:
                assert seatings and all(s.slot.startswith("2-") for s in seatings)  # the next round is paired
        assert seatings == []
        view = await store.tournaments.view("tonight")
        assert view.tournament.state is State.FINISHED
        forfeits = [p for p in view.pairings if p.how == "forfeit"]
        assert len(forfeits) == 1 and forfeits[0].players[1 - (forfeits[0].winner or 0)] == ABSENT
        assert len([p for p in view.pairings if p.how == "played"]) == 3
        assert all(line.played == 2 for line in view.standings)  # (a bye counts as a game played and won)
        assert next(line for line in view.standings if line.name == ABSENT).won <= 1  # (a bye at most)
        for name in [*ON_LINE, ABSENT]:  # nothing left in anybody's list
            account = await store.accounts.find(name)
            assert account is not None and await store.saved.unfinished(account.id) == []
        for ws in programs.values():
            await ws.close()


async def test_a_caller_at_the_menu_is_called_to_a_live_round_and_plays_it_from_k(tmp_path: Path) -> None:
    """Ann calls by telnet and waits at the menu; Bob is a program.  When
    the round is paired Ann's screen tells her at once; she sits down from
    K and plays Bob live, at once; the result is the tournament's."""
    config = make_config(tmp_path / "data")
    async with running(config) as door:
        store = door.store
        caller = await registered(door.telnet_port, store, "Ann")
        await store.accounts.create("Bob", hash_password(PASSWORD))
        start = time.time()
        settings = Settings(Format(Kind.SWISS, rounds=1), rules=RULES, play=Play.LIVE, round_hours=1, show_minutes=15,
                            closes=start + 600)
        await store.tournaments.create("duel", "The duel", settings)
        for name in ("Ann", "Bob"):
            await store.tournaments.enter("duel", name)
        bob = await _program(door.web_port, "Bob")
        s = caller.screen
        await s.wait_for(lambda: "Main menu" in s.text())

        director = Director(store.tournaments, store.leases, "test director")
        seatings = await director.advance(start + 601)
        assert seatings is not None and len(seatings) == 1
        await seat_and_tell(door.ctx.games, door.ctx.lobby, seatings)
        game = (await next_message(bob, "your_move"))["game"]
        await s.wait_for(lambda: "Your tournament game with Bob is ready" in " ".join(s.text().split()))
        await caller.send(b"k")
        await s.wait_for(lambda: "Your games by correspondence" in s.text())
        await caller.send(b"1")
        await s.wait_for(lambda: "Your games by correspondence" not in s.text())
        await asyncio.gather(_decide(caller, "Ann", "Your games by correspondence"), _play_out(bob, game))
        view = await store.tournaments.view("duel")
        assert view.pairings[0].how == "played" and max(view.pairings[0].scores) == 61
        assert await director.advance(start + 602) == []
        assert (await store.tournaments.view("duel")).tournament.state is State.FINISHED
        await caller.send(b"\x1b")
        await _leave(caller)
        await bob.close()
