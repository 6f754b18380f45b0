"""Bad input is an error where it enters, never an exception: a card named
twice, a login name or a chat line holding a lone surrogate, a
bidirectional override in chat, a page reason the sysop's console cannot
encode.  Each program gets an ``error`` naming the field and goes on; a
telnet caller at the same table sees nothing of it and goes on too; no
session fails."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from door.play.api_seat import ApiSeat
from door.play.table import Table
from door.server import DoorServer
from tests.loopback.test_bots import ann_challenges_robo, answer, bot_in, play_on
from tests.loopback.test_callers import registered
from tests.loopback.test_protocol import logged_in, next_message
from tests.support.clients import console_client, until
from tests.support.player import Player
from tests.support.server import make_config, running


@pytest.fixture
async def door(tmp_path: Path) -> Any:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


def failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the door logged of a session that failed (or any error)."""
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR or "session failed" in r.getMessage() or r.exc_info]


async def answering_until(ws: ClientConnection, kind: str, timeout: float = 20) -> dict[str, Any]:
    """The next message of ``kind``; every ``ask`` meanwhile is answered
    (so that the game goes on while the test waits)."""
    while True:
        message = await next_message(ws, timeout=timeout)
        if message["type"] == kind:
            return message
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))


async def test_a_card_named_twice_is_an_error_on_cards_and_the_game_goes_on(
        door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    ws = await logged_in(door)
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    ask = await next_message(ws, "ask")
    assert ask["ask"] == "discard"
    card = ask["hand"][0]
    await ws.send(json.dumps({"type": "discard", "cards": [card, card]}))
    error = await next_message(ws, "error")
    assert error["field"] == "cards", error
    await ws.send(json.dumps(answer(ask)))  # the right answer is still taken
    rest = await play_on(ws)
    assert any(m["type"] == "game_over" for m in rest)
    assert failures(caplog) == []
    await ws.close()


async def test_a_login_name_with_a_lone_surrogate_is_refused_by_name(
        door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send('{"type": "login", "name": "Ann\\ud800"}')
    error = await next_message(ws)
    assert error["type"] == "error" and error["field"] == "name", error
    assert "lone surrogate" in error["message"]
    await ws.send('{"type": "login", "name": "Ann", "password": "x\\udfff"}')
    assert (await next_message(ws))["field"] == "password"
    await ws.send(json.dumps({"type": "login", "name": "Ann"}))  # and the session goes on
    assert (await next_message(ws, "welcome"))["name"] == "Ann"
    assert failures(caplog) == []
    await ws.close()


async def _ann_plays_robo(door: DoorServer) -> tuple[ClientConnection, Any, asyncio.Task[str]]:
    """The caller Ann (telnet, UTF-8) challenges the bot Robo; the bot's
    connection, Ann, and her game playing on in a task."""
    _, token = await door.store.bots.make("Robo")
    bot = await bot_in(door, "Robo", token)
    ann = await registered(door.telnet_port, door.store, "Ann")
    await ann_challenges_robo(ann)
    await ann.send(b"1")
    await next_message(bot, "table")
    return bot, ann, asyncio.create_task(Player(ann.screen, ann.send, name="Ann").play(timeout=200))


async def test_hostile_chat_from_a_program_is_refused_and_the_callers_game_goes_on(
        door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    bot, ann, playing = await _ann_plays_robo(door)
    for text in ("Hello\ud800World", "abc\u202edef", "bell\x07", "\x1b[2J"):
        await bot.send(json.dumps({"type": "chat", "text": text}))
        error = await answering_until(bot, "error")
        assert error["field"] == "text", error
    await bot.send(json.dumps({"type": "chat", "text": "good luck"}))
    await ann.screen.wait_for(lambda: "Robo says: good luck" in ann.screen.text(), timeout=20)
    rest = await play_on(bot)
    end = await playing
    assert re.search(r"(You win|Robo wins) \d+ to \d+!", end), end
    assert any(m["type"] == "game_over" for m in rest)
    raw = bytes(ann.screen.raw)
    assert "\u202e".encode() not in raw and b"\x07" not in raw and b"World" not in raw
    assert failures(caplog) == []
    await bot.close()
    ann.close()


async def test_chat_reaching_a_table_is_cleaned_before_a_telnet_screen_sees_it(
        door: DoorServer, caplog: pytest.LogCaptureFixture) -> None:
    """Whatever way a chat line reaches a table (here straight to it), a
    lone surrogate in it reaches the caller's screen as U+FFFD and a
    bidirectional override not at all; the caller's game goes on."""
    bot, ann, playing = await _ann_plays_robo(door)
    [table] = [t for t in door.ctx.lobby.tables if isinstance(t, Table)]
    robo = next(i for i, seat in enumerate(table.seats) if isinstance(seat, ApiSeat))
    # (the hand's own lines first: "Hand 1" on the info row comes before them, and they would page the chat out)
    await ann.screen.wait_for(lambda: "Hand 1:" in ann.screen.text(), timeout=20)
    table.chat(robo, "Hello\ud800World \u202eevil\u2066")
    await ann.screen.wait_for(lambda: "Robo says: Hello\ufffdWorld evil" in ann.screen.text(), timeout=20)
    said = await answering_until(bot, "ask")  # (Robo is not sent its own line)
    await bot.send(json.dumps(answer(said)))
    rest = await play_on(bot)
    end = await playing
    assert re.search(r"(You win|Robo wins) \d+ to \d+!", end), end
    assert any(m["type"] == "game_over" for m in rest)
    raw = bytes(ann.screen.raw)
    assert "\u202e".encode() not in raw and "\u2066".encode() not in raw
    assert failures(caplog) == []
    await bot.close()
    ann.close()


async def test_a_page_reason_with_a_lone_surrogate_leaves_the_console_drawing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A reason the protocol refuses (an ``error`` on ``reason``); and one
    that reaches the lobby by another way is cleaned: the console shows
    the page, counts its seconds down and goes on answering keys."""
    config = make_config(tmp_path / "data", game_to=61)
    config.paging.page_timeout = 30
    async with running(config) as door:
        writer, console, task = await console_client(tmp_path / "data")
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        ws = await logged_in(door, "Pager")
        await ws.send('{"type": "page", "reason": "why\\ud800"}')
        error = await next_message(ws)
        assert error["type"] == "error" and error["field"] == "reason", error
        [presence] = [p for p in door.ctx.lobby.callers() if p.name == "Pager"]
        paging = asyncio.create_task(door.ctx.lobby.page(presence, "Hello\ud800World \u202eevil"))
        await console.wait_for(lambda: "PAGE from Pager" in console.text(), timeout=10)
        assert "Hello\ufffdWorld evil" in console.text()
        first = console.text()
        assert await until(lambda: console.text() != first, timeout=5)  # (the seconds count down: it redraws)
        writer.write(b"n")  # the sysop declines: the console still answers keys
        assert await asyncio.wait_for(paging, 10) is None
        await console.wait_for(lambda: "declined the page of Pager" in console.text(), timeout=10)
        assert failures(caplog) == []
        writer.close()
        task.cancel()
        await ws.close()
