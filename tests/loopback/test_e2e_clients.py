"""End to end: ``cribbage-door serve`` as a subprocess, driven by the
system ``telnet`` and ``ssh`` programs under a pseudo-terminal (pexpect),
through the name, the run mode, the discard and the first card played."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.server import start_server_process

pytestmark = pytest.mark.e2e

RIGHT = "\x1b[C"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int, subprocess.Popen, Path]]:
    data = tmp_path_factory.mktemp("e2e") / "data"
    proc, telnet_port, ssh_port = start_server_process(data, "--computer-delay", "0.05")
    assert oct((data / "ssh_host_ed25519_key").stat().st_mode & 0o777) == "0o600"
    yield telnet_port, ssh_port, proc, data
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0


class PtyScreen:
    """A client program under a pseudo-terminal, its output shown by pyte."""

    def __init__(self, argv: list[str], term: str, cols: int = 80, rows: int = 24) -> None:
        env = dict(os.environ, TERM=term, LANG="C.UTF-8")
        self.child = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(rows, cols), encoding=None)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, wait: float = 0.1) -> None:
        try:
            while True:
                data = self.child.read_nonblocking(65536, timeout=wait)
                self.stream.feed(data)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            pass

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def until(self, predicate: Callable[[str], bool], timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            text = self.text()
            if predicate(text):
                return text
        raise AssertionError(f"timed out; screen:\n{self.text()}")

    def send(self, keys: str) -> None:
        self.child.send(keys.encode())


def drive_to_first_card(client: PtyScreen, name: str | None) -> None:
    client.until(lambda s: "Your name:" in s)
    if name is not None:
        client.send(name + "\r")
    else:
        client.send("\r")
    client.until(lambda s: "is not registered" in s)
    client.send("g")
    client.until(lambda s: "Main menu" in s)
    client.send("1")
    client.until(lambda s: "Press 1 or 2" in s)
    client.send("1")
    client.until(lambda s: "blank line deals" in s)  # chat mode before the deal (the original door)
    client.send("\r")
    text = client.until(lambda s: "Choose 2 cards" in s)
    assert "Your cards" in text and "Dealer:" in text
    # the cyan bar starts on the first card; RETURN selects it (yellow)
    row = next(i for i, line in enumerate(client.screen.display) if line.startswith(" Your cards")) + 2
    assert client.screen.buffer[row][2].bg == "cyan"
    client.send("\r" + RIGHT)
    client.until(lambda s: client.screen.buffer[row][7].bg == "cyan")
    assert client.screen.buffer[row][2].bg == "brown"  # selected: ANSI yellow, pyte's "brown"
    client.send("\r")
    client.until(lambda s: "RETURN lays away" in s)
    client.send("\r")
    # after both discards the starter is cut and the pone leads
    text = client.until(lambda s: "The starter is" in s)
    text = client.until(lambda s: "Your turn" in s or re.search(r"Computer plays \S+, count", s) is not None)
    if "Your turn" in client.screen.display[-1]:
        marks = client.screen.display[row - 1]
        client.send("\r")
        # a play-order mark appears above the card played (the original door)
        client.until(lambda s: client.screen.display[row - 1].strip() not in ("", marks.strip()))
    else:
        assert re.search(r"Computer plays \S+, count \d+", text)


@pytest.mark.skipif(shutil.which("telnet") is None, reason="the telnet client is not installed")
@pytest.mark.parametrize("term", ["xterm", "ansi"])
def test_system_telnet(served, term: str) -> None:
    telnet_port, _, _, _ = served
    client = PtyScreen(["telnet", "-E", "127.0.0.1", str(telnet_port)], term)
    if term == "ansi":
        # a BBS terminal type gets CP437: decode it before the emulator sees it
        client.stream = _Cp437Stream(client.screen)
    try:
        drive_to_first_card(client, "Teletype")
        assert "Telety" in client.text()
        if term == "ansi":  # inetutils sends TERM upper-cased: "ANSI" still means CP437
            assert client.stream.suit_bytes and not client.stream.utf8_lead_bytes
    finally:
        client.child.terminate(force=True)


class _Cp437Stream:
    """Decodes CP437 (suits as bytes 3-6) for pyte, noting what it saw."""

    SUITS = {3: "\u2665", 4: "\u2666", 5: "\u2663", 6: "\u2660"}

    def __init__(self, screen: pyte.Screen) -> None:
        self.stream = pyte.Stream(screen)
        self.suit_bytes = 0
        self.utf8_lead_bytes = 0

    def feed(self, data: bytes) -> None:
        self.suit_bytes += sum(data.count(b) for b in (3, 4, 5, 6))
        self.utf8_lead_bytes += data.count(0xE2)  # box drawing and suits in UTF-8 start so
        self.stream.feed("".join(self.SUITS.get(b) or bytes([b]).decode("cp437") for b in data))


@pytest.mark.skipif(shutil.which("ssh") is None, reason="the ssh client is not installed")
def test_system_ssh(served) -> None:
    _, ssh_port, _, _ = served
    client = PtyScreen(["ssh", "-p", str(ssh_port), "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
                        "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-e", "none",
                        "rosalind@127.0.0.1"], "xterm-256color")
    try:
        drive_to_first_card(client, None)  # the login name is offered as the caller's name
        assert "Rosali" in client.text() or "rosali" in client.text()
    finally:
        client.child.terminate(force=True)


def test_ctrl_c_stops_the_server_and_tells_callers(tmp_path: Path) -> None:
    import socket

    proc = subprocess.Popen(
        [sys.executable, "-m", "door.cli", "serve", "--telnet-port", "0", "--ssh-port", "0", "--web-port", "0",
         "--data-dir", str(tmp_path / "data"), "--reader-wait", "0"], stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    port = 0
    while not port:
        line = proc.stderr.readline()
        assert line, "the server exited before listening"
        m = re.search(r"telnet listening on 127\.0\.0\.1:(\d+)", line)
        port = int(m.group(1)) if m else 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.settimeout(10)
        got = b""
        while b"Your name" not in got:  # the client never negotiates: the door starts after connect_maxwait
            got += sock.recv(4096)
        proc.send_signal(signal.SIGINT)
        while b"shutting down" not in got:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
        assert b"shutting down" in got
    assert proc.wait(10) == 0
    assert "door stopped" in proc.stderr.read()


@pytest.mark.skipif(shutil.which("telnet") is None, reason="the telnet client is not installed")
def test_local_console_command(served) -> None:
    telnet_port, _, _, data = served
    caller = PtyScreen(["telnet", "-E", "127.0.0.1", str(telnet_port)], "xterm")
    console = PtyScreen([sys.executable, "-m", "door.cli", "console", "--data-dir", str(data)], "xterm")
    try:
        caller.until(lambda s: "Your name:" in s)
        caller.send("Watcher\r")
        caller.until(lambda s: "is not registered" in s)
        caller.send("g")
        text = console.until(lambda s: "SYSOP CONSOLE" in s and "Watcher" in s)
        assert "main menu" in text and "telnet" in text
        caller.until(lambda s: "Play the sysop" in s)  # a sysop is at the console
        console.send("q")
        console.child.expect(pexpect.EOF, timeout=10)
        console.child.close()
        assert console.child.exitstatus == 0
    finally:
        caller.child.terminate(force=True)
        console.child.terminate(force=True)


@pytest.mark.skipif(shutil.which("telnet") is None, reason="the telnet client is not installed")
def test_system_telnet_with_term_dumb_gets_plain_lines(served) -> None:
    """Debian's telnet under a PTY with TERM=dumb: screen-reader
    mode without asking, through the name, the discard and the first card,
    with no cursor addressing, erase or colour in what the door sends."""
    from tests.support.reader_bot import NOISE

    telnet_port, _, _, _ = served
    env = dict(os.environ, TERM="dumb", LANG="C.UTF-8")
    child = pexpect.spawn("telnet", ["-E", "127.0.0.1", str(telnet_port)], env=env, dimensions=(24, 80),
                          encoding=None, timeout=15)
    try:
        child.expect(b"Escape character is 'off'.\r\n|Connected to [^\r\n]*\r\n")
        child.expect(b"Screen-reader mode is on")
        door_bytes = bytearray(child.after)
        for expected, answer in [(b"Your name: ", b"Tele Type\r"), (b"Press R, G or B.", b"g"),
                                 (b"or Q.", b"1"), (b"ESC goes back.", b"1"),
                                 (b"RETURN on a blank line deals", b"\r"),
                                 (rb"Type two for your crib|Type two for Computer's crib", b"12")]:
            child.expect(expected)
            door_bytes += child.before + child.after
            child.send(answer)
        child.expect(rb"Your turn at [a-z\-]+: \d |Computer: [a-z]+, [a-z\-]+\.")
        door_bytes += child.before + child.after
        assert b"Tele Type" in door_bytes  # the name was echoed as typed
        for name, pattern in NOISE.items():
            assert not pattern.search(bytes(door_bytes)), name
    finally:
        child.terminate(force=True)
