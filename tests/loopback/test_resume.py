"""A registered caller's game survives a dropped connection and a killed
server: logging in again offers it, and it resumes exactly where the screen
left it (same cards, same scores, same play)."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

from door.records.passwords import hash_password
from door.records.store import DATABASE_NAME, Store
from door.server import DoorServer
from tests.support.clients import console_client, telnet_client
from tests.support.player import RIGHT, ClientScreen, telnet_caller, type_guest_login
from tests.support.server import start_server_process

GAME_ROWS = slice(1, 17)  # the board, the dealer line and both players' cards


async def connect(port: int):
    caller = await telnet_caller(port)
    return caller.writer, caller.screen, caller.done


async def log_in(writer, screen: ClientScreen, name: str, password: str) -> None:
    await screen.wait_for(lambda: "Your name:" in screen.text())
    writer.write(name.encode() + b"\r")
    await screen.wait_for(lambda: "Password:" in screen.text())
    writer.write(password.encode() + b"\r")


async def play_into_the_hand(writer, screen: ClientScreen) -> list[str]:
    """From the main menu: start a game, discard, play until it is the
    caller's turn again after at least one card each; returns the game rows."""
    await screen.wait_for(lambda: "Main menu" in screen.text())
    writer.write(b"1")
    await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
    writer.write(b"2")
    await screen.wait_for(lambda: "blank line deals" in screen.text())
    writer.write(b"\r")
    await screen.wait_for(lambda: screen.prompt().startswith("Choose 2 cards"))
    writer.write(b"\r" + RIGHT + b"\r\r")
    await screen.wait_for(lambda: screen.prompt().startswith("Your turn"), timeout=15)
    row = screen.row_of("Your cards") + 1
    writer.write(b"\r")  # play a card (the first is always playable at a low count)
    await screen.wait_for(lambda: screen.lines()[row].strip() != "" and screen.prompt().startswith("Your turn"),
                          timeout=15)
    await asyncio.sleep(0.2)
    return screen.lines()[GAME_ROWS]


async def resume(writer, screen: ClientScreen) -> list[str]:
    await screen.wait_for(lambda: "Resume it?" in screen.text())
    assert "unfinished game #" in screen.text()
    writer.write(b"y")
    await screen.wait_for(lambda: screen.prompt().startswith("Your turn"))
    await asyncio.sleep(0.2)
    return screen.lines()[GAME_ROWS]


async def test_dropped_connection_resumes_the_same_game(door: DoorServer) -> None:
    await door.store.accounts.create("Resa", hash_password("resa-pass"))
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "Resa", "resa-pass")
    before = await play_into_the_hand(writer, screen)
    writer.close()  # the line drops
    await asyncio.sleep(0.3)
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "resa", "resa-pass")
    after = await resume(writer, screen)
    assert after == before
    assert "runs in order" in screen.lines()[0]  # the rules it was played with
    writer.close()


async def test_guest_games_leave_no_records(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await type_guest_login(writer.write, screen, "Visitor")
    await play_into_the_hand(writer, screen)
    writer.close()
    await asyncio.sleep(0.2)
    assert await door.store.accounts.find("Visitor") is None
    assert await door.store.games.recent() == []


async def play_then_kill(data: Path, *extra: str) -> list[str]:
    """A ``serve`` process on ``data`` (with ``extra`` flags): Kip logs
    in, plays into the hand, and the server is killed with ``kill -9``;
    returns the game rows Kip saw."""
    proc, port, _ = start_server_process(data, "--computer-delay", "0", *extra)
    try:
        writer, screen, task = await connect(port)
        await log_in(writer, screen, "Kip", "kip-pass")
        before = await play_into_the_hand(writer, screen)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(10) == -signal.SIGKILL
        await asyncio.wait_for(task, 5)
    finally:
        if proc.poll() is None:
            proc.kill()
    return before


async def log_in_and_resume(data: Path, *extra: str) -> list[str]:
    """A new ``serve`` process on ``data``: Kip logs in and resumes;
    returns the game rows."""
    proc, port, _ = start_server_process(data, "--computer-delay", "0", *extra)
    try:
        writer, screen, task = await connect(port)
        await log_in(writer, screen, "Kip", "kip-pass")
        after = await resume(writer, screen)
        writer.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    return after


async def test_killed_server_resumes_the_same_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = await Store.open(data / DATABASE_NAME)
    await store.accounts.create("Kip", hash_password("kip-pass"))
    await store.close()
    before = await play_then_kill(data)
    assert await log_in_and_resume(data) == before


async def test_a_kept_game_is_on_the_menu_and_never_replaced_silently(door: DoorServer) -> None:
    """Q, Y keeps the game; the menu offers "Resume game #N
    (...)", starting another asks first, and R resumes it."""
    await door.store.accounts.create("Kip", hash_password("kip-pass"))
    writer, screen, task = await connect(door.telnet_port)
    await log_in(writer, screen, "Kip", "kip-pass")
    before = await play_into_the_hand(writer, screen)
    writer.write(b"q")
    await screen.wait_for(lambda: "Leave this game? (Y/N)" in screen.text())
    writer.write(b"y")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    line = next(x for x in screen.lines() if "Resume game #" in x)
    assert "R  Resume game #" in line and "hand 1, you" in line and "Computer" in line
    writer.write(b"1")  # a new game: asked first
    await screen.wait_for(lambda: "Start a new game all the same?" in screen.text())
    writer.write(b"n")
    await screen.wait_for(lambda: "Main menu" in screen.text() and "Resume game #" in screen.text())
    writer.write(b"r")
    await screen.wait_for(lambda: screen.prompt().startswith("Your turn"))
    await asyncio.sleep(0.2)
    assert screen.lines()[GAME_ROWS] == before
    writer.close()


async def sysop_and_syd(data: Path):
    """A ``serve`` process on ``data``, the sysop at its console, and the
    caller Syd logged in over telnet: the process, the console's writer
    and screen, and the caller's writer, screen and task."""
    proc, port, _ = start_server_process(data)
    try:
        sysop, console, _ = await console_client(data)
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        writer, screen, task = await connect(port)
        await log_in(writer, screen, "Syd", "syd-pass")
    except BaseException:
        proc.kill()
        raise
    return proc, sysop, console, writer, screen, task


async def page_and_play(writer, screen: ClientScreen, sysop, console: ClientScreen) -> tuple[list[str], list[str], ClientScreen]:
    """From the caller's main menu: page the sysop, who accepts; runs in
    exact order; deal, discard and lead, until the dealer is to play.
    Returns both screens' game rows and the dealer's screen."""
    await screen.wait_for(lambda: "Play the sysop" in screen.text())
    writer.write(b"6")
    await screen.wait_for(lambda: "Reason:" in screen.text())
    writer.write(b"\r")
    await console.wait_for(lambda: "PAGE from Syd" in console.text())
    sysop.write(b"y")
    await screen.wait_for(lambda: "accepted your page" in screen.text())
    writer.write(b"2")  # runs in exact order
    for _side, term in ((writer, screen), (sysop, console)):
        await term.wait_for(lambda term=term: term.prompt().startswith("Chat"))
    for side in (writer, sysop):
        side.write(b"\r")  # the dealer deals (the other is told to wait)
    for side, term in ((writer, screen), (sysop, console)):
        await term.wait_for(lambda term=term: term.prompt().startswith("Choose 2 cards"))
        side.write(b"\r" + RIGHT + b"\r\r")
    turns = [(writer, screen), (sysop, console)]
    await screen.wait_for(lambda: any(t.prompt().startswith("Your turn") for _, t in turns), timeout=15)
    pone, pone_screen = next((s, t) for s, t in turns if t.prompt().startswith("Your turn"))
    dealer_screen = console if pone_screen is screen else screen
    pone.write(b"\r")  # the pone leads
    await dealer_screen.wait_for(lambda: dealer_screen.prompt().startswith("Your turn"), timeout=15)
    await asyncio.sleep(0.3)
    return screen.lines()[GAME_ROWS], console.lines()[GAME_ROWS], dealer_screen


async def test_killed_server_resumes_a_game_against_the_sysop(tmp_path: Path) -> None:
    """A game against the sysop is journaled as a game against
    the computer is.  Killed with ``kill -9`` in the play, the server comes
    back; the caller is offered the game, pages the sysop to go on with it,
    and both screens are where they were."""
    data = tmp_path / "data"
    store = await Store.open(data / DATABASE_NAME)
    await store.accounts.create("Syd", hash_password("syd-pass"))
    await store.close()
    proc, sysop, console, writer, screen, task = await sysop_and_syd(data)
    try:
        before, console_before, dealer_screen = await page_and_play(writer, screen, sysop, console)
        caller_deals = dealer_screen is screen
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(10) == -signal.SIGKILL
        await asyncio.wait_for(task, 5)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, sysop, console, writer, screen, task = await sysop_and_syd(data)
    try:
        await screen.wait_for(lambda: "Page the sysop to go on with it?" in screen.text())
        assert re.search(r"unfinished game #\d+ \(hand 1, you \d+, the sysop \d+\)", " ".join(screen.text().split()))
        writer.write(b"y")
        await console.wait_for(lambda: "PAGE from Syd" in console.text())
        assert "to go on with game #" in console.text()
        sysop.write(b"y")
        dealer_screen = screen if caller_deals else console
        await dealer_screen.wait_for(lambda: dealer_screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        assert screen.lines()[GAME_ROWS] == before
        assert console.lines()[GAME_ROWS] == console_before
        assert "runs in order" in screen.lines()[0]  # the rules it began with
        writer.close()
        sysop.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
