"""Size of the database after N recorded games (default 1,000), each with
its hands, played computer against computer and recorded as a registered
player's games would be.

    python3 -m bench.db_size [--games N]

Prints the file size in bytes (after a WAL checkpoint), per game, and the
time taken to write the records.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.records.games import GameRecord
from door.records.passwords import hash_password  # noqa: E402
from door.records.saved_games import GameStart
from door.records.store import DATABASE_NAME, Store  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.hard import HardPlayer
from engine.rules import Rules  # noqa: E402
from engine.strategy import choose_action  # noqa: E402
from engine.tally import GameTally  # noqa: E402


def play(number: int) -> tuple[Game, GameTally]:
    game, recorder = Game(Rules(), number), GameTally()
    recorder.feed(game.start())
    players = [HardPlayer(random.Random(number)), HardPlayer(random.Random(-number))]
    while not game.over:
        seat = game.to_act()[0]
        recorder.feed(game.apply(choose_action(game, seat, players[seat])))
    return game, recorder


async def run(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / DATABASE_NAME
        store = await Store.open(path)
        accounts = [await store.accounts.create(f"Player{i}", hash_password("password")) for i in range(20)]
        write_time = 0.0
        for n in range(1, games + 1):
            game, recorder = play(n)
            account = accounts[n % len(accounts)]
            assert game.result is not None
            t0 = time.perf_counter()
            saved = await store.saved.begin(GameStart(account.id, "computer", n, None, game.rules, (0, 0)))
            for i, action in enumerate(game.actions):
                await store.saved.append(saved, i, action)
            await store.games.record(saved, GameRecord(n, game.rules, (account.name, "Computer"), (account.id, None),
                                    "computer", game.result, recorder.hands, time.time()))
            write_time += time.perf_counter() - t0
        await store.close()
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.close()
        size = os.path.getsize(path)
    print(f"database after {games:,} games (20 players, every action logged then recorded): "
          f"{size:,} bytes ({size / 1024:.0f} KiB, {size / games:.0f} bytes per game)")
    print(f"store time per game (action log + record, each write committed): {1000 * write_time / games:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    asyncio.run(run(parser.parse_args().games))


if __name__ == "__main__":
    main()
