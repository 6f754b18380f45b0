"""What a new caller tripped on, through a real client's screen."""

from __future__ import annotations

import asyncio

import asyncssh

from door.server import DoorServer
from tests.support.clients import as_guest_to_the_game, watch


async def test_no_key_acts_on_a_screen_the_caller_cannot_see(door: DoorServer) -> None:
    """3a: at 60x20 the door asks for a larger window; Right, RETURN,
    RETURN typed then laid away two cards the caller never saw."""
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="Tiny", known_hosts=None, client_keys=None,
                                agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "Your name" in screen.text())
        process.stdin.write(b"\r")  # the SSH user name is offered
        await as_guest_to_the_game(process.stdin.write, screen)
        process.change_terminal_size(60, 20)
        await screen.wait_for(lambda: "Please make this window larger" in screen.text())
        process.stdin.write(b"\x1b[C\r\x1b[C\r\r")  # two cards chosen and laid away, unseen
        await asyncio.sleep(0.5)
        process.change_terminal_size(80, 24)
        await screen.wait_for(lambda: "Choose 2 cards" in screen.text())
        await asyncio.sleep(0.3)
        assert screen.prompt().startswith("Choose 2 cards")  # nothing selected, nothing laid away
        [table] = [p.table for p in door.ctx.lobby.presences.values() if p.table is not None]
        assert table.game is not None and len(table.game.hands[0]) == 6
        task.cancel()
