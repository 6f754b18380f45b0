"""Watching a game between callers: a watcher sees the game
with both hands hidden until the show and the players' chat, cannot write
to it, and the players are told; a player who refuses watchers keeps their
game from the list."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from jsonschema import Draft202012Validator

from door.play.api_messages import SERVER_SCHEMAS
from tests.loopback.test_callers import both_in_chat, challenge, registered
from tests.loopback.test_protocol import logged_in, next_message
from tests.support.player import Player, log_in_as_guest, telnet_caller
from tests.support.server import make_config, running


async def test_a_caller_watches_a_game_between_callers_read_only(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        cy = await telnet_caller(door.telnet_port)
        await log_in_as_guest(cy, "Cy")
        assert "Watch a game" not in cy.screen.text()  # nobody plays anybody yet
        await challenge(ann, "Bob")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        await cy.screen.wait_for(lambda: "W  Watch a game between callers" in cy.screen.text())
        await cy.send(b"W")
        await cy.screen.wait_for(lambda: "Watching Ann against Bob" in cy.screen.text())
        for player in (ann, bob):
            await player.screen.wait_for(lambda p=player: "Cy is watching." in re.sub(r"\s+", " ", p.screen.text()))
        await bob.send(b"good luck\r")
        await cy.screen.wait_for(lambda: "Bob: good luck" in cy.screen.text())
        await cy.send(b"hello\r")  # a watcher's keys are not chat
        await cy.screen.wait_for(lambda: "the chat is the players'" in cy.screen.text())
        dealer = ann if "blank line deals" in ann.screen.prompt() else bob
        await dealer.send(b"\r")
        await cy.screen.wait_for(lambda: "Ann's cards" in cy.screen.text() and "Bob's cards" in cy.screen.text())
        for who in ("Ann's cards", "Bob's cards"):  # both hands hidden from the watcher until the show
            assert cy.screen.cards_in_row(cy.screen.row_of(who) + 2) == [], cy.screen.text()
        assert "Cy:" not in ann.screen.text() and "hello" not in ann.screen.text()
        await cy.send(b"q")
        await cy.screen.wait_for(lambda: "Main menu" in cy.screen.text())
        await ann.screen.wait_for(lambda: "Cy stopped watching." in re.sub(r"\s+", " ", ann.screen.text()))
        for c in (ann, bob, cy):
            c.close()


async def test_a_player_who_refuses_watchers_keeps_the_game_off_the_list(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        await bob.screen.wait_for(lambda: "V  Watchers in your games against callers: allowed" in bob.screen.text())
        await bob.send(b"V")
        await bob.screen.wait_for(lambda: "callers: refused (V allows them)" in bob.screen.text())
        account = await door.store.accounts.find("Bob")
        assert account is not None and account.options.get("watchers") is False  # remembered
        cy = await telnet_caller(door.telnet_port)
        await log_in_as_guest(cy, "Cy")
        await challenge(ann, "Bob")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        await cy.send(b"\x0c")  # a redraw: the menu as it is now
        await cy.screen.wait_for(lambda: "Leave the door" in cy.screen.text())
        assert "Watch a game" not in cy.screen.text()
        for c in (ann, bob, cy):
            c.close()


async def test_a_program_watches_a_game_between_callers(tmp_path: Path) -> None:
    """By the game protocol, as with W: the lobby lists the game, watch
    starts it (the players are told), the moves come as events with both
    hands hidden until the show, the program cannot chat, and stop ends
    it (the players are told, and the program is back at the menu)."""
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        wes = await logged_in(door, "Wes")
        await challenge(ann, "Bob")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        await wes.send(json.dumps({"type": "lobby"}))
        assert (await next_message(wes, "lobby"))["games"] == [{"players": ["Ann", "Bob"]}]
        await wes.send(json.dumps({"type": "watch", "player": "bob"}))
        watching = await next_message(wes, "watching")
        assert watching["players"] == ["Ann", "Bob"] and watching["scores"] == [0, 0]
        for player in (ann, bob):
            await player.screen.wait_for(lambda p=player: "Wes is watching." in re.sub(r"\s+", " ", p.screen.text()))
        await wes.send(json.dumps({"type": "chat", "text": "hello"}))  # a watcher does not chat
        error = await next_message(wes, "error")
        assert error["message"] == "you are watching (the chat is the players'): stop, or leave"
        dealer = ann if "blank line deals" in ann.screen.prompt() else bob
        await dealer.send(b"\r")
        players = (Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob"))
        playing = asyncio.gather(*(p.play(timeout=200) for p in players))
        seen: list[dict[str, object]] = []
        while not any(m["type"] == "event" and m["event"] == "over" for m in seen):
            seen.append(await next_message(wes, timeout=60))
        await playing
        discards = [m for m in seen if m.get("event") == "discard"]
        assert discards and all("cards" not in m for m in discards)  # (both hands hidden until the show)
        assert any(m.get("event") == "card" for m in seen) and any(m.get("event") == "show" for m in seen)
        for message in (watching, *seen):
            Draft202012Validator(SERVER_SCHEMAS[str(message["type"])]).validate(message)
        after = [await next_message(wes, timeout=30)]
        while after[-1]["type"] != "menu":  # (the game's end stops the watching: told why, then the menu)
            after.append(await next_message(wes, timeout=30))
        assert after[-2:] == [{"type": "notice", "text": "The game is over."}, {"type": "menu"}], after
        await wes.close()
        for c in (ann, bob):
            c.close()


async def test_a_watcher_who_starts_and_stops_again_and_again_is_told_to_the_players_once(tmp_path: Path) -> None:
    """A program watches and stops, again and again, as fast as it may
    send: the players are told it watches once, and that it stopped once
    it has (a moment after its last stop), not a notice each time, which
    would scroll their chat away and be read out line after line by a
    screen reader."""
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        wes = await logged_in(door, "Wes")
        await challenge(ann, "Bob")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        await bob.send(b"good luck\r")
        await ann.screen.wait_for(lambda: "Bob: good luck" in ann.screen.text())
        for _ in range(20):
            await wes.send(json.dumps({"type": "watch", "player": "Ann"}))
            await next_message(wes, "watching")
            await wes.send(json.dumps({"type": "stop"}))
            await next_message(wes, "menu")
        await ann.screen.wait_for(lambda: "Wes stopped watching." in re.sub(r"\s+", " ", ann.screen.text()))
        told = [seat.vs.chat for seat in door.ctx.lobby.tables.copy().pop().seats]  # type: ignore[attr-defined]
        for chat in told:
            assert [line for _, _, line in chat if "Wes" in line] == ["Wes is watching.", "Wes stopped watching."]
        assert "Bob: good luck" in ann.screen.text()
        await wes.close()
        for c in (ann, bob):
            c.close()
