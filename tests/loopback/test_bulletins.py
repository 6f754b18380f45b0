"""Bulletins for the BBS: after a game ends, the top players,
the recent games and the day's news in three formats, the sysop's header,
footer and CSS used and never overwritten, each file written whole."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.support.player import Player, log_in_registered
from tests.support.server import make_config, running

NAMES = [f"{b}.{s}" for b in ("top", "recent", "news", "daily") for s in ("ans", "txt", "html")]


async def test_a_finished_game_writes_three_formats_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "bulletins"
    folder.mkdir()
    own = {"header.txt": "THE BOARD\r\n", "footer.txt": "-- bye --\r\n", "header.html": "<p>My board</p>\n",
           "bulletins.css": "body { color: green }\n"}
    for name, text in own.items():
        (folder / name).write_text(text)
    (folder / "header.ans").write_bytes(b"\x1b[1;33m\xcd\xcd BOARD \xcd\xcd\x1b[0m\r\n")  # CP437 double lines
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    config = make_config(tmp_path / "data", game_to=61)
    config.bulletins.folder = str(folder)
    async with running(config) as door:
        caller = await log_in_registered(door.telnet_port, door.store, "Zoë", "zoe-secret")
        player = Player(caller.screen, caller.send, name="Zoë", password="zoe-secret")
        await player.play(timeout=200)
        ended = time.monotonic()
        while not all((folder / n).exists() for n in NAMES) and time.monotonic() - ended < 1.0:
            await asyncio.sleep(0.02)
        assert all((folder / n).exists() for n in NAMES), sorted(p.name for p in folder.iterdir())
        caller.close()
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in before} == before  # the sysop's own
    txt = (folder / "top.txt").read_bytes()
    assert txt.startswith(b"THE BOARD\r\n") and txt.endswith(b"-- bye --\r\n")
    assert max(txt) < 0x80 and b"Zo?" in txt  # plain ASCII: the name's e-diaeresis cannot be written
    ans = (folder / "top.ans").read_bytes()
    assert ans.startswith(before["header.ans"]) and b"Zo\x89" in ans  # CP437: e-diaeresis is byte 0x89
    assert b"\x1b[" in ans and not re.search(rb"[\xc2-\xf4][\x80-\xbf]", ans.replace(before["header.ans"], b""))
    html = (folder / "recent.html").read_text()
    assert "<p>My board</p>" in html and 'href="bulletins.css"' in html
    assert re.search(r"#\d+ +Zoë \d+ - Computer \d+", html)
    assert "1 game finished today" in (folder / "news.txt").read_text()
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_the_bulletins_command_writes_them_for_a_nightly_event(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "door.cli", "bulletins", "--data-dir", str(tmp_path / "data"),
                           "--folder", str(tmp_path / "out")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 12 files" in proc.stdout
    assert "No games recorded yet." in (tmp_path / "out" / "top.txt").read_text()
    proc = subprocess.run([sys.executable, "-m", "door.cli", "bulletins", "--data-dir", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--folder" in proc.stderr and "Traceback" not in proc.stderr
