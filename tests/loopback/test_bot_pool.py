"""Bots are rated in a pool of their own: two bots play a rated best of 3
by the game protocol (one challenges the other, which accepts by
itself), their ratings move by Glicko-2 and are ranked apart from
people's; a bot and a person never play rated unless the sysop puts the
bot in people's pool, and then fair play judges them as two people."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from websockets.asyncio.client import ClientConnection

from door.play.api_messages import SERVER_SCHEMAS
from door.records.cli import run_records
from door.records.ranked.glicko2 import Rating, rate_match
from door.records.store import DATABASE_NAME
from tests.loopback.test_bots import bot_in, play_on
from tests.loopback.test_matches import ranked_config
from tests.loopback.test_protocol import logged_in, next_message
from tests.loopback.test_screen_reader import as_guest, play_a_game, reader
from tests.support.server import make_config, running


async def until_listed(ws: ClientConnection, name: str) -> dict[str, Any]:
    """Ask the lobby until it lists ``name`` (a bot or a caller gets to the
    menu a moment after its welcome); returns its entry."""
    for _ in range(100):
        await ws.send(json.dumps({"type": "lobby"}))
        entry = next((p for p in (await next_message(ws, "lobby"))["players"] if p["name"] == name), None)
        if entry is not None:
            return entry
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} never came to the menu")


@pytest.mark.slow
async def test_two_bots_play_a_rated_match_in_their_own_pool(tmp_path: Path) -> None:
    config = ranked_config(tmp_path / "data")
    config.ranked.min_age_days = 1.0  # people's rule: the bots are minutes old, and on one machine's network
    async with running(config) as door:
        _, robo_token = await door.store.bots.make("Robo")
        _, bender_token = await door.store.bots.make("Bender")
        robo = await bot_in(door, "Robo", robo_token)
        bender = await bot_in(door, "Bender", bender_token)
        waiting = asyncio.create_task(play_on(bender))  # (it waits at the menu and accepts by itself)
        assert await until_listed(robo, "Bender") == {"name": "Bender", "bot": True, "guest": False}
        await robo.send(json.dumps({"type": "challenge", "name": "Bender", "rated": True}))
        table = await next_message(robo, "table")
        assert table["best_of"] == 3 and table["rated"] is True and set(table["players"]) == {"Robo", "Bender"}
        robo_seen = [table, *await play_on(robo)]
        bender_seen = await waiting
        games = await door.store.games.recent(oldest_first=True)
        assert 2 <= len(games) <= 3 and all(set(g.players) == {"Robo", "Bender"} for g in games)
        overs = [m for m in robo_seen if m["type"] == "game_over"]
        assert len(overs) == len(games) and max(overs[-1]["wins"]) == 2
        first = games[0].players[0]
        won = [sum(g.winner == seat for g in games) for seat in (0, 1)]
        expected = dict(zip((first, "Bender" if first == "Robo" else "Robo"), rate_match(Rating(), Rating(),
                                                                                       won[0] == 2)))
        for name, want in expected.items():
            account = await door.store.accounts.find(name)
            assert account is not None
            got = await door.store.ratings.of(account.id)
            assert got is not None and got.matches == 1
            assert abs(got.rating.rating - want.rating) < 0.01
        assert {p.name for p in await door.store.ratings.top(pool="bots")} == {"Robo", "Bender"}
        assert await door.store.ratings.top() == []  # people's ranking: no bot in it
        for message in (*robo_seen, *bender_seen):  # a match's messages keep to the published schemas
            Draft202012Validator(SERVER_SCHEMAS[message["type"]]).validate(message)
        await robo.send(json.dumps({"type": "ratings"}))
        ratings = await next_message(robo, "ratings")
        assert ratings["people"] == [] and {p["name"] for p in ratings["bots"]} == {"Robo", "Bender"}
        assert all(p["matches"] == 1 and p["provisional"] for p in ratings["bots"])
        Draft202012Validator(SERVER_SCHEMAS["ratings"]).validate(ratings)
        out = io.StringIO()
        args = argparse.Namespace(action="ratings", target=None, yes=False, days=30.0)
        assert await asyncio.to_thread(run_records, args, Path(config.server.data_dir) / DATABASE_NAME, out) == 0
        assert re.search(r"Bots' ratings \(a pool of their own\):\n  (Robo|Bender) +1[5-6]\d\d RD", out.getvalue())
        assert re.search(r"program +match \d+: Robo played by the game protocol", out.getvalue())  # (how each played)
        for seen in (robo_seen, bender_seen):
            said = " ".join(m["text"] for m in seen if m["type"] == "notice")
            assert re.search(r"(Robo|Bender) wins the match 2-[01] \(a rated best-of-3 match\)\.", said), said
            assert "Robo's rating: 1500 -> " in said
        await robo.close()
        await bender.close()


async def test_a_bot_and_a_person_play_unrated_unless_the_sysop_pools_them(tmp_path: Path) -> None:
    config = ranked_config(tmp_path / "data")
    async with running(config) as door:
        _, token = await door.store.bots.make("Robo")
        _, other = await door.store.bots.make("Hal", pool="unrated")
        robo = await bot_in(door, "Robo", token)
        hal = await bot_in(door, "Hal", other)
        await until_listed(robo, "Hal")
        await robo.send(json.dumps({"type": "challenge", "name": "Hal", "rated": True}))
        error = await next_message(robo, "error")
        assert error == {"type": "error", "field": "rated",
                         "message": "No rated match: Hal is a bot that the sysop keeps out of rated play."}
        await robo.send(json.dumps({"type": "challenge", "name": "Hal", "rated": True, "best_of": 5}))
        assert (await next_message(robo, "error"))["field"] == "best_of"
        await robo.send(json.dumps({"type": "challenge", "name": "Nobody"}))
        assert (await next_message(robo, "error"))["field"] == "name"
        account = await door.store.accounts.find("Robo")
        assert account is not None
        assert await door.store.bots.pool_of(account.id) == "bots"
        await door.store.bots.make("Robo", pool="people")  # (a new token; the pool kept by later renewals)
        assert await door.store.bots.pool_of(account.id) == "people"
        await door.store.bots.make("Robo")
        assert await door.store.bots.pool_of(account.id) == "people"
        with pytest.raises(ValueError):
            await door.store.bots.make("Robo", pool="martians")
        await robo.close()
        await hal.close()


async def test_a_bot_challenges_a_blind_caller_and_they_play_to_the_end(tmp_path: Path) -> None:
    """A protocol client and a screen-reader caller at one table: the bot
    finds the caller in the lobby and challenges them, the caller hears
    the challenge and accepts with Y, and both play the game out, each in
    its own presentation (the caller hears only plain lines)."""
    config = make_config(tmp_path / "data", game_to=61)
    async with running(config) as door:
        _, token = await door.store.bots.make("Robo")
        robo = await bot_in(door, "Robo", token)
        lee, pump, writer = await reader(door.telnet_port, term="dumb")
        await as_guest(lee, "Lee")
        assert await until_listed(robo, "Lee") == {"name": "Lee", "bot": False, "guest": True}
        await robo.send(json.dumps({"type": "challenge", "name": "Lee", "runs": "order"}))
        await lee.wait_for(re.compile(r"Robo challenges you to a 61-point game, runs in exact order\.\r\n"
                                      r"\d+ seconds to answer\. Press Y to accept or N to decline\."))
        lee.send("y")
        bot_game = asyncio.create_task(play_on(robo))
        await play_a_game(lee)
        seen = await bot_game
        table = next(m for m in seen if m["type"] == "table")
        over = next(m for m in seen if m["type"] == "game_over")
        winner = "Robo" if over["winner"] == table["seat"] else "You"
        assert re.search(rf"{winner} wins?, \d+ to \d+\.", lee.text()), lee.text()[-600:]
        assert lee.noise() == dict.fromkeys(lee.noise(), 0)  # plain lines from first to last
        games = await door.store.games.recent()
        assert len(games) == 1 and set(games[0].players) == {"Lee", "Robo"}
        await robo.close()
        writer.close()  # type: ignore[attr-defined]
        pump.cancel()


async def test_a_program_that_waits_to_be_challenged_answers_by_itself(tmp_path: Path) -> None:
    """A program other than a bot is listed to be challenged only when it
    says so (available), is shown the offer (challenged), and answers it:
    a decline is told to the challenger, who may not ask again at once."""
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        gus, ida = await logged_in(door, "Gus"), await logged_in(door, "Ida")
        await ida.send(json.dumps({"type": "lobby"}))
        assert (await next_message(ida, "lobby"))["players"] == []  # (not listed until it says so)
        await gus.send(json.dumps({"type": "available", "on": True}))
        assert "may challenge you" in (await next_message(gus, "notice"))["text"]
        assert await until_listed(ida, "Gus") == {"name": "Gus", "bot": False, "guest": True}
        await ida.send(json.dumps({"type": "challenge", "name": "Gus", "best_of": 3}))
        offer = await next_message(gus, "challenged")
        assert offer["name"] == "Ida" and offer["offer"] == "a best-of-3 match of 61-point games, runs in any order"
        await gus.send(json.dumps({"type": "play_computer"}))  # (not an answer)
        assert (await next_message(gus, "error"))["message"] == "Ida challenges you: accept or decline"
        await gus.send(json.dumps({"type": "decline"}))
        assert (await next_message(ida, "notice"))["text"].startswith("You challenged Gus")
        assert (await next_message(ida, "notice"))["text"] == "Gus declined."
        await ida.send(json.dumps({"type": "challenge", "name": "Gus"}))
        assert (await next_message(ida, "error"))["field"] == "name"  # (a no holds for a while)
        Draft202012Validator(SERVER_SCHEMAS["challenged"]).validate(offer)
        await gus.close()
        await ida.close()


async def test_a_page_nobody_answers_says_so(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data", game_to=61)
    config.paging.page_timeout = 1.0
    async with running(config) as door:
        gus = await logged_in(door, "Gus")
        await gus.send(json.dumps({"type": "page"}))
        assert (await next_message(gus, "notice"))["text"] == "Paging the sysop for up to 1 seconds."
        await gus.send(json.dumps({"type": "lobby"}))  # (busy paging: an error, and the page goes on)
        assert (await next_message(gus, "error"))["message"] == "paging the sysop: only leave stops it"
        assert (await next_message(gus, "notice"))["text"] == "The sysop is not available right now."
        await gus.send(json.dumps({"type": "lobby"}))  # (back at the menu)
        assert (await next_message(gus))["type"] == "lobby"
        await gus.close()
