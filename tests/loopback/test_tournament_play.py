"""A tournament played by correspondence, end to end: nine registered
players enter, seven programs by the game protocol and two callers over
telnet at the screens (T among their games by correspondence); the
director pairs a qualifying Swiss of three rounds (a bye each round), the
game service seats every pairing as a kept game in both players' lists,
and each player is told: a program by ``your_move``, the caller on line
on their menu, the other caller at login when they call (their first
game waiting on them; they stay on line from then on).  Programs
and callers play their games a sitting at a time (the callers at the
screens, read through pyte), one player never plays their first game and
loses it when the round's deadline passes, and the top half goes on to a
knock-out of best-of-three matches (the rest to a consolation) until a
champion.  Every pairing, bye, result and the final are checked against
the rules the manual states (docs/tournaments.md)."""

from __future__ import annotations

import json
import re
import time
from fractions import Fraction
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from door.caller.tournaments import seat_and_tell
from door.records.passwords import hash_password
from door.records.ranked.tournament import Format, Kind
from door.records.store import Store
from door.records.tournaments.director import Director
from door.records.tournaments.settings import Play, Settings
from door.records.tournaments.values import SWISS, State
from door.server import DoorServer
from engine.rules import Rules
from tests.loopback.test_callers import PASSWORD, registered
from tests.loopback.test_correspondence import _decide, _leave
from tests.loopback.test_protocol import answer, next_message
from tests.support.player import TelnetCaller
from tests.support.server import make_config, running

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
STAYS, CALLS = "Cy", "Gus"
"""The two callers at the screens: one on line at the menu all along, one who calls when their first game
waits on them (told so at login) and stays on line from then on."""

LIST = "Your games by correspondence"
WAITS = re.compile(r"(\d)  #\d+ \(tournament\) with \w+: (your move|both to discard)")
"""A game of the screens' list (K) that waits on the caller, and the key that opens it."""


async def _program(port: int, name: str) -> ClientConnection:
    """``name`` logged in by the game protocol with their password."""
    ws = await connect(f"ws://127.0.0.1:{port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await next_message(ws, "welcome")
    return ws


async def _sittings(ws: ClientConnection) -> int:
    """Play every game by turns that waits on this program, a sitting
    each, until none does; how many sittings."""
    sat = 0
    while True:
        await ws.send(json.dumps({"type": "games"}))
        mine = [g for g in (await next_message(ws, "games"))["games"] if g["to_move"] in ("you", "both")]
        if not mine:
            return sat
        for game in mine:
            await ws.send(json.dumps({"type": "open", "game": game["game"]}))
            while (message := await next_message(ws, timeout=20))["type"] not in ("waiting", "menu", "error"):
                if message["type"] == "ask":
                    await ws.send(json.dumps(answer(message)))
            sat += 1


async def _enter_at_t(caller: TelnetCaller, title: str) -> None:
    """From the main menu: K, T, the first tournament listed, Y; back to the menu."""
    s = caller.screen
    await caller.send(b"k")
    await s.wait_for(lambda: "T  Tournaments" in s.text())
    await caller.send(b"t")
    await s.wait_for(lambda: f"1  {title}: open, " in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Enter it? (Y/N)" in s.text())
    await caller.send(b"y")
    await s.wait_for(lambda: f"You are in {title}: your games come to your list" in s.text())
    await caller.send(b" ")
    await s.wait_for(lambda: LIST in s.text())
    await caller.send(b"\x1b")
    await s.wait_for(lambda: "Main menu" in s.text())


async def _screen_sittings(caller: TelnetCaller, name: str) -> int:
    """From the main menu, K: play every tournament game of the list that
    waits on the caller, a sitting each (at the screens, as
    :class:`~tests.support.player.Player` answers), until none does; back
    to the menu; how many sittings."""
    s = caller.screen
    await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"k")
    await s.wait_for(lambda: LIST in s.text())
    sat = 0
    while (waiting := WAITS.search(s.text())) is not None:
        await caller.send(waiting.group(1).encode())
        await s.wait_for(lambda: LIST not in s.text())
        await _decide(caller, name, LIST)
        if "Your move is kept" in s.text():
            await caller.send(b" ")
        await s.wait_for(lambda: LIST in s.text(), timeout=15)
        sat += 1
    await caller.send(b"\x1b")
    await s.wait_for(lambda: "Main menu" in s.text())
    return sat


async def _waits_on(store: Store, name: str) -> bool:
    """Whether a kept game waits on ``name`` (the store's list, as the login's news reads it)."""
    account = await store.accounts.find(name)
    assert account is not None
    return bool(await store.saved.unfinished(account.id, waiting=True))


async def _callers_play(door: DoorServer, callers: dict[str, TelnetCaller | None]) -> int:
    """Each caller whose game waits on them plays their sittings at the
    screens; one not on line calls first, and is told at login that a
    game waits on them.  How many sittings."""
    sat = 0
    for name, caller in callers.items():
        if not await _waits_on(door.store, name):
            continue
        if caller is None:
            caller = callers[name] = await registered(door.telnet_port, door.store, name)
            said = " ".join(caller.screen.text().split())
            assert re.search(r"Your move in 1 correspondence game; the first is due in \d+ days", said), said
        sat += await _screen_sittings(caller, name)
    return sat


async def test_a_qualifying_swiss_by_correspondence_then_a_knock_out_of_the_top_half(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    async with running(config) as door:
        store = door.store
        for name in NAMES:
            await store.accounts.create(name, hash_password(PASSWORD))
        start = time.time()
        settings = Settings(Format(Kind.QUALIFYING, rounds=3, games=3, qualify=Fraction(1, 2)), rules=Rules(game_to=61),
                            play=Play.CORRESPONDENCE, move_days=3, round_days=14, closes=start + 600)
        await store.tournaments.create("autumn", "Autumn by post", settings)

        programs = {name: await _program(door.web_port, name) for name in NAMES if name not in (STAYS, CALLS)}
        callers: dict[str, TelnetCaller | None] = {
            name: await registered(door.telnet_port, store, name) for name in (STAYS, CALLS)}
        for caller in callers.values():  # the callers enter at T; one hangs up, to call when a game waits on them
            assert caller is not None
            await _enter_at_t(caller, "Autumn by post")
        gone, callers[CALLS] = callers[CALLS], None
        assert gone is not None
        await _leave(gone)
        stays = callers[STAYS]
        assert stays is not None
        for ws in programs.values():  # each program enters by the protocol
            await ws.send(json.dumps({"type": "tournaments"}))
            listed = (await next_message(ws, "tournaments"))["tournaments"]
            assert [t["name"] for t in listed] == ["autumn"] and listed[0]["state"] == "open"
            await ws.send(json.dumps({"type": "enter", "name": "autumn"}))
            said = await next_message(ws)
            assert said == {"type": "notice", "text": "You are in autumn."}, said

        director = Director(store.tournaments, store.leases, "test director")
        now = start + 601  # (entries closed)
        late: str | None = None
        for _ in range(40):
            seatings = await director.advance(now)
            assert seatings is not None
            await seat_and_tell(door.ctx.games, door.ctx.lobby, seatings)
            view = await store.tournaments.view("autumn")
            if view.tournament.state is State.FINISHED:
                break
            if late is None:  # round 1: each player paired is told at once; the first program paired never plays
                paired = [n for p in view.pairings if p.players[1] is not None for n in p.players]
                for name in paired:
                    if name in programs:
                        told = await next_message(programs[name], "your_move")
                        assert told["name"] in paired and told["name"] != name
                if STAYS in paired:  # the caller on line is told on their menu
                    other = next(p.players[1 - p.seat(STAYS)] for p in view.pairings if STAYS in p.players)
                    await stays.screen.wait_for(lambda: re.search(
                        rf"Your move in game #\d+ with {other} \(K on the menu\)\.", stays.screen.text()) is not None)
                late = next(n for n in paired if n in programs)
            while True:  # everyone plays what waits on them, a sitting a move, until nothing waits on anyone
                sat = 0
                for name, ws in programs.items():
                    if not (name == late and all(p.wave == 1 for p in view.pairings)) and await _waits_on(store, name):
                        sat += await _sittings(ws)
                sat += await _callers_play(door, callers)
                if sat == 0:
                    break
            view = await store.tournaments.view("autumn")
            open_ = [p for p in view.pairings if p.winner is None]
            if open_ and all(late in p.players for p in open_):  # only the late player's game is left
                now = max(p.deadline or now for p in open_) + 60  # the round's deadline passes
        else:
            raise AssertionError("the tournament never finished")

        view = await store.tournaments.view("autumn")
        swiss = [p for p in view.pairings if p.stage == SWISS]
        for wave in (1, 2, 3):  # every player plays once a round, or has the round's one bye
            games = [p for p in swiss if p.wave == wave]
            assert sorted(n for p in games for n in p.players if n is not None) == sorted(NAMES)
            byes = [p for p in games if p.players[1] is None]
            assert len(byes) == 1 and byes[0].how == "bye" and byes[0].winner == 0
        pairs = [frozenset(p.players) for p in swiss if p.players[1] is not None]
        assert len(pairs) == len(set(pairs)) == 12  # never the same pair twice
        assert len({p.players[0] for p in swiss if p.players[1] is None}) == 3  # a bye each to three players
        forfeited = next(p for p in swiss if p.wave == 1 and late in p.players)
        assert forfeited.how == "forfeit" and forfeited.players[forfeited.winner or 0] != late
        played = [p for p in swiss if p.how == "played"]
        assert len(played) == 11 and all(max(p.scores) >= 61 for p in played)
        for name in (STAYS, CALLS):  # the callers played theirs at the screens: two or three games each
            assert len([p for p in played if name in p.players]) >= 2

        top = [line.name for line in view.standings[:4]]  # the top half of nine goes on to the knock-out
        bracket = [p for p in view.pairings if p.stage == "bracket"]
        assert {n for p in bracket for n in p.players if n is not None} == set(top)
        assert all(p.how in ("played", "bye") for p in bracket)
        assert all(sorted(p.scores, reverse=True)[0] == 2 for p in bracket if p.how == "played")  # best of three
        finishes = await store.tournaments.finishes(time.gmtime(time.time()).tm_year)
        assert len(finishes) == 9 and sorted(f.place for f in finishes)[0] == 1
        champion = next(f.name for f in finishes if f.place == 1)
        assert champion in top
        for name in NAMES:  # every tournament game is over or dropped: nothing is left in anybody's list
            account = await store.accounts.find(name)
            assert account is not None and await store.saved.unfinished(account.id) == []
        ws = programs["Ann"]  # the protocol's standings say the same as the store
        await ws.send(json.dumps({"type": "standings", "name": "autumn"}))
        shown = await next_message(ws, "standings")
        assert shown["state"] == "finished" and sorted(shown["entrants"]) == sorted(NAMES)
        assert [line["name"] for line in shown["standings"]] == [line.name for line in view.standings]
        assert [(b["label"], b["champion"]) for b in shown["brackets"]][0] == ("bracket", champion)
        assert shown["brackets"][0]["rounds"][-1]["name"] == "Final"
        await ws.send(json.dumps({"type": "standings", "name": "nope"}))
        refused = await next_message(ws, "error")
        assert refused["field"] == "name" and "no tournament called 'nope'" in refused["message"]
        for ws in programs.values():
            await ws.close()
        for caller in callers.values():
            assert caller is not None  # (both played)
            await _leave(caller)
