"""Whole games against the computer over real telnet and SSH connections,
played by a scripted caller that reads the screen (pyte) and picks keys."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest

from door.server import DoorServer
from tests.support.player import ClientScreen, Player, telnet_caller


async def pump(read, term: ClientScreen) -> None:
    while True:
        data = await read(4096)
        if not data:
            return
        term.feed(data)


def assert_finished(screen: str) -> None:
    assert re.search(r"(You win|Computer wins) \d+ to \d+!", screen), screen
    # the winner's score on the board is the game hole
    scores = [int(m) for m in re.findall(r"^\s+(\d+)\s+[\u00b7\u25a0]", screen, re.M)]
    assert 121 in scores and len(scores) == 2, screen


@pytest.mark.slow
async def test_full_game_over_telnet(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    term, task, writer = caller.screen, caller.done, caller
    player = Player(term, caller.send, name="Telly", password="telly-pass")  # registers on the way in
    screen = await player.play(timeout=150)
    assert_finished(screen)
    assert "Telly" in screen
    assert player.counts, "the caller never counted a hand"
    await player.leave()
    await asyncio.wait_for(task, 5)  # the door says goodbye and hangs up
    assert "Thanks for playing cribbage, Telly" in term.text()
    writer.close()
    # the game is on record, with its hands; its action log is gone
    games = await door.store.games.recent("telly")
    assert len(games) == 1 and games[0].players == ("Telly", "Computer")
    assert max(games[0].scores) == 121
    stats = await door.store.statistics.player("Telly")
    assert stats.games == 1 and stats.hands >= 1 and stats.claims >= 1
    assert stats.exact_claims == stats.claims  # the scripted caller counts exactly
    account = await door.store.accounts.find("Telly")
    assert await door.store.saved.load(account.id) is None


@pytest.mark.slow
async def test_full_game_over_ssh_in_exact_order_mode(door: DoorServer) -> None:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="sshcaller", known_hosts=None,
                                client_keys=None, agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        term = ClientScreen(80, 24)
        task = asyncio.create_task(pump(process.stdout.read, term))

        async def send(data: bytes) -> None:
            process.stdin.write(data)

        # the SSH login name is offered as the caller's name: accept it
        player = Player(term, send, name="", run_mode="2")
        screen = await player.play(timeout=150)
        assert_finished(screen)
        assert "runs in order" in screen and "sshcal" in screen  # the board shows six letters
        await player.leave()
        await asyncio.wait_for(task, 5)
        assert "Thanks for playing cribbage, sshcaller" in term.text()
    assert await door.store.games.recent() == []  # a guest leaves no records
