"""Cribbage by correspondence at scale: 10,000 open correspondence games
among 2,000 accounts in one store (each with an action log of a random
length, deadlines of 1, 3 or 7 days a move, a share of them past their
deadline, open offers, players on vacation), then

- the login's "your move" summary (the queries of
  ``door.caller.correspondence.login_news``: ``saved.unfinished(waiting=True)``
  and ``offers.received``) and the list of an account's games
  (``saved.unfinished``), p50 and p99 for a sample of accounts;
- one sweeper pass over them (``door.records.correspondence.sweeper.sweep``
  with the game service's ``candidates`` and ``end_games`` on a
  ``GameHouse``, as a serve node runs it: losses on time kept as forfeits,
  games never begun dropped), for each share of games past their deadline
  (a tenth and a hundredth), the forfeits' hands recorded after it
  (``record_hands``), and the event loop's lateness during both, worst and
  p99 (a task waking every millisecond), beside the same with the loop
  idle as long, and the store's answers to a trivial query meanwhile (a
  caller's move waits as long for its write);
- the memory (RSS) of a ``cribbage-door serve`` node with those games in
  its store and none of their players on line, against the same node on an
  empty store;
- with ``--postgres``, two nodes (in this process) on one PostgreSQL: a
  move made at node A, and how long until the opponent, on line at node B,
  sees it in ``games``, and whether ``your_move`` came there (its latency
  over hundreds of moves: ``bench.cross_node_move``).

    python3 -m bench.correspondence [--games 10000] [--accounts 2000] [--past 0.1,0.01] [--runs 3] [--postgres] [--quick] [--queries-only]

Each run fills a new store (a new SQLite file; a new PostgreSQL database on
a throwaway server started as the tests start one, skipped when it is not
installed).  Prints each run's figures and the medians over the runs, in
milliseconds (RSS in MiB).  Targets: summary and list p99 <= 20 ms; a sweep
<= 1 s; the node's RSS with the games no more than with none.  Loopback
only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.correspondence_sweep import Lateness, StoreWaits, idle  # noqa: E402
from bench.kept_games import LOGS, RULES, a_log, pct  # noqa: E402
from bench.throwaway_postgres import throwaway_postgres  # noqa: E402
from door.games.correspondence import candidates, end_games  # noqa: E402
from door.games.house import GameHouse  # noqa: E402
from door.play.table import Table  # noqa: E402
from door.records.connection import Connection  # noqa: E402
from door.records.correspondence.deadlines import DAY  # noqa: E402
from door.records.correspondence.forfeit_hands import record_hands  # noqa: E402
from door.records.correspondence.offers import OfferTerms  # noqa: E402
from door.records.correspondence.sweeper import EndAll, Swept, sweep  # noqa: E402
from door.records.game_kinds import KEPT_LIMITS, GameKind  # noqa: E402
from door.records.saved_games import SavedGame  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402
from engine.notation import rules_to_dict  # noqa: E402

PASSWORD = "correspondence-bench"


def fill(db: Connection, games: int, accounts: int, past: float, seed: int, now: float) -> None:
    """``accounts`` accounts (named ``Player0`` ...) and ``games`` kept
    correspondence games between two of them in one transaction, none past
    its kind's limit: each at a random point of a random game (its log and
    its scores, hand and seat to move as a journal keeps them), 1, 3 or 7
    days a move, last moved within that; a share ``past`` (0 to 1) of them
    past their deadline (by up to two days); and an open offer to every
    fourth account.  Seconds are since the epoch (``now``)."""
    rng = random.Random(seed)
    logs = [(number, a_log(number, rng)) for number in range(1, LOGS + 1)]
    names = [f"Player{i}" for i in range(accounts)]
    db.executemany("INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, 'x', 0)",
                   [(name, name.lower()) for name in names])
    ids = [int(r[0]) for r in db.execute("SELECT id FROM accounts ORDER BY id").fetchall()]
    name_of = dict(zip(ids, names, strict=True))
    rules = json.dumps(rules_to_dict(RULES))
    per_account = dict.fromkeys(ids, 0)
    limit = KEPT_LIMITS[GameKind.CORRESPONDENCE]
    for _ in range(games):
        number, (log, stands) = rng.choice(logs)
        moved = rng.randrange(len(log) + 1)
        actions, (hand, score0, score1, to_move) = log[:moved], stands[moved]
        owner, other = rng.sample(ids, 2)
        while per_account[owner] >= limit or per_account[other] >= limit:
            owner, other = rng.sample(ids, 2)
        per_account[owner] += 1
        per_account[other] += 1
        seat = rng.randrange(2)
        players = [name_of[owner], name_of[other]] if seat == 0 else [name_of[other], name_of[owner]]
        days = rng.choice((1, 3, 7))
        deadline = now - rng.random() * 2 * DAY if rng.random() < past else now + rng.random() * days * DAY
        row = db.execute(
            "INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, match_points, started, seat, "
            "other_account, players, kind, updated, to_move, deadline, days_per_move, hand, score0, score1) "
            "VALUES (?, 'caller', ?, NULL, ?, '[0, 0]', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (owner, number, rules, deadline - days * DAY - DAY, seat, other, json.dumps(players),
             GameKind.CORRESPONDENCE.value, deadline - days * DAY, to_move, deadline, days, hand, score0,
             score1)).fetchone()
        db.executemany("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       [(row[0], seq, text) for seq, text in enumerate(actions)])
    terms = OfferTerms(rules_to_dict(RULES), 3).to_text()
    for n, taker in enumerate(ids[::4]):
        maker = ids[(ids.index(taker) + 1) % len(ids)]
        low, high = sorted((maker, taker))
        db.execute("INSERT INTO correspondence_offers (maker, taker, pair, address, terms, made, expires) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", (maker, taker, f"{low}:{high}", f"127.0.{n // 250}.{n % 250}",
                                                    terms, now - DAY, now + 6 * DAY))


async def fill_store(where: Path | str, args: argparse.Namespace, past: float, now: float) -> float:
    """Fill the store ``where`` (:func:`fill`) and put a tenth of its
    accounts on vacation, some of them away now: the seconds it took."""
    clock = [now]
    store = await Store.open(where, lambda: clock[0])
    try:
        start = time.perf_counter()
        await store.database.tx(lambda db: fill(db, args.games, args.accounts, past, args.seed, now))
        ids = await store.database.query(lambda db: [int(r[0]) for r in db.execute("SELECT id FROM accounts")])
        for n, account in enumerate(ids[::10]):
            clock[0] = now - (n % 4) * DAY  # (taken on the day it starts)
            await store.correspondence.vacations.take(account, clock[0], 3, 30)
        return time.perf_counter() - start
    finally:
        await store.close()


class NoTables:
    """The sweeper's node plays no game: no table runs here."""

    tables: set[Table] = set()

    def run_table(self, table: Table, resume: SavedGame | None = None) -> asyncio.Task[None]:
        raise RuntimeError("the bench runs no table")


Probes = tuple[Lateness, StoreWaits]
"""The event loop's lateness and the store's answers during a part of a step."""


async def timed_pass(store: Store, house: GameHouse, now: float) -> tuple[float, float, Probes, Probes, Swept]:
    """One step of the sweeper as the serve node runs it at ``now``: the
    pass (the game service's ``end_games``, all the games judged at once),
    then the hands of the games lost on time recorded after it
    (``record_hands``).  Returns the pass's time and the hands' time
    (milliseconds); during each, the event loop's lateness (a task asking
    to wake every millisecond: how much later than asked it woke) and the
    store's answers to a trivial query (as a caller's move waits for its
    write); and what the pass did."""
    async with Lateness() as late, StoreWaits(store) as waits:
        start = time.perf_counter()
        swept = await sweep(store, "bench", now, EndAll(lambda judged: end_games(house, judged)),
                            lambda at: candidates(house, at), house.correspondence.sweep_rules())
        took = (time.perf_counter() - start) * 1000
    async with Lateness() as hands_late, StoreWaits(store) as hands_waits:
        start = time.perf_counter()
        await record_hands(store)
        hands = (time.perf_counter() - start) * 1000
    assert swept is not None, "another holder has the sweeper's lease"
    return took, hands, (late, waits), (hands_late, hands_waits), swept


async def timed(call: Callable[[int], Awaitable[object]], accounts: list[int]) -> list[float]:
    """Each call's seconds, an account at a time."""
    times = []
    for account in accounts:
        start = time.perf_counter()
        await call(account)
        times.append(time.perf_counter() - start)
    return times


async def one_run(where: Path | str, args: argparse.Namespace, past: float, run: int,
                  figures: dict[str, list[float]]) -> None:
    """Fill a new store at ``where`` (a share ``past`` of its games past
    their deadline), time the login's queries and the list for a sample of
    accounts, then one sweep; add the figures to ``figures``."""
    now = time.time()
    filled = await fill_store(where, args, past, now)
    store = await Store.open(where)
    try:
        ids = await store.database.query(lambda db: [int(r[0]) for r in db.execute("SELECT id FROM accounts")])
        sample = random.Random(args.seed + run).sample(ids, min(args.sample, len(ids)))

        async def login(account: int) -> None:  # login_news's two queries
            await store.saved.unfinished(account, waiting=True)
            await store.correspondence.offers.received(account)

        said = [f"filled in {filled:.1f} s"]
        calls: dict[str, Callable[[int], Awaitable[object]]] = {"summary": login, "list": store.saved.unfinished}
        for name, call in calls.items():
            values = await timed(call, sample)
            for q in (0.5, 0.99):
                figures.setdefault(f"{name} p{round(q * 100)}", []).append(pct(values, q))
            said.append(f"{name} p50 {pct(values, 0.5):.2f} p99 {pct(values, 0.99):.2f}")
        house = GameHouse(store, NoTables())
        due = len(await candidates(house, now))
        took, hands, (late, waits), (hands_late, hands_waits), swept = await timed_pass(store, house, now)
        lost = sum(1 for _, v in swept.ended if v.how == "time" and v.loser is not None)
        quiet = await idle((took + hands) / 1000)
        again, _, _, _, _ = await timed_pass(store, house, now)  # the next pass: those left (away) judged again
        for name, value in (("sweep", took), ("sweep a game ended", took / max(1, len(swept.ended))),
                            ("loop late at worst in the sweep", late.worst), ("loop late p99 in the sweep", late.p99),
                            ("store's answer at worst in the sweep", waits.worst), ("hands recorded after it", hands),
                            ("loop late at worst in the hands", hands_late.worst),
                            ("loop late p99 in the hands", hands_late.p99),
                            ("store's answer at worst in the hands", hands_waits.worst),
                            ("idle loop late at worst", quiet.worst), ("idle loop late p99", quiet.p99),
                            ("next sweep", again)):
            figures.setdefault(name, []).append(value)
        said.append(f"sweep {took:.0f} ({due} games due, {len(swept.ended)} ended: {lost} lost on time, "
                    f"{len(swept.ended) - lost} dropped; {swept.lapsed} offers lapsed; "
                    f"{took / max(1, len(swept.ended)):.2f} a game ended; the event loop late {late.worst:.1f} at "
                    f"worst, p99 {late.p99:.1f}; the store's answer {waits.worst:.1f} at worst); their hands "
                    f"recorded after it {hands:.0f} (the loop late {hands_late.worst:.1f} at worst, p99 "
                    f"{hands_late.p99:.1f}; the store's answer {hands_waits.worst:.1f} at worst); the loop idle as "
                    f"long late {quiet.worst:.1f} at worst, p99 {quiet.p99:.1f}; the next sweep {again:.0f}")
        print(f"  run {run + 1} ({len(sample)} accounts, ms): " + "; ".join(said), flush=True)
    finally:
        await store.close()


async def queries(label: str, new_where: Callable[[], Path | str], args: argparse.Namespace) -> None:
    """:func:`one_run` ``args.runs`` times for each share of games past
    their deadline (``args.past``), each on a new store, and the medians."""
    for past in args.past:
        print(f"{label}: {args.games} correspondence games among {args.accounts} accounts, "
              f"{past:.0%} past their deadline", flush=True)
        figures: dict[str, list[float]] = {}
        for run in range(args.runs):
            await one_run(new_where(), args, past, run, figures)
        print(f"  median of {args.runs} runs (ms): " + "; ".join(
            f"{name} {statistics.median(values):.2f}" for name, values in figures.items()))
        print("  (targets: summary and list p99 <= 20 ms, a sweep <= 1,000 ms)", flush=True)


def rss_of(extra: list[str], data_dir: Path, settle: float) -> tuple[float, float]:
    """Start ``cribbage-door serve`` (``extra``: more arguments) on
    ``data_dir`` on loopback, wait ``settle`` seconds, and stop it: its
    RSS and its peak RSS (``VmHWM``) then, in MiB."""
    from tests.support.server import start_server_process

    proc, _, _ = start_server_process(data_dir, *extra)
    try:
        time.sleep(settle)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        kib = {line.split(":")[0]: int(line.split()[1]) for line in status.splitlines()
               if line.startswith(("VmRSS", "VmHWM"))}
        return kib["VmRSS"] / 1024, kib["VmHWM"] / 1024
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


async def memory(label: str, stores: tuple[Path | str, Path | str], folder: Path, args: argparse.Namespace) -> None:
    """The RSS of a node on the empty store ``stores[0]`` and on
    ``stores[1]`` filled with the games (none past its deadline, so that
    the node's sweeper has nothing to end), medians over ``args.runs`` starts each."""
    await fill_store(stores[1], args, 0.0, time.time())
    figures: dict[str, list[tuple[float, float]]] = {"empty": [], "games": []}
    for _ in range(args.runs):
        for (name, values), where in zip(figures.items(), stores, strict=True):
            data_dir = folder / f"node-{name}" if isinstance(where, str) else where.parent
            extra = []
            if isinstance(where, str):
                data_dir.mkdir(exist_ok=True)
                conf = folder / f"{name}.toml"
                conf.write_text(f'[store]\nurl = "{where}"\n')
                extra = ["--config", str(conf)]
            values.append(await asyncio.to_thread(rss_of, extra, data_dir, args.settle))
    said = "; ".join(f"{name} store RSS {statistics.median(v[0] for v in values):.1f} MiB "
                     f"(peak {statistics.median(v[1] for v in values):.1f})" for name, values in figures.items())
    print(f"{label}: a serve node {args.settle:g} s after it started, none of the players on line, median of "
          f"{args.runs} starts: {said} (target: no more with the games)", flush=True)


async def _ws(port: int, name: str) -> Any:
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/api/v1/play")
    await _next(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await _next(ws, "welcome")
    return ws


TOLD: list[dict[str, Any]] = []
"""Every ``your_move`` a connection of the bench was sent, whatever it waited for then."""


async def _next(ws: Any, kind: str | None = None, timeout: float = 20) -> dict[str, Any]:
    """The next message on ``ws`` (of ``kind``, skipping others, a
    ``your_move`` kept in :data:`TOLD`); ``TimeoutError`` after ``timeout`` seconds."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] == "your_move":
            TOLD.append(message)
        if kind is None or message["type"] == kind:
            return message


async def _sit(ws: Any) -> str:
    """Answer every ask (a legal answer) until the game waits on the other
    player or is over: ``waiting`` or ``game_over``."""
    while True:
        message = await _next(ws)
        if message["type"] == "ask":
            ask = message["ask"]
            await ws.send(json.dumps({"type": "discard", "cards": message["hand"][:2]} if ask == "discard" else
                                     {"type": "play", "card": message["playable"][0]} if ask == "play" else
                                     {"type": "claim", "points": 0}))
        elif message["type"] in ("waiting", "game_over"):
            return str(message["type"])


async def _their_move(ws: Any, game: int, deadline: float) -> bool:
    """Ask ``games`` until ``game`` no longer waits on the other player
    (or ``deadline``, monotonic seconds, passes): whether it did."""
    while time.monotonic() < deadline:
        await ws.send(json.dumps({"type": "games"}))
        listed = await _next(ws, "games")
        if not any(g["game"] == game and g["to_move"] == "them" for g in listed["games"]):
            return True
    return False


async def two_nodes(url: str, folder: Path, args: argparse.Namespace) -> None:
    """Two in-process nodes on the PostgreSQL store ``url``: Ann at node A
    and Bob at node B play one game by correspondence, both on line, each
    move made at one node; the time from the mover's ``waiting`` to the
    other's ``games`` showing the move, and whether ``your_move`` came."""
    from bench.two_nodes import two_nodes as started

    seen: list[float] = []
    TOLD.clear()
    async with started(url, folder, ("Ann", "Bob"), PASSWORD) as nodes:
        ann, bob = await _ws(nodes[0].web_port, "Ann"), await _ws(nodes[1].web_port, "Bob")
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3}))
        await _next(ann, "notice")
        await bob.send(json.dumps({"type": "games"}))
        offer = (await _next(bob, "games"))["offers"][0]["offer"]
        await bob.send(json.dumps({"type": "answer", "offer": offer, "accept": True}))
        await _sit(bob)
        await bob.send(json.dumps({"type": "games"}))
        game = (await _next(bob, "games"))["games"][0]["game"]
        players = ((ann, bob), (bob, ann))
        for move in range(args.moves):
            mover, other = players[move % 2]
            await mover.send(json.dumps({"type": "open", "game": game}))
            ended = await _sit(mover)
            start = time.perf_counter()
            if ended == "game_over" or not await _their_move(other, game, time.monotonic() + 10):
                break
            seen.append((time.perf_counter() - start) * 1000)
            try:  # told at the other node? (bench.cross_node_move times it)
                await _next(other, "your_move", timeout=0.5 if move < 2 else 0.05)
            except TimeoutError:
                pass
        for ws in (ann, bob):
            await ws.close()
    if seen:
        print(f"PostgreSQL, two nodes: a move made at one node reached the opponent's games at the other in "
              f"p50 {pct([s / 1000 for s in seen], 0.5):.1f} ms, worst {max(seen):.1f} ms over {len(seen)} moves "
              f"(the store's latency); your_move at the other node: {len(TOLD)} of {len(seen)}", flush=True)
    else:
        print("PostgreSQL, two nodes: no move reached the other node's games within 10 s", flush=True)


async def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="correspondence games (default 10,000)")
    parser.add_argument("--accounts", type=int, default=2_000, help="accounts (default 2,000)")
    parser.add_argument("--past", default="0.1,0.01",
                        help="the shares of games past their deadline, each measured in turn (0.1,0.01)")
    parser.add_argument("--sample", type=int, default=500, help="accounts timed each run (default 500)")
    parser.add_argument("--runs", type=int, default=3, help="runs, each on a new store (default 3)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds a node runs before its RSS is read (5)")
    parser.add_argument("--moves", type=int, default=20, help="moves between the two nodes (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the random generator's seed (default 1)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too, on a throwaway server")
    parser.add_argument("--quick", action="store_true", help="a short run: 500 games, 100 accounts, one run")
    parser.add_argument("--queries-only", action="store_true",
                        help="the queries and the sweeps only (no node's memory, no two nodes)")
    args = parser.parse_args(argv)
    try:
        args.past = [float(p) for p in args.past.split(",")]
    except ValueError:
        parser.error("--past is a list of shares from 0 to 1, such as 0.1,0.01")
    if not all(0 <= p <= 1 for p in args.past) or args.games < 1 or args.accounts < 2 or args.runs < 1:
        parser.error("--past is from 0 to 1; --games, --runs at least 1; --accounts at least 2")
    if args.quick:
        args.games, args.accounts, args.sample, args.runs, args.settle, args.moves = 500, 100, 50, 1, 1.0, 4
    if args.games > args.accounts * KEPT_LIMITS[GameKind.CORRESPONDENCE] // 2:
        parser.error("too many games for the accounts: each account keeps at most "
                     f"{KEPT_LIMITS[GameKind.CORRESPONDENCE]} correspondence games")
    with tempfile.TemporaryDirectory(prefix="bench-correspondence-") as tmp:
        folder = Path(tmp)
        count = iter(range(1_000_000))

        def new_file() -> Path:
            where = folder / f"q{next(count)}"
            where.mkdir()
            return where / DATABASE_NAME
        await queries("SQLite", new_file, args)
        stores = [folder / f"m{n}" / DATABASE_NAME for n in range(2)]
        for where in stores:
            where.parent.mkdir()
        if not args.queries_only:
            await memory("SQLite", (stores[0], stores[1]), folder, args)
        if not args.postgres:
            return
        with throwaway_postgres() as pg:
            if pg is None:
                return
            await queries("PostgreSQL", pg.new_database, args)
            if not args.queries_only:
                await memory("PostgreSQL", (pg.new_database(), pg.new_database()), folder, args)
                await two_nodes(pg.new_database(), folder, args)


if __name__ == "__main__":
    asyncio.run(main())
