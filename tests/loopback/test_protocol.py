"""The game protocol (``/api/v1/play``, docs/protocol.md) with real
WebSocket clients: the example bot plays a whole game and exits 0; every
message of a recorded game validates against the published schemas; the
computer's hand never crosses before it is played or shown; malformed
messages each get an error naming the field, and the session goes on."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from websockets.asyncio.client import ClientConnection, connect

from door.play.api_messages import SERVER_SCHEMAS
from door.server import DoorServer
from engine.shuffle import game_number
from tests.support.server import make_config, running

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


async def next_message(ws: ClientConnection, kind: str | None = None, timeout: float = 20) -> dict[str, Any]:
    """The next message (of ``kind``, skipping others)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if kind is None or message["type"] == kind:
            return message


def answer(ask: dict[str, Any]) -> dict[str, Any]:
    """A legal answer to ``ask``: the first two cards, the first playable card, a claim of nothing."""
    if ask["ask"] == "discard":
        return {"type": "discard", "cards": ask["hand"][:2]}
    if ask["ask"] == "play":
        return {"type": "play", "card": ask["playable"][0]}
    return {"type": "claim", "points": 0}


async def logged_in(door: DoorServer, name: str = "Tester") -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    assert (await next_message(ws))["type"] == "hello"
    await ws.send(json.dumps({"type": "login", "name": name}))
    assert (await next_message(ws, "welcome"))["name"] == name
    return ws


async def test_the_example_bot_plays_a_whole_game_and_exits_0(door: DoorServer) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "examples" / "bot.py"), f"http://127.0.0.1:{door.web_port}/", "--game-to", "61",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert lines[0].startswith("playing Robo and Computer")
    assert lines[-1].split()[0] in ("won", "lost") and "61" in lines[-1]
    assert b"the door says" not in err  # it never sent a move out of turn


async def test_the_example_bot_sets_its_seed_and_verifies_the_shuffle(door: DoorServer) -> None:
    """A program is told the door's commitment before it may set its seed,
    sets it, and checks every hand it was dealt and every starter against
    the seed ``game_over`` reveals (examples/check_shuffle.py, the
    algorithm of docs/shuffle.md)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "examples" / "bot.py"), f"http://127.0.0.1:{door.web_port}/", "--game-to", "61",
        "--seed", "my lucky words", "--verify", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, (out + err).decode()
    lines = out.decode().splitlines()
    assert lines[0].startswith("the door's next seed commits to ")
    assert "the shuffle verifies: every hand dealt as the seeds say" in lines


async def test_game_over_reveals_a_seed_that_verifies_and_chains_to_the_next_commitment(door: DoorServer) -> None:
    """``welcome`` commits to the first game's seed; ``seed`` sets the
    program's own (64 hex digits of SHA-256 of the words); ``table`` names
    the commitment and both player seeds before the cut; ``game_over``
    reveals the door's seed, whose SHA-256 is the commitment, whose number
    is the game's, and which is itself the next game's commitment."""
    ws = await logged_in(door)
    await ws.send(json.dumps({"type": "seed", "seed": "Ann's words"}))
    told = await next_message(ws, "seed")
    assert told["seed"] == hashlib.sha256(b"Ann's words").hexdigest()
    committed = told["commitment"]
    for _ in range(2):
        await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
        table = await next_message(ws, "table")
        assert table["shuffle"]["commitment"] == committed
        assert table["shuffle"]["player_seeds"][0] == told["seed"]
        while (message := await next_message(ws))["type"] != "game_over":
            if message["type"] == "ask":
                await ws.send(json.dumps(answer(message)))
        revealed = message["shuffle"]
        seed = revealed["seed"]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed
        assert game_number(seed) == table["game"] == revealed["game"]
        await next_message(ws, "menu")
        committed = seed  # (the chain: this game's seed is the next game's commitment)
    await ws.close()


async def test_a_recorded_game_validates_and_hides_the_computers_cards(door: DoorServer) -> None:
    ws = await logged_in(door)
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    seen: list[dict[str, Any]] = []
    hand: set[str] = set()
    hidden_leaks: list[str] = []
    computer_shown: set[str] = set()
    while True:
        message = await next_message(ws)
        seen.append(message)
        kind = message["type"]
        if kind == "event" and message["event"] == "deal":
            hand, computer_shown = set(message["hand"]), set()
        if kind == "event" and message["event"] in ("card", "starter"):
            computer_shown.add(message["card"])
        if (kind == "event" and message["event"] == "show") or (kind == "ask" and message["ask"] == "count"):
            computer_shown.update(message["cards"])  # (in the show every hand, and the crib, is face up)
        if kind in ("event", "ask", "state") and not (kind == "event" and message["event"] == "cut"):
            named = {c for key in ("hand", "cards", "playable", "series") for c in message.get(key, [])}
            named |= {message[key] for key in ("card", "starter") if isinstance(message.get(key), str)}
            hidden_leaks += [f"{c} in {message}" for c in sorted(named - hand - computer_shown)]
        if kind == "ask":
            if message["ask"] == "discard":
                answer = {"type": "discard", "cards": message["hand"][:2]}
            elif message["ask"] == "play":
                answer = {"type": "play", "card": message["playable"][0]}
            else:
                answer = {"type": "claim", "points": 0}
            await ws.send(json.dumps(answer))
        if kind == "game_over":
            break
    await ws.close()
    assert hidden_leaks == []
    for message in seen:  # every message as published (docs/protocol.md holds the same schemas)
        Draft202012Validator(SERVER_SCHEMAS[message["type"]]).validate(message)
    kinds = {m.get("event", m["type"]) for m in seen}
    assert {"table", "deal", "discard", "starter", "card", "show", "over", "game_over", "ask"} <= kinds


MALFORMED: list[tuple[str | bytes, str]] = [
    ("not json", "$"),
    ("[1, 2]", "$"),
    ("42", "$"),
    ('{"no": "type"}', "type"),
    ('{"type": 7}', "type"),
    ('{"type": "fly"}', "type"),
    ('{"type": "discard"}', "cards"),
    ('{"type": "discard", "cards": ["5H"]}', "cards"),
    ('{"type": "discard", "cards": ["5H", "XX"]}', "cards.1"),
    ('{"type": "discard", "cards": ["5H", "6H", "7H"]}', "cards"),
    ('{"type": "play"}', "card"),
    ('{"type": "play", "card": 5}', "card"),
    ('{"type": "play", "card": "5H", "extra": true}', "extra"),
    ('{"type": "claim", "points": -1}', "points"),
    ('{"type": "claim", "points": 30}', "points"),
    ('{"type": "claim", "points": "12"}', "points"),
    ('{"type": "chat", "text": ""}', "text"),
    ('{"type": "chat", "text": "' + "x" * 300 + '"}', "text"),
    ('{"type": "play_computer", "game_to": 99}', "game_to"),
    (b"\x00\x01binary", "$"),
]


async def test_twenty_malformed_messages_each_get_a_named_error(door: DoorServer) -> None:
    ws = await logged_in(door)
    for text, field in MALFORMED:
        await ws.send(text)
        error = await next_message(ws)
        assert error["type"] == "error" and error["field"] == field, (text, error)
    await ws.send(json.dumps({"type": "leave"}))  # and the session is whole
    assert (await next_message(ws))["type"] == "bye"
    await ws.close()
    assert len(MALFORMED) == 20


async def test_a_guest_may_not_take_a_reserved_or_registered_name(door: DoorServer) -> None:
    from door.records.passwords import hash_password
    await door.store.accounts.create("Reggie", hash_password("reggie-secret"))
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    for name, field in (("Computer", "name"), ("reggie", "name")):
        await ws.send(json.dumps({"type": "login", "name": name}))
        assert (await next_message(ws))["field"] == field
    await ws.send(json.dumps({"type": "play_computer"}))  # not before logging in
    assert (await next_message(ws))["field"] == "type"
    await ws.send(json.dumps({"type": "login", "name": "Guesty"}))
    assert (await next_message(ws, "welcome"))["guest"] is True
    await ws.close()


async def test_a_flood_of_messages_is_read_at_its_share_and_bounded(door: DoorServer) -> None:
    """600 chat lines sent at once, before the game: each is answered in
    turn (an error: no game is under way), none lost, and the door holds
    at most a few unread (INBOX_LIMIT)."""
    from door.net.api_link import INBOX_LIMIT, ApiLink

    ws = await logged_in(door, "Flood")
    for _ in range(600):
        await ws.send(json.dumps({"type": "chat", "text": "hi"}))
    [link] = [t for t in door.sessions if isinstance(t, ApiLink)]
    most = 0
    for _ in range(600):
        assert (await next_message(ws, timeout=60))["type"] == "error"
        most = max(most, len(link._messages))
    assert 0 < most <= INBOX_LIMIT
    await ws.close()
