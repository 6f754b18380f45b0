"""No player pays for another's fault, with real connections: a program
whose session fails in a rated match leaves its seat as a dropped line
does (the other program is told at once, the grace runs, and the one
that failed forfeits); a telnet caller who stalls, pressing keys that
make no move, loses a rated match on their decision clock while the
caller who waits for them is never idle-timed out, and both screens show
whose clock runs."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from door.play.api_seat import ApiSeat
from door.records.ranked.glicko2 import Rating, rate_match
from tests.loopback.test_bot_pool import until_listed
from tests.loopback.test_bots import bot_in
from tests.loopback.test_callers import challenge
from tests.loopback.test_matches import caller_from, first_deal, ranked_config
from tests.loopback.test_protocol import answer, next_message
from tests.support.server import running


async def test_a_program_whose_session_fails_in_a_rated_match_leaves_its_seat_and_forfeits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = ranked_config(tmp_path / "data")
    config.ranked.min_age_days = 1.0  # (the bots' pool: the rules against fresh accounts do not apply)
    config.paging.ranked_grace = 1.5
    taken = ApiSeat.take

    def take(seat: ApiSeat, message: dict[str, Any]) -> None:  # a fault of the door's, set off by one message
        if message.get("text") == "boom":
            raise RuntimeError("a message the door could not handle")
        taken(seat, message)

    monkeypatch.setattr(ApiSeat, "take", take)
    async with running(config) as door:
        _, robo_token = await door.store.bots.make("Robo")
        _, bender_token = await door.store.bots.make("Bender")
        robo = await bot_in(door, "Robo", robo_token)
        bender = await bot_in(door, "Bender", bender_token)
        await until_listed(robo, "Bender")
        await robo.send(json.dumps({"type": "challenge", "name": "Bender", "rated": True}))
        await next_message(robo, "table")
        await next_message(bender, "table")
        ask = await next_message(bender, "ask")  # (the first hand is dealt: the match has begun)
        await bender.send(json.dumps(answer(ask)))
        await robo.send(json.dumps({"type": "chat", "text": "boom"}))
        told = await next_message(bender, "notice", timeout=3)  # at once, not when the grace is over
        assert told["text"].startswith("Robo's line dropped. The game waits up to"), told
        said = []
        while not any("wins the match" in t for t in said):
            said.append((await next_message(bender, "notice", timeout=10))["text"])
        assert "Bender wins the match by forfeit (0-0 in games; a rated best-of-3 match)." in said
        expected = rate_match(Rating(), Rating(), True)
        for name, want in (("Bender", expected[0]), ("Robo", expected[1])):
            account = await door.store.accounts.find(name)
            assert account is not None
            rated = await door.store.ratings.of(account.id)
            assert rated is not None and abs(rated.rating.rating - want.rating) < 0.01
        await bender.close()


@pytest.mark.slow
async def test_a_staller_loses_on_the_clock_while_the_player_who_waits_stays_connected(tmp_path: Path) -> None:
    config = ranked_config(tmp_path / "data")
    config.server.idle_timeout = 3.0  # shorter than the clock: waiting on Bob is never idleness
    config.limits.idle_warning = 1.0
    config.ranked.decision_clock = 8.0
    config.ranked.clock_warning = 4.0
    async with running(config) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
        await challenge(ann, "Bob", length=b"R")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await first_deal(ann, bob)
        for key in (b"\r", b"\x1b[C", b"\r", b"\r"):  # Ann lays away two cards, then only waits
            await ann.send(key)
        await ann.screen.wait_for(lambda: "Bob's clock 0:0" in ann.screen.lines()[info_row(ann)])
        assert "Your clock 0:0" in bob.screen.lines()[info_row(bob)]
        stalling = asyncio.create_task(stall(bob))  # keys that make no move, every second: never idle
        await ann.screen.wait_for(lambda: "Rated match" in ann.screen.text() and "any key" in ann.screen.text(),
                                  timeout=20)
        stalling.cancel()
        page = re.sub(r"\s+", " ", ann.screen.text())
        assert "Ann wins the match by forfeit (0-0 in games; a rated best-of-3 match)." in page, page
        assert "Nothing came" not in page and "hangs up" not in page
        await bob.screen.wait_for(lambda: "Your clock ran out" in bob.screen.text() or "Rated match" in
                                  bob.screen.text(), timeout=10)
        ann.close()
        bob.close()


def info_row(caller: Any) -> int:
    """The row of the game screen that names the dealer (and the clock)."""
    return next(i for i, line in enumerate(caller.screen.lines()) if "Dealer:" in line or "Next deal:" in line)


async def stall(caller: Any) -> None:
    while True:
        await caller.send(b"\x1b[C")  # (the bar moves: a key, never a move)
        await asyncio.sleep(1.0)
