"""A guest's game against the computer by the game protocol survives a
dropped line for the rejoin time: the door gives the guest a resume token
at login, keeps the game running while the line is down, and the guest who
logs in again with the token and the same name takes the seat back where
the game stood; another name, or the time run out, finds no game."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.server import DoorServer
from tests.loopback.test_bots import play_on
from tests.loopback.test_protocol import next_message
from tests.loopback.test_protocol_login import opened
from tests.support.server import make_config, running


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data", game_to=61)
    config.paging.rejoin_timeout = 2.0
    async with running(config) as server:
        yield server


async def dropped_mid_game(door: DoorServer, name: str) -> tuple[str, list[str]]:
    """``name`` logs in as a guest, plays three moves against the computer
    and drops; returns the resume token and the hand when it dropped."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": name}))
    welcome = await next_message(ws, "welcome")
    assert welcome["guest"] is True and len(welcome["resume"]) == 32
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    seen = await play_on(ws, moves=3)
    hand = [m for m in seen if m["type"] == "ask"][-1]
    await ws.close()
    for _ in range(50):  # (the door notices the drop)
        if len(door.ctx.parked):
            break
        await asyncio.sleep(0.05)
    return welcome["resume"], hand.get("hand", [])


async def test_a_guest_drops_and_comes_back_with_the_token(door: DoorServer) -> None:
    token, _ = await dropped_mid_game(door, "Gus")
    assert len(door.ctx.parked) == 1
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "gus", "resume": token}))
    welcome = await next_message(ws, "welcome")
    assert welcome["resume"] == token  # (the same token: the game is still theirs)
    assert "against the computer goes on" in (await next_message(ws, "notice"))["text"]
    table = await next_message(ws, "table")
    state = await next_message(ws, "state")
    assert table["players"][table["seat"]] == "Gus" and state["hand_number"] >= 1
    rest = await play_on(ws)
    assert any(m["type"] == "game_over" for m in rest)
    assert len(door.ctx.parked) == 0
    await ws.close()


async def test_another_name_or_too_late_finds_no_game(door: DoorServer) -> None:
    token, _ = await dropped_mid_game(door, "Gus")
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Mallory", "resume": token}))
    welcome = await next_message(ws, "welcome")
    assert welcome["resume"] != token  # another's token gives nothing: a new one
    await ws.send(json.dumps({"type": "lobby"}))
    assert (await next_message(ws))["type"] == "lobby"  # (at the menu, not in Gus's game)
    await ws.close()
    assert len(door.ctx.parked) == 1
    await asyncio.sleep(2.5)  # the rejoin time runs out: the game is given up
    assert len(door.ctx.parked) == 0
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus", "resume": token}))
    welcome = await next_message(ws, "welcome")
    assert welcome["resume"] != token
    await ws.send(json.dumps({"type": "lobby"}))
    assert (await next_message(ws))["type"] == "lobby"
    await ws.close()
