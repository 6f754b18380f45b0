"""Kept games at scale: 10,000 open games among 2,000 accounts (mostly
correspondence games between two accounts, with deadlines, and a game
against the computer for each account), each with an action log of a
random length, in one store; then the login's "your move" summary
(``SavedGames.waiting_on``: one indexed query) and the list of an
account's games (``SavedGames.unfinished``: every game replayed for its
state, as each game's last move left it, or with every log replayed)
timed for a sample of accounts, through the store as a session calls it.

    python3 -m bench.kept_games [--games 10000] [--accounts 2000] [--sample 500] [--runs 3] [--postgres]

Prints, for SQLite (and PostgreSQL with ``--postgres``, on a throwaway
server started as the tests start one; skipped when it is not
installed), the time to fill the store, then each call's p50 and p99 in
milliseconds, the medians over the runs, and the time the schema's
contract step (:mod:`door.records.kept_migration`) takes over the games.  Target (correspondence play):
summary and list p99 <= 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.throwaway_postgres import throwaway_postgres  # noqa: E402
from door.records.connection import Connection  # noqa: E402
from door.records.game_kinds import KEPT_LIMITS, GameKind  # noqa: E402
from door.records.kept_list import kept_games  # noqa: E402
from door.records.kept_migration import contract_many_games  # noqa: E402
from door.records.saved_rows import to_move_of  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.notation import action_to_text, rules_to_dict  # noqa: E402
from engine.rules import Rules  # noqa: E402

RULES = Rules()
LOGS = 40
"""Distinct games whose logs (cut at random lengths) the kept games carry."""
DAY = 86_400.0


def a_log(number: int, rng: random.Random) -> tuple[list[str], list[tuple[int, int, int, int | None]]]:
    """A game but its last move, each seat taking a random legal action:
    its actions as text, and after each number of them (0 first) its hand,
    both scores and the seat to move, as a table's journal keeps them."""
    game = Game(RULES, number)
    game.start()
    actions: list[str] = []
    stands = [(game.hand_number, *game.scores(), to_move_of(game))]
    while True:
        action = rng.choice(game.legal_actions(game.to_act()[0]))
        game.apply(action)
        if game.over:
            return actions, stands  # (the last move ends it: a kept game is unfinished)
        actions.append(action_to_text(action))
        stands.append((game.hand_number, *game.scores(), to_move_of(game)))


def fill(db: Connection, games: int, accounts: int, seed: int) -> None:
    """``accounts`` accounts and ``games`` kept games in one transaction:
    one against the computer an account (while games last), the rest
    correspondence games between two accounts, none past its kind's limit."""
    rng = random.Random(seed)
    logs = [(number, a_log(number, rng)) for number in range(1, LOGS + 1)]
    db.executemany("INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, 'x', 0)",
                   [(f"Player{i}", f"player{i}") for i in range(accounts)])
    ids = [int(r[0]) for r in db.execute("SELECT id FROM accounts ORDER BY id").fetchall()]
    rules = json.dumps(rules_to_dict(RULES))
    per_account = dict.fromkeys(ids, 0)
    limit = KEPT_LIMITS[GameKind.CORRESPONDENCE]
    now = 1_800_000_000.0
    for n in range(games):
        number, (log, stands) = rng.choice(logs)
        moved = rng.randrange(len(log) + 1)
        actions, (hand, score0, score1, to_move) = log[:moved], stands[moved]
        if n < min(accounts, games // 5):
            owner, other, kind, opponent, deadline, days = ids[n], None, GameKind.COMPUTER, "computer", None, None
        else:
            owner, other = rng.sample(ids, 2)
            while per_account[owner] >= limit or per_account[other] >= limit:
                owner, other = rng.sample(ids, 2)
            per_account[owner] += 1
            per_account[other] += 1
            days = rng.choice((1, 3, 7))
            kind, opponent, deadline = GameKind.CORRESPONDENCE, "caller", now + rng.random() * days * DAY
        row = db.execute(
            "INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, match_points, started, seat, "
            "other_account, players, kind, updated, to_move, deadline, days_per_move, hand, score0, score1) "
            "VALUES (?, ?, ?, NULL, ?, '[0, 0]', ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (owner, opponent, number, rules, now - 30 * DAY, rng.randrange(2), other, kind.value,
             now - rng.random() * DAY, to_move, deadline, days, hand, score0, score1)).fetchone()
        db.executemany("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       [(row[0], seq, text) for seq, text in enumerate(actions)])


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def timed(call: Callable[[int], Awaitable[object]], accounts: list[int]) -> list[float]:
    times = []
    for account in accounts:
        start = time.perf_counter()
        await call(account)
        times.append(time.perf_counter() - start)
    return times


async def measure(where: Path | str, label: str, args: argparse.Namespace) -> None:
    store = await Store.open(where)
    try:
        start = time.perf_counter()
        await store.database.tx(lambda db: fill(db, args.games, args.accounts, args.seed))
        filled = time.perf_counter() - start
        ids = await store.database.query(lambda db: [int(r[0]) for r in db.execute("SELECT id FROM accounts")])
        rows = await store.database.query(lambda db: db.execute(
            "SELECT COUNT(*), (SELECT COUNT(*) FROM saved_actions) FROM saved_games").fetchone())
        print(f"{label}: {rows[0]} kept games ({rows[1]} actions) among {len(ids)} accounts, filled in {filled:.1f} s")
        rng = random.Random(args.seed)
        calls: dict[str, Callable[[int], Awaitable[object]]] = {
            "waiting_on": store.saved.waiting_on,
            "unfinished (your move)": lambda a: store.saved.unfinished(a, waiting=True),
            "unfinished (all)": store.saved.unfinished,
            "unfinished (all, every log replayed)": lambda a: store.database.query(
                lambda db: kept_games(db, a, stood=False)),
        }
        summary: dict[str, list[float]] = {}
        for run in range(args.runs):
            sample = rng.sample(ids, min(args.sample, len(ids)))
            said = []
            for name, call in calls.items():
                values = await timed(call, sample)
                summary.setdefault(f"{name} p50", []).append(pct(values, 0.5))
                summary.setdefault(f"{name} p99", []).append(pct(values, 0.99))
                said.append(f"{name} p50 {pct(values, 0.5):.2f} p99 {pct(values, 0.99):.2f}")
            print(f"  run {run + 1} ({len(sample)} accounts, ms): " + "; ".join(said))
        games = [len(await store.saved.unfinished(a)) for a in ids[:200]]
        mine = [len(await store.saved.unfinished(a, waiting=True)) for a in ids[:200]]
        print(f"  median of {args.runs} runs (ms): " + "; ".join(
            f"{name} {statistics.median(values):.2f}" for name, values in summary.items()))
        print(f"  an account lists {statistics.mean(games):.1f} games, {statistics.mean(mine):.1f} waiting on it "
              "(target: summary and list p99 <= 20 ms)")
        start = time.perf_counter()
        await store.database.tx(contract_many_games)
        print(f"  the contract step (SQLite: both tables made again; PostgreSQL: a constraint dropped) over "
              f"{rows[0]} games: {time.perf_counter() - start:.1f} s")
    finally:
        await store.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-kept-") as tmp:
        await measure(Path(tmp) / DATABASE_NAME, "SQLite", args)
    if not args.postgres:
        return
    with throwaway_postgres() as pg:
        if pg is not None:
            await measure(pg.new_database(), "PostgreSQL", args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="kept games (default 10,000)")
    parser.add_argument("--accounts", type=int, default=2_000, help="accounts (default 2,000)")
    parser.add_argument("--sample", type=int, default=500, help="accounts timed each run (default 500)")
    parser.add_argument("--runs", type=int, default=3, help="runs, each over a new sample (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the random generator's seed (default 1)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too, on a throwaway server")
    asyncio.run(main(parser.parse_args()))
