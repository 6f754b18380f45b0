"""``cribbage-door door`` as a BBS runs it: over standard input and output
on a pseudo-terminal, with a generated DOOR32.SYS; a whole game in CP437,
recorded under the BBS name; the time limit; a broken drop file."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from door.records.store import DATABASE_NAME, Store
from tests.support.player import ClientScreen, Cp437Screen, Player
from tests.support.pty_door import CONFIG, PtyDoor, door32


@pytest.mark.slow
async def test_door_mode_plays_a_whole_game_and_records_it(tmp_path: Path) -> None:
    door = PtyDoor(tmp_path, door32(tmp_path))
    await door.start()
    s = door.screen
    await s.wait_for(lambda: "Main menu" in s.text() and "Welcome, Doorman." in s.text(), timeout=20)
    assert "Terminal: ANSI-BBS (CP437)" in s.text() and "Play the sysop" not in s.text()
    player = Player(s, door.send, name="Doorman")
    screen = await player.play(timeout=200)
    assert "Doorman" in screen or "Doorma" in screen
    await player.leave()
    assert await door.finish() == 0
    store = await Store.open(tmp_path / "data" / DATABASE_NAME)
    games = await store.games.recent("Doorman")
    await store.close()
    assert len(games) == 1 and max(games[0].scores) == 121


async def test_a_bbs_caller_without_ansi_gets_plain_lines(tmp_path: Path) -> None:
    """The drop file says ASCII (no ANSI at all): the line
    presentation, with not one escape sequence."""
    door = PtyDoor(tmp_path, door32(tmp_path, "Teletype", emulation=0))
    await door.start()
    s = door.screen
    await s.wait_for(lambda: "T or Q." in bytes(s.raw).decode("cp437"), timeout=20)
    raw = bytes(s.raw)
    assert b"Screen-reader mode is on" in raw and b"Welcome, Teletype." in raw
    await door.send(b"q")
    assert await door.finish() == 0
    assert b"Thanks for playing" in bytes(s.raw) and b"\x1b" not in bytes(s.raw)  # the goodbye too


async def test_door_mode_ends_when_the_time_is_up(tmp_path: Path) -> None:
    door = PtyDoor(tmp_path, door32(tmp_path, "Latecomer", minutes=0))
    await door.start()
    await door.screen.wait_for(lambda: "Your time is up" in door.screen.text(), timeout=20)
    # on the screen's first row, nothing scrolled away below it
    assert door.screen.lines()[0].startswith("Your time is up")
    assert await door.finish() == 0


async def test_door_mode_refuses_a_broken_drop_file(tmp_path: Path) -> None:
    broken = tmp_path / "door32.sys"
    broken.write_text("2\r\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door.cli", "door", "--dropfile", str(broken), "--data-dir", str(tmp_path / "d"),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 2 and b"line 2: expected the comm or socket handle" in err


class SocketDoor:
    """The door command talking over one end of a socket pair, read through
    a CP437 screen of 80x25 (``writer`` sends the client's bytes)."""

    def __init__(self, proc: asyncio.subprocess.Process, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.proc, self.writer = proc, writer
        self.screen = Cp437Screen(80, 25)
        self._task = asyncio.create_task(self._pump(reader))

    async def _pump(self, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(4096):
            self.screen.feed(data)

    async def ends(self) -> int:
        """The door's exit status, once its output has ended."""
        await asyncio.wait_for(self._task, 20)
        code = await asyncio.wait_for(self.proc.wait(), 20)
        self.writer.close()
        return code


async def socket_door(tmp_path: Path, dropfile: Callable[[int], Path], as_stdio: bool) -> SocketDoor:
    """Start the door with the far end of a socket pair passed as an
    inherited handle, or (``as_stdio``) as its standard input and output;
    ``dropfile`` writes the drop file, given that end's descriptor."""
    import socket

    ours, theirs = socket.socketpair()
    config = tmp_path / "door.toml"
    config.write_text(CONFIG)
    io: dict[str, Any] = ({"stdin": theirs.fileno(), "stdout": theirs.fileno()} if as_stdio else
                          {"stdin": asyncio.subprocess.DEVNULL, "pass_fds": [theirs.fileno()]})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door.cli", "door", "--dropfile", str(dropfile(theirs.fileno())),
        "--config", str(config), "--data-dir", str(tmp_path / "data"), **io)
    theirs.close()
    return SocketDoor(proc, *await asyncio.open_connection(sock=ours))


async def test_door_mode_over_a_telnet_socket_handle(tmp_path: Path) -> None:
    def drop(handle: int) -> Path:
        path = tmp_path / "DOOR32.SYS"
        path.write_text("\n".join(["2", str(handle), "38400", "Mystic", "1", "Sock Et", "socket", "10", "30",
                                   "1", "4"]) + "\n")
        return path

    door = await socket_door(tmp_path, drop, as_stdio=False)
    screen = door.screen
    await screen.wait_for(lambda: "Welcome, socket." in screen.text(), timeout=20)
    # telnet commands from the BBS's client are stripped; the key after them counts
    door.writer.write(b"\xff\xfb\x1f\xff\xfa\x1f\x00\x50\x00\x19\xff\xf0" + b"t")
    await screen.wait_for(lambda: "Do you see a heart here?" in screen.text())
    door.writer.write(b"y")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    door.writer.write(b"q")
    assert await door.ends() == 0
    assert "Thanks for playing cribbage, socket" in screen.text()


@pytest.mark.slow
async def test_door_mode_with_the_telnet_socket_as_standard_input(tmp_path: Path) -> None:
    """WWIV's STDIO chains on Linux dup2 the caller's telnet socket onto the
    door's standard input and output: the client's telnet commands arrive
    among the keys and must not be taken for keys."""
    door = await socket_door(tmp_path, lambda _: door32(tmp_path, name="Wendy"), as_stdio=True)
    screen = door.screen
    await screen.wait_for(lambda: "Welcome, Wendy." in screen.text(), timeout=20)
    door.writer.write(b"t")
    await screen.wait_for(lambda: "Do you see a heart here?" in screen.text())
    door.writer.write(b"y")
    await screen.wait_for(lambda: "Main menu" in screen.text())
    # the client's WILL NAWS and a new size of 113 x 25: 113 is "q", which
    # read as a key would quit the door
    door.writer.write(b"\xff\xfb\x1f\xff\xfa\x1f\x00q\x00\x19\xff\xf0")
    await asyncio.sleep(1.5)
    assert door.proc.returncode is None and "Thanks for playing" not in screen.text()
    door.writer.write(b"q")
    assert await door.ends() == 0
    assert "Thanks for playing cribbage, Wendy" in screen.text()


async def run_door_command(tmp_path: Path, dropfile: Path, stdin: int | None = None) -> tuple[int, bytes]:
    config = tmp_path / "door.toml"
    config.write_text(CONFIG)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door.cli", "door", "--dropfile", str(dropfile), "--config", str(config),
        "--data-dir", str(tmp_path / "data"), stdin=stdin if stdin is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, err


@pytest.mark.parametrize("handle", ["0", "99"])
async def test_a_comm_handle_that_is_not_a_socket_is_one_line(tmp_path: Path, handle: str) -> None:
    """Standard input (a file here) or a closed descriptor."""
    path = tmp_path / "door32.sys"
    path.write_text("\r\n".join(["2", handle, "38400", "BBS", "7", "Door Man", "Doorman", "50", "30", "1", "2"]))
    with open(path, "rb") as stdin:
        code, err = await run_door_command(tmp_path, path, stdin.fileno())
    assert code == 2 and b"Traceback" not in err
    assert err.count(b"\n") == 1 and b"is not a telnet socket" in err


@pytest.mark.parametrize("handle", ["-2", "1" + "0" * 20])
async def test_an_impossible_comm_handle_is_one_line_and_status_2(tmp_path: Path, handle: str) -> None:
    """These ended in a traceback."""
    path = tmp_path / "door32.sys"
    path.write_text("\r\n".join(["2", handle, "38400", "BBS", "7", "Door Man", "Doorman", "50", "30", "1", "2"]))
    code, err = await run_door_command(tmp_path, path)
    assert code == 2 and b"Traceback" not in err
    assert err.count(b"\n") == 1 and b"line 2: expected the comm or socket handle" in err and str(path).encode() in err


async def test_the_alias_computer_is_refused_in_one_line(tmp_path: Path) -> None:
    code, err = await run_door_command(tmp_path, door32(tmp_path, name="COMPUTER"))
    assert code == 2 and b"Traceback" not in err
    assert err.count(b"\n") == 1 and b"is reserved" in err


def test_an_absurd_time_limit_is_clamped(tmp_path: Path) -> None:
    from door.net.dropfile import MAX_MINUTES, parse_dropfile

    info = parse_dropfile(door32(tmp_path, minutes=10 ** 30))
    assert info.minutes_left == MAX_MINUTES


async def test_door_mode_reads_no_standard_input_while_its_relay_is_full() -> None:
    """A BBS caller pasting into a door process whose relay to the server
    takes no more: the stdin thread waits for room before each read, so
    the paste waits in the pipe (64 KiB), not in this process; once the
    relay drains, every byte comes through in order."""
    import os
    import threading

    from door.net.bbs_terminals import StdioTerminal
    from door.net.charset import UTF8
    read_end, write_end = os.pipe()
    terminal = StdioTerminal(80, 24, UTF8, stdin=read_end, stdout=os.open(os.devnull, os.O_WRONLY))
    got = bytearray()
    terminal.tap = got.extend  # as a relay sets it
    terminal.hold_input()  # the relay's far end is full
    pump = asyncio.create_task(terminal.pump())
    flood = bytes(range(256)) * 256 * 64  # 4 MiB
    written = 0

    def paste() -> None:
        nonlocal written
        for at in range(0, len(flood), 65536):
            os.write(write_end, flood[at:at + 65536])
            written = at + 65536
        os.close(write_end)

    threading.Thread(target=paste, daemon=True).start()
    await asyncio.sleep(0.5)
    assert len(got) == 0 and written <= 2 * 65536  # held: the paste waits in the pipe
    terminal.release_input()
    await asyncio.wait_for(pump, 10)
    assert bytes(got) == flood
    os.close(read_end)


async def test_door_mode_redraws_when_the_window_changes(tmp_path: Path) -> None:
    """SIGWINCH on the door's terminal: the new size is read and the menu
    is drawn again, 100 columns wide."""
    door = PtyDoor(tmp_path, door32(tmp_path))
    await door.start()
    s = door.screen
    await s.wait_for(lambda: "Main menu" in s.text(), timeout=20)
    door.resize(100, 25)
    await s.wait_for(lambda: s.lines()[0].rstrip().endswith("Main menu") and len(s.lines()[0].rstrip()) > 90)
    await door.send(b"q")
    assert await door.finish() == 0


# -- modern drop files ---------------------------------------------------------------------------------

def bbsdev_drp(tmp_path: Path, lines: dict[int, str] | None = None) -> Path:
    """A BBSDEV.DRP for a stdio door: 100 columns by 30 lines, UTF-8, an hour left."""
    logoff = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    fields = ["1.0", "stdio", "", "Zoë", "u17", "100", "30", "Y", "N", "", logoff, "UTF-8", "en-GB", "DeuceGate 1.0",
              "The Board", "Sysop", "50", "3", "N"]
    for n, value in (lines or {}).items():
        fields[n - 1] = value
    path = tmp_path / "bbsdev.drp"
    path.write_bytes(("\r\n".join(fields) + "\r\n").encode("utf-8"))
    return path


async def test_a_bbsdev_drp_named_by_the_environment_gives_the_real_size_and_charset(tmp_path: Path) -> None:
    """No --dropfile: BBSDEV_DRP names it; the door uses its 100x30 and
    UTF-8 (the pseudo-terminal says 80x25, as a BBS's often wrongly does)."""
    door = PtyDoor(tmp_path, None, screen=ClientScreen(100, 30),
                   env={"BBSDEV_DRP": str(bbsdev_drp(tmp_path))})
    await door.start()
    s = door.screen
    await s.wait_for(lambda: "Main menu" in s.text() and "Welcome, Zoë." in s.text(), timeout=20)
    title = s.lines()[0]
    assert title.rstrip().endswith("Main menu") and len(title.rstrip()) > 90  # drawn to 100 columns
    assert "Terminal: UTF-8" in s.text()
    await door.send(b"q")
    assert await door.finish() == 0


def test_show_dropfile_prints_each_field_or_the_one_line_error(tmp_path: Path) -> None:
    import subprocess

    drop = bbsdev_drp(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "door.cli", "door", "--show-dropfile"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "BBSDEV_DRP": str(drop)})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for want in ("format:         BBSDEV.DRP", "caller:         Zoë", "transport:      local (standard input",
                 "screen:         100 columns x 30 lines", "character set:  utf-8", "language:       en-GB",
                 "node:           3", "board:          The Board (DeuceGate 1.0)"):
        assert want in out, out
    assert re.search(r"time left: +(59|60) minutes", out), out
    bad = bbsdev_drp(tmp_path, {8: "maybe"})
    proc = subprocess.run([sys.executable, "-m", "door.cli", "door", "--show-dropfile", "--dropfile", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "line 8: expected ANSI as Y or N" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "door.cli", "door", "--show-dropfile"], capture_output=True,
                          text=True, timeout=60, env={k: v for k, v in os.environ.items() if k != "BBSDEV_DRP"})
    assert proc.returncode == 2 and "no drop file: give --dropfile" in proc.stderr
