"""A registered caller by the game protocol (the card table, or their
own program): the password is checked within the door's limits on wrong
passwords, their game against the computer is kept move by move, and a
dropped connection finds it going on at the next login."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from websockets.asyncio.client import ClientConnection, connect

from door.caller.api_account import as_error
from door.caller.login import LOGIN_MISS as MISSED
from door.play.api_messages import SERVER_SCHEMAS
from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_bots import answer, play_on
from tests.loopback.test_protocol import next_message
from tests.support.server import make_config, newcomers_rated, running

PASSWORD = "card-table-secret"

LOGIN_MISS = as_error(MISSED)
"""The protocol's one answer to a login that does not log in."""


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        await server.store.accounts.create("Ann", hash_password(PASSWORD))
        yield server


async def opened(door: DoorServer) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    return ws


async def test_a_wrong_password_is_refused_and_the_right_one_logs_in(door: DoorServer) -> None:
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Ann", "password": "guess"}))
    assert await next_message(ws) == {"type": "error", "field": "password", "message": LOGIN_MISS}
    await ws.send(json.dumps({"type": "login", "name": "Nobody", "password": "guess"}))
    assert await next_message(ws) == {"type": "error", "field": "password", "message": LOGIN_MISS}
    await ws.send(json.dumps({"type": "login", "name": "Ann"}))  # (a guest may not take a registered name)
    assert (await next_message(ws))["field"] == "name"
    await ws.send(json.dumps({"type": "login", "name": "ann", "password": PASSWORD}))
    welcome = await next_message(ws)
    assert {k: welcome[k] for k in ("type", "name", "guest", "bot")} == {"type": "welcome", "name": "Ann",
                                                                      "guest": False, "bot": False}
    assert door.ctx.throttle.failures("Ann") == 0  # (the right password forgets this address's wrong one)
    await ws.close()


async def test_an_unknown_name_answers_as_a_wrong_password_does_and_every_miss_counts(tmp_path: Path) -> None:
    """Probing names by the protocol's login: a name nobody registered
    and a registered one with a wrong password get the same answer after
    a wait, and both count against the address, as does a guest told a
    name is registered; past the limit even the right password is not
    checked from there."""
    config = make_config(tmp_path / "data")
    config.limits.password_per_address = 4
    async with running(config) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        ws = await opened(door)
        answers = []
        for name in ("Ann", "Nobody", "Zed"):
            started = time.monotonic()
            await ws.send(json.dumps({"type": "login", "name": name, "password": "guess"}))
            answers.append(await next_message(ws))
            assert time.monotonic() - started >= 0.4, name  # (the first miss on a name waits half a second)
        assert answers == [{"type": "error", "field": "password", "message": LOGIN_MISS}] * 3
        assert door.ctx.throttle.failures("Nobody") == door.ctx.throttle.failures("Ann") == 1
        await ws.send(json.dumps({"type": "login", "name": "Ann"}))  # a guest asking for a registered name: a miss
        assert (await next_message(ws))["field"] == "name"
        await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
        refused = await next_message(ws)
        assert refused["field"] == "password" and "too many wrong passwords from your address" in refused["message"]
        await ws.close()


async def test_a_program_cannot_take_or_register_the_name_of_another_boards_caller(door: DoorServer) -> None:
    """``alias@BOARD`` names a caller of another board of the cribbage
    hub, whose account their board vouches for: a guest by the protocol
    under such a name would be shown as them, and by registering it would
    hold the password of the account their first call takes up."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "alice@BBS1"}))
    refused = await next_message(ws)
    assert refused["type"] == "error" and refused["field"] == "name" and "another board" in refused["message"]
    for lookalike in ("alice\uff20BBS1", "alice\ufe6bBBS1"):  # (a fullwidth @, a small @: the same name to the door)
        await ws.send(json.dumps({"type": "login", "name": lookalike}))
        assert (await next_message(ws))["field"] == "name", lookalike
    await ws.send(json.dumps({"type": "login", "name": "Guest"}))
    assert (await next_message(ws))["type"] == "welcome"
    await ws.close()
    assert await door.store.accounts.find("alice@BBS1") is None


async def test_a_sysops_message_reaches_a_program_as_a_notice(door: DoorServer) -> None:
    """The sysop's message to a program was a bell written raw to its
    connection (a frame that is not JSON) and a line kept for a menu the
    program never draws: it is a ``notice``, at the menu as in a game."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "lobby"}))
    await next_message(ws, "lobby")
    ann = next(p for p in door.ctx.lobby.presences.values() if p.name == "Ann")
    door.ctx.lobby.message(ann, "the board goes down at ten")
    assert json.loads(await asyncio.wait_for(ws.recv(), 10)) == {
        "type": "notice", "text": "Message from the sysop: the board goes down at ten"}
    await ws.close()


async def test_a_registered_callers_game_is_kept_and_goes_on_after_a_drop(door: DoorServer) -> None:
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    seen = await play_on(ws, moves=3)
    assert sum(m["type"] == "ask" for m in seen) == 3
    await ws.close()  # the line drops mid-game
    account = await door.store.accounts.find("Ann")
    assert account is not None
    assert await door.store.saved.load(account.id) is not None  # (kept move by move, before the next ask)
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
    await next_message(ws, "welcome")
    assert "against the computer goes on" in (await next_message(ws, "notice"))["text"]
    state = await next_message(ws, "state")
    assert state["hand_number"] >= 1
    rest = await play_on(ws)
    assert any(m["type"] == "game_over" for m in rest)
    assert await door.store.saved.load(account.id) is None
    games = await door.store.games.recent("Ann")
    assert len(games) == 1
    await ws.send(json.dumps({"type": "review"}))  # the door's review of it, line by line
    review = await next_message(ws, "review")
    assert review["game"] == games[0].number
    assert review["lines"][0] == f"Review of game #{games[0].number} against Computer"
    assert any(line.startswith("Your discards cost ") for line in review["lines"])
    await ws.send(json.dumps({"type": "stats"}))  # the statistics screen's figures, and the recent games
    stats = await next_message(ws, "stats")
    Draft202012Validator(SERVER_SCHEMAS["stats"]).validate(stats)
    assert {"label": "Games played", "value": "1"} in stats["rows"]
    assert [g["game"] for g in stats["recent"]] == [games[0].number]
    assert stats["recent"][0]["players"] == ["Ann", "Computer"] and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}Z",
                                                                                   stats["recent"][0]["ended"])
    Draft202012Validator(SERVER_SCHEMAS["review"]).validate(review)  # and as data: each decision, choice and best
    kinds = [d["kind"] for d in review["decisions"]]
    assert kinds.count("discard") == sum(line.startswith("Hand ") and "kept" in line for line in review["lines"])
    assert "play" in kinds and "count" in kinds
    for d in review["decisions"]:
        if d["kind"] == "discard":  # the two thrown, not the four kept
            assert len(d["choice"]) == 2 and len(d["best"]) == 2 and d["lost"] >= 0
    assert set(review["costs"]) == {"discards", "pegging", "counting"}
    await ws.close()


async def test_a_guest_has_no_review(door: DoorServer) -> None:
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus"}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "review"}))
    assert await next_message(ws) == {"type": "error", "field": "type",
                                      "message": "a guest's games are not kept: there is nothing to review"}
    await ws.send(json.dumps({"type": "stats"}))
    assert await next_message(ws) == {"type": "error", "field": "type",
                                      "message": "a guest's games are not kept: there are no statistics"}
    await ws.close()


async def test_todays_deal_by_the_protocol_once_then_its_ranking(door: DoorServer) -> None:
    """A registered caller plays today's deal by the protocol (the day's
    cards: its game number), gets the day's ranking with their result in
    it, and asking again gives the ranking, not a second play; a guest and
    a bot are refused it."""
    newcomers_rated(door.config)  # (Ann's account is new)
    day = door.store.daily.today()
    deal = await door.store.daily.deal(day)
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "daily"}))
    table = await next_message(ws, "table")
    assert table["game"] == deal.game and table["players"] == ["Ann", "Computer"]
    seen = await play_on(ws)
    over = next(m for m in seen if m["type"] == "game_over")
    ranking = next(m for m in seen if m["type"] == "daily")
    assert ranking["day"] == day and ranking["game"] == deal.game
    assert ranking["lines"][0] == f"Today's deal, {day} (game #{deal.game}): the same cards for everyone."
    mine = f"Ann {over['scores'][0]} - {over['scores'][1]}"
    assert any(mine in re.sub(r"\s+", " ", line) for line in ranking["lines"]), ranking["lines"]
    assert ranking["ranking"] == [{"place": 1, "name": "Ann", "score": over["scores"][0],  # and as data
                                   "computer": over["scores"][1], "margin": over["scores"][0] - over["scores"][1],
                                   "against_par": ranking["ranking"][0]["against_par"], "unfinished": False}]
    assert len(ranking["par"]) == 2 and ranking["streak"] == 1
    for message in (table, *seen):  # the day's messages keep to the published schemas
        Draft202012Validator(SERVER_SCHEMAS[message["type"]]).validate(message)
    await ws.send(json.dumps({"type": "daily"}))  # played today: the ranking again, no second deal
    again = await next_message(ws)
    assert again["type"] == "daily" and again["lines"] == ranking["lines"]
    await ws.close()
    _, token = await door.store.bots.make("Robo")
    for login in ({"type": "login", "name": "Gus"}, {"type": "login", "name": "Robo", "token": token}):
        ws = await opened(door)
        await ws.send(json.dumps(login))
        await next_message(ws, "welcome")
        await ws.send(json.dumps({"type": "daily"}))
        refused = await next_message(ws)
        assert refused["type"] == "error" and "ranked among people" in refused["message"], refused
        await ws.close()


async def test_a_guest_registers_and_changes_the_password(door: DoorServer) -> None:
    """A guest registers the name it plays under (a short password is
    refused), is welcomed again as registered, and its game is kept; the
    registered caller changes the password (a wrong old one is refused),
    and the new one logs in."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus"}))
    assert (await next_message(ws, "welcome"))["guest"] is True
    await ws.send(json.dumps({"type": "register", "password": "short"}))
    assert await next_message(ws) == {"type": "error", "field": "password",
                                      "message": "a password has at least 6 characters"}
    await ws.send(json.dumps({"type": "register", "password": "gus-secret"}))
    assert "Gus is registered" in (await next_message(ws, "notice"))["text"]
    assert await next_message(ws) == {"type": "welcome", "name": "Gus", "guest": False, "bot": False}
    await ws.send(json.dumps({"type": "register", "password": "gus-secret"}))
    assert (await next_message(ws))["message"] == "you are registered already"
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    await play_on(ws, moves=2)
    account = await door.store.accounts.find("Gus")
    assert account is not None and await door.store.saved.load(account.id) is not None  # (kept, as registered)
    await ws.send(json.dumps({"type": "leave"}))
    await next_message(ws, "bye")
    await ws.close()
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus", "password": "gus-secret"}))
    await next_message(ws, "welcome")
    await next_message(ws, "notice")  # (the kept game goes on: left at once)
    await ws.send(json.dumps({"type": "leave"}))
    await next_message(ws, "bye")
    await ws.close()
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus", "password": "wrong-one", "new_password": "gus-newer"}))
    assert await next_message(ws) == {"type": "error", "field": "password", "message": LOGIN_MISS}
    await ws.send(json.dumps({"type": "login", "name": "Gus", "password": "gus-secret", "new_password": "short"}))
    assert await next_message(ws) == {"type": "error", "field": "new_password",
                                      "message": "a password has at least 6 characters"}
    await ws.send(json.dumps({"type": "login", "name": "Gus", "password": "gus-secret", "new_password": "gus-newer"}))
    assert await next_message(ws) == {"type": "notice", "text": "Your password is changed."}
    assert (await next_message(ws))["type"] == "welcome"
    await ws.close()
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Gus", "password": "gus-newer"}))
    assert (await next_message(ws, "welcome"))["guest"] is False
    await ws.close()


async def test_a_hint_at_the_discard_and_the_play_but_not_at_a_count(door: DoorServer) -> None:
    """``hint`` answers with the computer's choice, the screens' ``?``:
    two of the hand's cards at the discard, a playable card at the play; at
    a count it is an error."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Hinted"}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "play_computer", "game_to": 61}))
    seen: set[str] = set()
    while seen != {"discard", "play", "count"}:
        ask = await next_message(ws, "ask")
        await ws.send(json.dumps({"type": "hint"}))
        reply = await next_message(ws)
        while reply["type"] == "event":  # (the computer's moves meanwhile: its discard comes after the ask)
            reply = await next_message(ws)
        if ask["ask"] == "count":
            assert reply["type"] == "error" and "a hint is for a discard or a card" in reply["message"]
        else:
            Draft202012Validator(SERVER_SCHEMAS["hint"]).validate(reply)
            assert reply["text"].startswith("Hint: ")
            if ask["ask"] == "discard":
                assert len(reply["cards"]) == 2 and set(reply["cards"]) <= set(ask["hand"])
            else:
                assert len(reply["cards"]) == 1 and reply["cards"][0] in ask["playable"]
        seen.add(ask["ask"])
        await ws.send(json.dumps(answer(ask)))
    await ws.close()


async def test_advice_after_a_discard_and_a_hand(door: DoorServer) -> None:
    """``advice``, as the screen-reader mode's A: none before the first
    discard; at the second hand's discard, the first hand's discard
    analysed and its pegging looked back on."""
    ws = await opened(door)
    await ws.send(json.dumps({"type": "login", "name": "Advised"}))
    await next_message(ws, "welcome")
    await ws.send(json.dumps({"type": "play_computer", "game_to": 121}))
    ask = await next_message(ws, "ask")
    await ws.send(json.dumps({"type": "advice"}))
    reply = await next_message(ws, "advice")
    assert reply["notes"] == ["No advice yet: it comes after your first discard."]
    discards = 0
    while True:
        if ask["ask"] == "discard":
            discards += 1
            if discards == 2:
                break
        await ws.send(json.dumps(answer(ask)))
        ask = await next_message(ws, "ask")
    await ws.send(json.dumps({"type": "advice"}))
    reply = await next_message(ws, "advice")
    Draft202012Validator(SERVER_SCHEMAS["advice"]).validate(reply)
    assert reply["notes"][0].startswith("You kept ") and reply["notes"][1].startswith("Pegging, hand 1"), reply
    await ws.close()


async def test_a_program_playing_todays_deal_is_not_listed_to_be_challenged(tmp_path: Path) -> None:
    """A program that may be challenged at the menu (``available``) and
    goes to a game from it (today's deal, here) is no longer listed to
    be challenged while it plays, as a caller who leaves the menu is not:
    a challenge to it would wait unanswered until it lapsed."""
    async with running(newcomers_rated(make_config(tmp_path / "data", game_to=61))) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        ann, bob = await opened(door), await opened(door)
        await ann.send(json.dumps({"type": "login", "name": "Ann", "password": PASSWORD}))
        await next_message(ann, "welcome")
        await ann.send(json.dumps({"type": "available", "on": True}))
        await next_message(ann, "notice")
        await bob.send(json.dumps({"type": "login", "name": "Bob"}))
        await next_message(bob, "welcome")
        await bob.send(json.dumps({"type": "lobby"}))
        assert [p["name"] for p in (await next_message(bob, "lobby"))["players"]] == ["Ann"]
        await ann.send(json.dumps({"type": "daily"}))
        await next_message(ann, "ask")  # at the table: today's deal is dealt
        await bob.send(json.dumps({"type": "lobby"}))
        assert (await next_message(bob, "lobby"))["players"] == []
        await ann.close()
        await bob.close()
