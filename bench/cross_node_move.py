"""A move made at one node, told to the opponent on line at another: two
door servers (in this process) on one throwaway PostgreSQL, Ann by the
game protocol at node A and Bob at node B, both on line, play games by
correspondence one after another, each sitting at their own node; for
every move that leaves a game waiting on the other player, the time from
the mover's last answer sent to the other's ``your_move`` received at
their node (the peer port's ``TURN``, :mod:`door.net.peer_notes`).

    python3 -m bench.cross_node_move [--moves 300] [--runs 1]

Prints each run's p50, p99 and worst in milliseconds, with how many moves
were told (every one should be), and the medians over the runs.  Target
(the correspondence issue): p99 <= 0.5 s.  The clients run in the
servers' process and event loop, so the figure includes their own work;
loopback only, every wait bounded.  Skipped when PostgreSQL is not
installed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kept_games import pct  # noqa: E402
from bench.throwaway_postgres import throwaway_postgres  # noqa: E402
from bench.two_nodes import two_nodes  # noqa: E402
from door.server import DoorServer  # noqa: E402
from engine.rules import Rules  # noqa: E402

PASSWORD = "cross-node-bench"

WAIT = 20.0
"""Seconds any one message is waited for."""


class Program:
    """A program on line by the game protocol at one node; every message is
    stamped (``time.perf_counter``) as it arrives, by a reader of its own,
    so that a ``your_move`` waiting while the other sits is timed right."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())
        self.last_sent = 0.0
        """When this program last answered an ask (perf_counter seconds)."""

    async def _read(self) -> None:
        async for raw in self.ws:
            await self.inbox.put((time.perf_counter(), json.loads(raw)))

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, kind: str | None = None) -> tuple[float, dict[str, Any]]:
        """The next message (of ``kind``, skipping others) and when it came."""
        while True:
            at, message = await asyncio.wait_for(self.inbox.get(), WAIT)
            if kind is None or message["type"] == kind:
                return at, message

    async def sit(self, game: int) -> str:
        """Open ``game`` and answer every ask until it waits on the other
        player (``waiting``) or is over (``menu``)."""
        await self.send({"type": "open", "game": game})
        return await self.play()

    async def play(self) -> str:
        """Answer every ask until the game waits on the other player
        (``waiting``) or is over (``menu``)."""
        while True:
            _, message = await self.next()
            if message["type"] == "ask":
                ask = message["ask"]
                self.last_sent = time.perf_counter()
                await self.send({"type": "discard", "cards": message["hand"][:2]} if ask == "discard" else
                                {"type": "play", "card": message["playable"][0]} if ask == "play" else
                                {"type": "claim", "points": 0})
            elif message["type"] in ("waiting", "menu"):
                return str(message["type"])

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def program(port: int, name: str) -> Program:
    """``name`` logged in by the protocol at the node whose web port is ``port``."""
    from websockets.asyncio.client import connect

    p = Program(await connect(f"ws://127.0.0.1:{port}/api/v1/play"))
    await p.next("hello")
    await p.send({"type": "login", "name": name, "password": PASSWORD})
    await p.next("welcome")
    return p


async def seen(node: DoorServer, name: str) -> None:
    """Wait (at most :data:`WAIT` s) until ``node`` knows ``name`` is on line at another node."""
    deadline = time.monotonic() + WAIT
    while not any(p.name == name for p in node.ctx.lobby.elsewhere):
        if time.monotonic() > deadline:
            raise TimeoutError(f"node never saw {name} on line elsewhere")
        await asyncio.sleep(0.02)


async def new_game(ann: Program, bob: Program) -> int:
    """Ann offers Bob a game by correspondence; Bob takes it and discards:
    the game's id (it waits on Ann now)."""
    await ann.send({"type": "offer", "name": "Bob", "days": 3})
    await ann.next("notice")
    await bob.send({"type": "games"})
    offer = (await bob.next("games"))[1]["offers"][0]["offer"]
    await bob.send({"type": "answer", "offer": offer, "accept": True})
    await bob.play()
    await bob.send({"type": "games"})
    return int((await bob.next("games"))[1]["games"][0]["game"])


async def one_run(url: str, folder: Path, moves: int) -> tuple[list[float], int]:
    """Play until ``moves`` moves were made: the latencies (seconds) of
    those told, and how many were made."""
    latencies: list[float] = []
    made = 0
    async with two_nodes(url, folder, ("Ann", "Bob"), PASSWORD, Rules(game_to=61)) as nodes:
        ann, bob = await program(nodes[0].web_port, "Ann"), await program(nodes[1].web_port, "Bob")
        await seen(nodes[0], "Bob")
        await seen(nodes[1], "Ann")
        while made < moves:
            game = await answered_game(ann, bob)
            mover, other = ann, bob
            while made < moves:
                ended = await mover.sit(game)
                made += 1
                if ended == "menu":
                    break  # the game is over: nobody is told; the next one begins
                at, told = await other.next("your_move")
                assert told["game"] == game, told
                latencies.append(at - mover.last_sent)
                mover, other = other, mover
        for p in (ann, bob):
            await p.close()
    return latencies, made


async def answered_game(ann: Program, bob: Program) -> int:
    """A new game between Ann (node A) and Bob (node B), Bob's discard
    made at the offer's answer; Ann is told it waits on her (timed as a
    move is not: it is the answer to an offer)."""
    game = await new_game(ann, bob)
    await ann.next("your_move")
    return game


async def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves a run (default 300)")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a new database (default 1)")
    args = parser.parse_args(argv)
    if args.moves < 1 or args.runs < 1:
        parser.error("--moves and --runs are at least 1")
    logging.getLogger("door.records.migrate").setLevel(logging.ERROR)  # (each new database's schema steps)
    p50s, p99s = [], []
    with throwaway_postgres() as pg, tempfile.TemporaryDirectory(prefix="bench-cross-node-") as tmp:
        if pg is None:
            return
        for run in range(args.runs):
            folder = Path(tmp) / f"run{run}"
            folder.mkdir()
            latencies, made = await one_run(pg.new_database(), folder, args.moves)
            p50s.append(pct(latencies, 0.5))
            p99s.append(pct(latencies, 0.99))
            print(f"run {run + 1}: {made} moves, {len(latencies)} left the game waiting on the other player "
                  f"and each was told at the other node: p50 {p50s[-1]:.1f} ms, p99 {p99s[-1]:.1f} ms, worst "
                  f"{max(latencies) * 1000:.1f} ms", flush=True)
    print(f"median of {args.runs} run(s): p50 {statistics.median(p50s):.1f} ms, p99 {statistics.median(p99s):.1f} ms "
          "(target p99 <= 500 ms)")


if __name__ == "__main__":
    asyncio.run(main())
