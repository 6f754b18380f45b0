"""The server with real clients: shutdown notice, resize, small windows,
SSH without a PTY, line noise."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from door.server import DoorServer
from engine import crib_values, scoring
from tests.support.clients import as_guest_to_the_game, telnet_client, watch
from tests.support.player import type_guest_login
from tests.support.server import make_config, running, start_server_process


async def test_shutdown_tells_connected_callers(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await screen.wait_for(lambda: "Your name:" in screen.text())
    await door.stop()
    await asyncio.wait_for(task, 5)
    assert "shutting down" in screen.text()
    writer.close()


async def test_line_noise_then_a_normal_session(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await screen.wait_for(lambda: "Your name:" in screen.text())
    writer.write(bytes(range(1, 256)).replace(b"\r", b"").replace(b"\n", b"").replace(b"\xff", b"") * 4)
    writer.write(b"\x1b[" + b"9" * 100 + b"\x1b\x1b\x00\x00")
    await writer.drain()
    await asyncio.sleep(0.2)
    writer.write(b"\x7f" * 40 + b"Noisy\r")
    await as_guest_to_the_game(writer.write, screen)
    await screen.wait_for(lambda: "Choose 2 cards" in screen.text())
    assert "Noisy" in screen.text()
    writer.close()


async def test_small_window_asks_to_enlarge_and_recovers_over_ssh(door: DoorServer) -> None:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="tiny", known_hosts=None, client_keys=None,
                                agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(60, 20), encoding=None)
        screen, task = watch(process, 60, 20)
        await screen.wait_for(lambda: "Please make this window larger" in screen.text())
        assert "now 60x20" in screen.text()
        screen.screen.resize(24, 80)
        process.change_terminal_size(80, 24)
        await screen.wait_for(lambda: "Your name:" in screen.text())
        assert "tiny" in screen.text()
        process.stdin.write(b"\r")
        await as_guest_to_the_game(process.stdin.write, screen)
        # grow the window mid-game: the screen is redrawn at the new size
        screen.screen.resize(30, 100)
        process.change_terminal_size(100, 30)
        await screen.wait_for(lambda: screen.lines()[0].rstrip().endswith("^L redraw") and
                              len(screen.lines()[0].rstrip()) > 90)
        process.stdin.write_eof()
        task.cancel()


async def test_ssh_without_a_pty_gets_80x24(door: DoorServer) -> None:
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="nopty", known_hosts=None, client_keys=None,
                                agent_path=None, config=None) as conn:
        process = await conn.create_process(encoding=None)  # no term_type: no PTY
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "Your name:" in screen.text())
        process.stdin.write(b"\r")
        await screen.wait_for(lambda: "is not registered" in screen.text())
        process.stdin.write_eof()
        task.cancel()


async def test_ctrl_l_redraws_everything(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await screen.wait_for(lambda: "Your name:" in screen.text())
    writer.write(b"Lou\r")
    await as_guest_to_the_game(writer.write, screen)
    await screen.wait_for(lambda: "Choose 2 cards" in screen.text() and "has laid away" in screen.text())
    await asyncio.sleep(0.1)
    before = screen.text()
    screen.stream.feed(b"\x1b[2J\x1b[5;5Hgarbage")  # line noise garbles the caller's screen
    sent = screen.received
    writer.write(b"\x0c")
    await writer.drain()
    await screen.wait_for(lambda: screen.received > sent + 500)
    await asyncio.sleep(0.1)
    assert screen.text() == before
    writer.close()


async def test_leaving_mid_game_asks_first(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await screen.wait_for(lambda: "Your name:" in screen.text())
    writer.write(b"Quinn\r")
    await as_guest_to_the_game(writer.write, screen)
    writer.write(b"q")
    await screen.wait_for(lambda: "Leave this game?" in screen.prompt())
    writer.write(b"n")
    await screen.wait_for(lambda: screen.prompt().startswith("Choose 2 cards"))
    writer.write(b"\x03")
    await screen.wait_for(lambda: "Leave this game?" in screen.prompt())
    writer.write(b"y")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    writer.write(b"q")
    await asyncio.wait_for(task, 5)
    assert "Thanks for playing cribbage, Quinn" in screen.text()


async def test_idle_caller_is_told_and_disconnected(door: DoorServer) -> None:
    door.config.server.idle_timeout = 1
    _, writer, screen, task = await telnet_client(door)
    await screen.wait_for(lambda: "Your name:" in screen.text())
    await asyncio.wait_for(task, 5)
    assert "No key for" in screen.text() and "goodbye" in screen.text()


async def test_numbered_game_deals_the_same_cards(door: DoorServer) -> None:
    _, writer, screen, task = await telnet_client(door)
    await type_guest_login(writer.write, screen, "Numa")
    writer.write(b"2")
    await screen.wait_for(lambda: "Game number:" in screen.text())
    writer.write(b"32767\r")
    await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
    writer.write(b"1")
    await screen.wait_for(lambda: "blank line deals" in screen.text())
    writer.write(b"\r")
    await screen.wait_for(lambda: "Choose 2 cards" in screen.text())
    assert "Game #32767" in screen.lines()[0]
    row = screen.row_of("Your cards") + 2
    # tests/test_game.py pins game 32767's first deal: seat 0 holds AH 6C TH TS QD QH
    assert screen.lines()[row].split() == ["A\u2665", "6\u2663", "10\u2665", "10\u2660", "Q\u2666", "Q\u2665"]
    writer.close()


async def test_a_second_server_on_the_same_data_folder_is_refused_and_the_first_keeps_its_console(
        door: DoorServer) -> None:
    """Starting another server on a data folder a live one serves would
    take its console and node sockets (the sysop could no longer reach
    it): it is refused with a clear error, and the first is untouched."""
    import pytest

    from tests.support.clients import console_client
    from tests.support.server import make_config
    data = Path(door.config.server.data_dir)
    second = DoorServer(make_config(data))
    with pytest.raises(OSError, match="another door server is running on this data folder"):
        await second.start()
    assert second.store is None  # what it had opened is closed again
    sysop, console, _ = await console_client(data)
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
    sysop.close()


async def test_the_tables_the_advice_reads_are_ready_before_the_first_caller(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The discard analysis (after each hand) reads the show's rank table
    and the crib values on the event loop; built at the first caller's
    first discard (0.2-0.5 s), they stopped every caller's screen that
    long (bench.load: 576 ms at 20 callers).  The server makes them before
    it listens."""
    monkeypatch.setattr(scoring, "_RANK_POINTS", {})
    crib_values.load_table.cache_clear()
    async with running(make_config(tmp_path / "data")):
        assert scoring._RANK_POINTS and crib_values.load_table.cache_info().currsize == 1


def test_start_up_is_collected_and_frozen_before_the_door_listens(tmp_path: Path) -> None:
    """``serve`` collects and freezes what start-up made before the first
    listener opens: that collection paused the door 49 ms (bench.load
    --gc-probe), and a caller who connected at once waited through it."""
    proc, _, _ = start_server_process(tmp_path / "data")
    try:
        lines = list(proc.log_tail)  # type: ignore[attr-defined]
        frozen = [i for i, line in enumerate(lines) if "start-up collected and frozen" in line]
        listening = [i for i, line in enumerate(lines) if "listening on" in line]
        assert frozen and frozen[0] < listening[0], "".join(lines)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
