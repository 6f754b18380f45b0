"""Watching a game between callers: a watcher sees the game
with both hands hidden until the show and the players' chat, cannot write
to it, and the players are told; a player who refuses watchers keeps their
game from the list."""

from __future__ import annotations

import re
from pathlib import Path

from tests.loopback.test_callers import both_in_chat, challenge, registered
from tests.support.player import log_in_as_guest, telnet_caller
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
