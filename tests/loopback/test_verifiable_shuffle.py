"""A shuffle anyone can verify, as a caller sees it: the
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


class Asked(Player):
    """A :class:`Player` that stops at "Play again?" without answering."""

    async def act(self, prompt: str, screen: str) -> bool | str:
        if prompt.startswith("Play again?"):
            self.final_screen = screen
            return "over"
        return await super().act(prompt, screen)


async def test_the_door_commits_to_its_seed_before_the_caller_can_set_theirs(tmp_path: Path) -> None:
    """The door's seed is drawn, and its SHA-256 shown, before the
    caller's seed is fixed: on the options screen, above the caller's
    seed; and after a game, the next game's seed is committed (to the seed
    just revealed) before "Play again?", where S sets a new seed.  Each
    game's number comes from its seed (the door cannot choose it either)."""
    from engine.shuffle import game_number

    data = tmp_path / "data"
    async with running(make_config(data, game_to=61)) as door:
        caller = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
        screen = caller.screen
        await caller.send(b"1")
        await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
        options = screen.text()
        committed = re.search(r"seed is fixed already:\s+SHA-256 ([0-9a-f]{64})", options)
        assert committed, options
        assert options.index(committed.group(1)) < options.index("Your seed")  # shown before the seed is set
        await caller.send(b"Y")
        await screen.wait_for(lambda: "Your seed:" in screen.text())
        await caller.send(b"chosen after the commitment\r")
        await screen.wait_for(lambda: "Press 1 or 2" in screen.text())
        assert committed.group(1) in screen.text()  # the same commitment: the door did not draw again
        await caller.send(b"1")
        await screen.wait_for(lambda: "The seed is shown when the game ends" in joined(screen.text()), timeout=20)
        start = joined(screen.text())
        shown = re.search(r"commits to ([0-9a-f]{64}) \(SHA-256\); your seed is ([0-9a-f]{64})\.", start)
        assert shown and shown.group(1) == committed.group(1), start
        assert shown.group(2) == hashlib.sha256(b"chosen after the commitment").hexdigest()
        final = await Asked(screen, caller.send, name="Ann", password="ann-secret").play(timeout=200)
        seed = re.search(r"Door's seed: ([0-9a-f]{64})", final)
        assert seed and hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == committed.group(1), final
        assert "SHA-256 of the next game's seed here" in joined(final)
        number = re.search(r"Game #(\d+)", final)
        assert number and int(number.group(1)) == game_number(seed.group(1)), final
        # the next game's seed hashes to the seed just shown: a new seed set now is chosen after it
        await caller.send(b"s")
        await screen.wait_for(lambda: screen.prompt().startswith("Your seed:"))
        await caller.send(b"second words\r")
        await screen.wait_for(lambda: screen.prompt().startswith("Play again?")
                              and "Your seed is now 'second words'." in joined(screen.text()))
        await caller.send(b"y")
        second = hashlib.sha256(b"second words").hexdigest()
        await screen.wait_for(lambda: f"your seed is {second}" in joined(screen.text()), timeout=20)
        account = await door.store.accounts.find("Ann")
        saved = await door.store.saved.load(account.id)
        assert saved is not None and saved.shuffle is not None
        assert saved.shuffle.player_seeds[0] == second
        assert saved.shuffle.commitment == seed.group(1)  # committed before the seed was changed
        caller.close()
    # the second game was left unfinished; the first verifies from its seeds
    proc = verify(data)
    assert proc.returncode == 0 and "0 failed" in proc.stdout, proc.stdout + proc.stderr
