"""``cribbage-door sorry``: when no node answers, a caller reads that the
door is down for maintenance: the system ``telnet`` program on its telnet
port, a browser a 503 on its web port; words that not every terminal can
show are refused at the command line."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pexpect
import pytest

WORDS = "Cribbage is down for a new release. Back at 09:00 UTC."


@pytest.fixture
def sorry() -> Iterator[dict[str, int]]:
    proc = subprocess.Popen([sys.executable, "-m", "door.cli", "sorry", "--host", "127.0.0.1", "--telnet-port", "0",
                             "--web-port", "0", "--message", WORDS], stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    ports: dict[str, int] = {}
    deadline = time.monotonic() + 20
    while len(ports) < 2 and time.monotonic() < deadline:
        line = proc.stderr.readline()
        found = re.search(r"sorry: (telnet|web) listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            ports[found.group(1)] = int(found.group(2))
        elif not line:
            break
    try:
        assert len(ports) == 2, "the sorry listener did not announce its ports"
        yield ports
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0


@pytest.mark.skipif(shutil.which("telnet") is None, reason="the system telnet program is not installed")
def test_the_system_telnet_reads_that_the_door_is_down(sorry: dict[str, int]) -> None:
    child = pexpect.spawn("telnet", ["127.0.0.1", str(sorry["telnet"])], timeout=10, encoding="utf-8")
    try:
        child.expect(re.escape(WORDS))
        child.expect(pexpect.EOF)  # (it hangs up)
    finally:
        child.close(force=True)


def test_a_browser_gets_a_503_with_the_words(sorry: dict[str, int]) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://127.0.0.1:{sorry['web']}/table", timeout=10)
    assert refused.value.code == 503
    assert refused.value.headers["Retry-After"] == "120"
    assert refused.value.read().decode().strip() == WORDS


def test_words_every_terminal_cannot_show_are_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "door.cli", "sorry", "--message", "Zurück um 9 Uhr"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "printable ASCII" in done.stderr
