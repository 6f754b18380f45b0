"""A shuffle anyone can verify (issue 36.5), as a caller sees it: the
commitment before the cut, the seed after the game, the seeds in Recent
games, and ``cribbage-door verify`` dealing the game again from them (and
failing on a changed seed or a changed deal)."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support.player import Player, log_in_registered
from tests.support.server import make_config, running


def verify(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "door.cli", "verify", "--data-dir", str(data)],
                          capture_output=True, text=True, timeout=60)


def joined(text: str) -> str:
    """The screen's text with the chat window's wrapped lines joined."""
    return re.sub(r"\s+", " ", text)


async def test_a_game_shows_its_commitment_then_its_seed_and_verify_deals_it_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with running(make_config(data, game_to=61)) as door:
        caller = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
        screen = caller.screen
        await caller.send(b"1")
        await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
        assert "Y  Your seed     drawn for this call" in screen.text()
        await caller.send(b"Y")
        await screen.wait_for(lambda: "Your seed:" in screen.text())
        await caller.send(b"my lucky words\r")
        await screen.wait_for(lambda: "'my lucky words': your part of every shuffle" in screen.text())
        await caller.send(b"1")
        await screen.wait_for(lambda: "The seed is shown when the game ends" in joined(screen.text()), timeout=20)
        start = joined(screen.text())
        shown = re.search(r"commits to ([0-9a-f]{64}) \(SHA-256\); your seed is ([0-9a-f]{64})\.", start)
        assert shown, start
        commitment, mine = shown.groups()
        assert mine == hashlib.sha256(b"my lucky words").hexdigest()  # the words typed, hashed
        assert "The seed is shown when the game ends" in start
        final = await Player(screen, caller.send, name="Ann", password="ann-secret").play(timeout=200)
        seed = re.search(r"Door's seed: ([0-9a-f]{64})", final)
        assert seed, final
        assert re.search(r"(You|Computer) wins? 61 to \d+", final), final  # the result stays on screen above it
        assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == commitment
        await screen.wait_for(lambda: "Main menu" in screen.text())
        await caller.send(b"5")
        await screen.wait_for(lambda: "Seeds of game #" in screen.text())
        page = screen.text()
        assert f"door   {seed.group(1)}" in page and f"sha256 {commitment}" in page and f"Ann    {mine}" in page
        caller.close()

    proc = verify(data)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "verified 1 of 1 games (1 from their seeds, 0 numbered); 0 failed" in proc.stdout
    assert re.search(r"game 1 \(#\d+\): \d+ shuffles dealt again as recorded, from the seeds", proc.stdout)

    db = sqlite3.connect(data / "cribbage.sqlite3")
    stored = db.execute("SELECT shuffle FROM games").fetchone()[0]
    other = json.loads(stored) | {"server_seed": "0" * 64}  # a changed seed: the commitment no longer matches
    db.execute("UPDATE games SET shuffle = ?", (json.dumps(other),))
    db.commit()
    proc = verify(data)
    assert proc.returncode == 1 and "FAILED: seeds: the commitment does not match the server seed" in proc.stdout

    db.execute("UPDATE games SET shuffle = ?", (stored,))  # the seeds back, one card of hand 2 changed
    cards = db.execute("SELECT cards FROM game_deals WHERE shuffle = 2").fetchone()[0].split()
    cards[3], cards[4] = cards[4], cards[3]
    db.execute("UPDATE game_deals SET cards = ? WHERE shuffle = 2", (" ".join(cards),))
    db.commit()
    db.close()
    proc = verify(data)
    assert proc.returncode == 1 and "FAILED: hand 2 was" in proc.stdout, proc.stdout
    assert "0 failed" not in proc.stdout and "Traceback" not in proc.stderr
