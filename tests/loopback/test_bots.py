"""Bots by the game protocol: the sysop's ``records bot NAME`` gives a
token (the store keeps its SHA-256 only); a bot logs in with it, waits at
the menu where a telnet caller challenges it, and plays them to the end,
unrated; a bot whose connection drops finds its game against the
computer going on when it logs in again."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from websockets.asyncio.client import ClientConnection, connect

from door.records.cli import run_records
from door.records.store import DATABASE_NAME, Store
from door.server import DoorServer
from tests.loopback.test_callers import registered
from tests.loopback.test_protocol import answer, next_message
from tests.loopback.test_sysop import sysop_login
from tests.support.player import Player
from tests.support.server import make_config, running, with_sysop


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


async def bot_in(door: DoorServer, name: str, token: str) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "token": token}))
    welcome = await next_message(ws, "welcome")
    assert {k: welcome[k] for k in ("type", "name", "guest", "bot")} == {"type": "welcome", "name": name,
                                                                      "guest": False, "bot": True}
    return ws


async def play_on(ws: ClientConnection, moves: int | None = None) -> list[dict[str, Any]]:
    """Answer every ask until the table is done (a game_over and no more
    asks for a while), or ``moves`` answers; returns the messages seen."""
    seen: list[dict[str, Any]] = []
    answered = 0
    ended = False  # (a game_over, and no table nor ask since: what follows comes at once, if at all)
    while moves is None or answered < moves:
        try:
            message = await next_message(ws, timeout=5 if ended else 30)
        except TimeoutError:
            break
        seen.append(message)
        ended = message["type"] == "game_over" or (ended and message["type"] not in ("table", "ask"))
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))
            answered += 1
    return seen


async def ann_challenges_robo(ann: Any) -> None:
    """From the main menu, the caller challenges the bot Robo (shown as a
    bot in the list), runs in any order, to "How long a match?"."""
    s = ann.screen
    await s.wait_for(lambda: "8  Play another caller" in s.text(), timeout=10)
    await ann.send(b"8")
    await s.wait_for(lambda: re.search(r"(\d)  Robo", s.text()) is not None)
    assert re.search(r"\d  Robo \(a bot\)", s.text())  # (shown as a bot)
    await ann.send(re.search(r"(\d)  Robo", s.text()).group(1).encode())  # type: ignore[union-attr]
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await ann.send(b"1")
    await s.wait_for(lambda: "How long a match?" in s.text())


def test_records_bot_gives_a_token_the_store_keeps_hashed(tmp_path: Path) -> None:
    async def make() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        await store.close()
    asyncio.run(make())

    def records_bot(pool: str | None = None) -> str:
        out = io.StringIO()
        args = argparse.Namespace(action="bot", target="Robo", yes=False, pool=pool)
        assert run_records(args, tmp_path / DATABASE_NAME, out) == 0
        return out.getvalue()

    said = records_bot()
    token = re.search(r"^  ([0-9a-f]{64})$", said, re.M)
    assert token and "Robo is a bot, rated in the bots' own pool." in said
    said = records_bot("people")
    assert "Robo is a bot, rated with people." in said
    again = re.search(r"^  ([0-9a-f]{64})$", said, re.M)
    assert again and again.group(1) != token.group(1)

    async def check() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        try:
            assert await store.bots.log_in("robo", token.group(1)) is None  # the old token stopped working
            assert await store.bots.log_in("Robo", again.group(1)) is not None
            kept = await store.database.query(lambda db: db.execute("SELECT token_hash FROM bots").fetchall())
            assert kept == [(hashlib.sha256(again.group(1).encode()).hexdigest(),)]  # never the token itself
        finally:
            await store.close()
    asyncio.run(check())


async def test_a_wrong_token_is_refused_by_name(door: DoorServer) -> None:
    await door.store.bots.make("Robo")
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": "Robo", "token": "0" * 64}))
    assert (await next_message(ws)) == {"type": "error", "field": "token",
                                        "message": "no bot by that name has that token"}
    await ws.close()


async def test_a_telnet_caller_challenges_a_bot_and_they_play_to_the_end(door: DoorServer) -> None:
    _, token = await door.store.bots.make("Robo")
    bot = await bot_in(door, "Robo", token)
    ann = await registered(door.telnet_port, door.store, "Ann")
    s = ann.screen
    await ann_challenges_robo(ann)
    assert "No rated match: Bots are rated in a pool of their own, not with people." in " ".join(s.text().split())
    await ann.send(b"1")
    bot_game = asyncio.create_task(play_on(bot))
    player = Player(ann.screen, ann.send, name="Ann")
    end = await player.play(timeout=200)
    assert re.search(r"(You win|Robo wins) \d+ to \d+!", end), end
    seen = await bot_game
    assert any(m["type"] == "notice" and "Ann challenges you" in m["text"] for m in seen)
    assert any(m["type"] == "game_over" for m in seen)
    games = await door.store.games.recent()
    assert len(games) == 1 and set(games[0].players) == {"Ann", "Robo"}
    await bot.close()
    ann.close()


async def test_a_dropped_bot_finds_its_game_going_on(door: DoorServer) -> None:
    _, token = await door.store.bots.make("Robo")
    bot = await bot_in(door, "Robo", token)
    await bot.send(json.dumps({"type": "play_computer", "game_to": 61}))
    seen = await play_on(bot, moves=3)
    assert sum(m["type"] == "ask" for m in seen) == 3
    await bot.close()  # the line drops mid-game
    await asyncio.sleep(0.5)
    bot = await bot_in(door, "Robo", token)
    notice = await next_message(bot, "notice")
    assert "against the computer goes on" in notice["text"]
    state = await next_message(bot, "state")
    assert state["hand_number"] >= 1 and len(state["hand"]) <= 6
    rest = await play_on(bot)
    assert any(m["type"] == "game_over" for m in rest)
    assert await door.store.saved.load((await door.store.accounts.find("Robo")).id) is None  # type: ignore[union-attr]
    await bot.close()


async def test_a_bot_whose_kept_game_does_not_read_is_told_and_goes_on(door: DoorServer) -> None:
    """A bot's kept game against the computer has a saved move that does
    not read: at its next login it is told the game cannot go on (a
    ``notice``), and its session goes on to the menu (``lobby`` answers)."""
    _, token = await door.store.bots.make("Robo")
    bot = await bot_in(door, "Robo", token)
    await bot.send(json.dumps({"type": "play_computer", "game_to": 61}))
    await play_on(bot, moves=3)
    await bot.close()
    await asyncio.sleep(0.5)

    def spoil(db: Any) -> None:
        saved_id, last = db.execute("SELECT saved_id, MAX(seq) FROM saved_actions").fetchone()
        db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                   (saved_id, last + 1, "no such move"))
    await door.store.saved.database.tx(spoil)
    bot = await bot_in(door, "Robo", token)
    assert "cannot go on: its saved moves do not replay" in (await next_message(bot, "notice"))["text"]
    await bot.send(json.dumps({"type": "lobby"}))
    await next_message(bot, "lobby")
    await bot.close()


async def test_a_bot_whose_line_drops_in_a_game_against_a_caller_goes_back_to_it(door: DoorServer) -> None:
    """The caller's table waits for a bot that dropped, as for any
    registered caller: the bot logs in again, is put back in that game
    (told so, with where it stands), and they play to the end."""
    _, token = await door.store.bots.make("Robo")
    bot = await bot_in(door, "Robo", token)
    ann = await registered(door.telnet_port, door.store, "Ann")
    s = ann.screen
    await ann_challenges_robo(ann)
    await ann.send(b"1")
    player = Player(ann.screen, ann.send, name="Ann")
    playing = asyncio.create_task(player.play(timeout=200))
    await next_message(bot, "table")
    await bot.close()  # the bot's line drops before it has moved
    await s.wait_for(lambda: "Robo's line dropped" in " ".join(s.text().split()), timeout=10)
    bot = await bot_in(door, "Robo", token)
    assert "Your game against Ann goes on." in (await next_message(bot, "notice"))["text"]
    rest = await play_on(bot)
    end = await playing
    assert re.search(r"(You win|Robo wins) \d+ to \d+!", end), end
    assert any(m["type"] == "game_over" for m in rest)
    await bot.close()
    ann.close()


async def test_the_sysop_console_shows_a_bot_as_one(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> None:
    config = with_sysop(make_config(tmp_path / "data", game_to=61), "Sysop", "sysop-secret", sysop_key)
    async with running(config) as door:
        _, token = await door.store.bots.make("Robo")
        bot = await bot_in(door, "Robo", token)
        sysop = await sysop_login(door, sysop_key)
        await sysop.screen.wait_for(lambda: re.search(r"Robo +api .*bot: main menu", sysop.screen.text()) is not None)
        await bot.close()
        sysop.conn.close()


async def test_a_bot_pages_the_sysop_and_they_play_to_the_end(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> None:
    """A program pages the sysop (with its reason, as a caller does from
    the menu); the sysop accepts at the console and plays it, full screen,
    to the end; the bot's game is kept in its records."""
    config = with_sysop(make_config(tmp_path / "data", game_to=61), "Sysop", "sysop-secret", sysop_key)
    async with running(config) as door:
        _, token = await door.store.bots.make("Robo")
        bot = await bot_in(door, "Robo", token)
        sysop = await sysop_login(door, sysop_key)
        await bot.send(json.dumps({"type": "page", "reason": "a game, please", "runs": "order"}))
        assert (await next_message(bot, "notice"))["text"].startswith("Paging the sysop for up to")
        await sysop.screen.wait_for(lambda: "PAGE from Robo" in sysop.screen.text()
                                    and "a game, please" in sysop.screen.text())
        await sysop.send(b"y")
        assert (await next_message(bot, "notice"))["text"] == "Sysop accepted your page."
        bot_game = asyncio.create_task(play_on(bot))
        end = await Player(sysop.screen, sysop.send, name="Sysop").play(timeout=200)
        assert re.search(r"(You win|Robo wins) \d+ to \d+!", end), end
        seen = await bot_game
        assert any(m["type"] == "game_over" for m in seen)
        games = await door.store.games.recent("Robo")
        assert len(games) == 1 and set(games[0].players) == {"Robo", "Sysop"}
        await bot.close()
        sysop.conn.close()
