"""The sysop console's view of a tournament's round (T), over SSH and
read through pyte: every pairing with its kept game, whose move it is,
its deadline and who is late or near it; the remedies from that view
(E extends the selected pairing's deadline, A adjudicates it to the
player who is not late, R replaces a player by a name typed), each
carried out in the store; a deadline moved meanwhile shown within
seconds; a page ringing meanwhile shown across the view."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from door.caller.tournaments import seat_and_tell
from door.records.passwords import hash_password
from door.records.ranked.tournament import Format, Kind
from door.records.tournaments.settings import DAY, HOUR, Play, Settings
from door.server import DoorServer
from door.sysop.console_rounds import RELOAD
from tests.loopback.test_protocol import answer, next_message
from tests.loopback.test_sysop import SYSOP_PASSWORD, guest, page, sysop_login
from tests.loopback.test_tournament_play import PASSWORD, _program
from tests.support.fake_clock import FakeClock
from tests.support.server import make_config, running, with_sysop

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
DOWN = b"\x1b[B"


@pytest.fixture
async def door(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> AsyncIterator[DoorServer]:
    config = with_sysop(make_config(tmp_path / "data"), "Sysop", SYSOP_PASSWORD, sysop_key)
    async with running(config) as server:
        yield server


async def test_the_console_shows_the_round_who_is_late_and_its_remedies(door: DoorServer,
                                                                        sysop_key: asyncssh.SSHKey) -> None:
    store = door.store
    for name in [*NAMES, "Fay"]:
        await store.accounts.create(name, hash_password(PASSWORD))
    t = store.tournaments
    await t.create("weekly", "Weekly by post", Settings(Format(Kind.SWISS, rounds=2), play=Play.CORRESPONDENCE,
                                                        move_days=1, round_days=2))
    for name in NAMES:
        await t.enter("weekly", name)
    await t.start("weekly")
    await seat_and_tell(door.ctx.games, door.ctx.lobby, await t.step("weekly", time.time()))
    pairings = (await t.view("weekly")).pairings
    first, second = [p for p in pairings if p.players[1] is not None]
    bye = next(p for p in pairings if p.players[1] is None)
    a, b = first.players
    c, d = second.players
    assert b is not None and d is not None and first.deadline is not None

    ws = await _program(door.web_port, a)  # a discards in their game: it waits on b
    await ws.send(json.dumps({"type": "games"}))
    game = (await next_message(ws, "games"))["games"][0]
    await ws.send(json.dumps({"type": "open", "game": game["game"]}))
    while (message := await next_message(ws, timeout=20))["type"] != "waiting":
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))
    await ws.close()

    clock = FakeClock(first.deadline - 2 * HOUR)  # both games within a day of their deadline
    t.clock = clock
    sysop = await sysop_login(door, sysop_key)
    screen = sysop.screen
    assert "T rounds" in screen.text()
    await sysop.send(b"t")
    await screen.wait_for(lambda: "TOURNAMENT ROUNDS" in screen.text())
    text = screen.text()
    assert "Weekly by post (weekly): round 1, 2 open, 0 late, 2 near the deadline" in text, text
    rows = {line.split()[0]: line for line in screen.lines() if line.strip()[:4] in ("1-1 ", "1-2 ", "1-3 ")}
    assert set(rows) == {first.slot, second.slot, bye.slot}, screen.lines()
    assert f"{a:<10} v {b:<10}  #{game['game']:<4} {b:<10} in 2h 00m   near: {b}" in rows[first.slot], rows
    assert f"{first.slot}: {a} v {b}, kept game #{game['game']}, deadline " in text  # (the selected one's line)
    assert rows[second.slot].rstrip().endswith("near: both")  # (neither has sat down: nobody moved)
    assert f"{bye.players[0]:<10} bye" in rows[bye.slot]

    caller = await guest(door, "Hal")  # a page rings meanwhile: shown across the rounds
    await page(caller, b"a game?")
    await screen.wait_for(lambda: "PAGE from Hal" in screen.lines()[1] and "ESC, then Y accepts" in screen.lines()[1])
    caller.close()

    await sysop.send(DOWN)  # the second game: E, a day later
    await sysop.send(b"e")
    await screen.wait_for(lambda: f"weekly: {second.slot}'s deadline is 24 hours later" in screen.text())
    moved = next(p for p in (await t.view("weekly")).pairings if p.id == second.id)
    assert moved.deadline == (second.deadline or 0) + DAY

    clock.now = first.deadline + HOUR  # the first game's deadline passed: b is late
    await screen.wait_for(lambda: f"LATE: {b}" in screen.text())
    assert "1 late, 1 near the deadline" in screen.text()  # (the second is due in 23 hours now)
    await sysop.send(b"\x1b[A")
    await sysop.send(b"a")
    await screen.wait_for(lambda: f"Adjudicate {first.slot} to {a}, {b} forfeiting? (Y/N)" in screen.text())
    await sysop.send(b"y")
    await screen.wait_for(lambda: f"{a} won (adjudicated)" in screen.text())
    decided = next(p for p in (await t.view("weekly")).pairings if p.id == first.id)
    assert decided.how == "adjudicated" and decided.players[decided.winner or 0] == a

    await sysop.send(DOWN)  # the second game: R, Fay takes the place of its first player
    await sysop.send(b"r")
    await screen.wait_for(lambda: f"Replace {c} with: " in screen.text())
    await sysop.send(b"Fay\r")
    await screen.wait_for(lambda: f"Fay takes {c}'s place" in screen.text())
    assert f"Fay        v {d:<10}" in screen.text()
    assert "Fay" in [e.name for e in (await t.view("weekly")).entries]

    await t.extend("weekly", 48, d)  # a deadline moved meanwhile (by the command): the view reads it within seconds
    await screen.wait_for(lambda: "in 2d 23h" in screen.text(), timeout=RELOAD + 5)
    assert "round 1, 1 open, 0 late, 0 near the deadline" in screen.text()

    await sysop.send(b"\x1b")  # ESC: back to the console
    await screen.wait_for(lambda: "TOURNAMENT ROUNDS" not in screen.text() and "T rounds" in screen.text())
    sysop.conn.close()
