"""The correspondence sweeper over many games at once, on a real store
(SQLite and PostgreSQL) with the game service's query and end of games
(door/games/correspondence.py, door/records/correspondence/endings.py):
each game due is ended as it should be in one pass, written a batch at a
time; the games not due, pushed by days away or moved on are left; the
query reads the saved games through its indexes; and the replays run off
the event loop, which goes on during a pass."""

from __future__ import annotations

import asyncio
import calendar
import random
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import door.games.correspondence as service
import door.records.correspondence.forfeit_hands as forfeit_hands
import engine.game
from door.games.correspondence import candidates, end_games
from door.games.house import GameHouse
from door.play.table import Table
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.forfeit_hands import hands_due, record_hands
from door.records.correspondence.sweeper import Candidate, EndAll, SweepRules, run_sweeper, sweep
from door.records.game_kinds import GameKind
from door.records.saved_games import DUE_SQL, GameStart, SavedGame
from door.records.saved_rows import Standing, to_move_of
from door.records.store import DATABASE_NAME, Store
from engine.actions import Action
from engine.game import Game, replay
from engine.rules import Rules
from engine.tally import GameTally
from tests.support.fake_clock import FakeClock

START = float(calendar.timegm((2026, 12, 1, 12, 0, 0)))
"""Tuesday 2026-12-01 12:00 UTC."""

RULES = Rules()


class NoTables:
    """No table runs on this node."""

    tables: set[Table] = set()

    def run_table(self, table: Table, resume: SavedGame | None = None) -> asyncio.Task[None]:
        raise RuntimeError("no table runs here")


def played(number: int, rng: random.Random, waiting: bool = True) -> Game:
    """Game ``number`` (or ``number`` + 1000, + 2000 ...) played at random
    to a point where one seat is to decide (``waiting``)."""
    while True:
        game = Game(RULES, number)
        game.start()
        actions: list[Action] = []
        for _ in range(rng.randrange(2, 60)):
            action = rng.choice(game.legal_actions(game.to_act()[0]))
            game.apply(action)
            if game.over:
                break
            actions.append(action)
        if not game.over and (to_move_of(game) is not None) == waiting:
            return game
        number += 1000


async def keep(store: Store, clock: FakeClock, owner: int, other: int, game: Game | int, to_move: int | None,
               deadline: float | None, standing: bool = True) -> int:
    """A correspondence game of ``owner`` (seat 0) and ``other``: ``game``
    as it stands (a game number: none begun), waiting on ``to_move`` until
    ``deadline``, where it stands kept with its last move as a table's
    journal keeps it (``standing``; else not known, as after the store's
    contract step); its id."""
    number, actions = (game, []) if isinstance(game, int) else (game.number, list(game.actions))
    names = (f"P{owner}", f"P{other}")
    saved = store.saved
    saved_id = await saved.begin(GameStart(owner, "caller", number, None, RULES, (0, 0), 0, other, names, None,
                                           GameKind.CORRESPONDENCE, to_move, deadline, 1))
    for seq, action in enumerate(actions):
        clock.now += 1
        stands = Standing.of(game) if standing and seq == len(actions) - 1 and isinstance(game, Game) else None
        await saved.append(saved_id, seq, action, to_move=to_move, deadline=deadline, standing=stands)
    return saved_id


def hands_of(game: Game) -> list[tuple[int, int, int, int]]:
    """Each hand's number, seat, pegging and hand points in ``game``, replayed as the journal tallies it."""
    _, events = replay(game.rules, game.number, list(game.actions), game.first_dealer, game.shuffle)
    tally = GameTally()
    tally.feed(events)
    return sorted((h.number, seat, s.pegging, s.hand_points) for h in tally.hands for seat, s in enumerate(h.seats))


async def test_a_pass_ends_every_game_due_each_as_it_should_in_one_go(where: Path | str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "BATCH", 7)  # (many batches of a few games: each one transaction)
    monkeypatch.setattr(forfeit_hands, "BATCH", 9)
    rng = random.Random(5)
    clock = FakeClock(START - 70 * DAY)
    store = await Store.open(where, clock)
    try:
        ids = [(await store.accounts.create(f"P{i}", "unused-hash")).id for i in range(14)]  # (the last two: the game on vacation)
        idle = [await keep(store, clock, ids[i], ids[i + 1], played(300 + i, rng), 0, None)
                for i in range(5)]  # (no move for 70 days: aborted)
        clock.now = START
        lost: dict[int, tuple[Game, int, tuple[int, int]]] = {}
        for i in range(30):
            owner, other = ids[i % 12], ids[(i + 1 + i // 12) % 12]
            game = played(100 + i, rng)
            to_move = to_move_of(game)
            assert to_move is not None
            saved_id = await keep(store, clock, owner, other, game, to_move, START + DAY, standing=i % 10 != 3)
            lost[saved_id] = (game, to_move, (owner, other))  # (three not known where they stand: replayed at once)
        never = [await keep(store, clock, ids[i], ids[11 - i], 200 + i, 0, START + DAY) for i in range(5)]
        late = played(400, rng)
        moved_on = await keep(store, clock, ids[0], ids[5], late, to_move_of(late), START + DAY)
        not_due = [await keep(store, clock, ids[i], ids[i + 2], played(500 + i, rng), 1, START + 5 * DAY)
                   for i in range(4)]
        game = played(600, rng)
        away_mover = to_move_of(game)
        assert away_mover is not None
        on_vacation = await keep(store, clock, ids[12], ids[13], game, away_mover, START + DAY)
        await store.correspondence.vacations.take(ids[12 + away_mover], START + DAY / 2, 3, 30)

        clock.now = START + 2 * DAY
        house = GameHouse(store, NoTables())

        async def read_then_a_move(at: float) -> Sequence[Candidate]:
            got = await candidates(house, at)  # (the player of moved_on moves, at another node, once it was read)
            move = late.legal_actions(late.to_act()[0])[0]
            await store.saved.append(moved_on, len(late.actions), move, to_move=None, deadline=START + 3 * DAY)
            return got
        swept = await sweep(store, "node-0", clock.now, EndAll(lambda judged: end_games(house, judged)),
                            read_then_a_move, SweepRules(abandon_days=60))

        assert swept is not None
        ended = {saved_id: (v.loser, v.how) for saved_id, v in swept.ended}
        expected: dict[int, tuple[int | None, str]] = {i: (to_move, "time") for i, (_, to_move, _) in lost.items()}
        expected |= {i: (None, "dropped") for i in never} | {i: (None, "abandoned") for i in idle}
        assert ended == expected
        left = await store.saved.load_games([*lost, *never, *idle, moved_on, *not_due, on_vacation])
        assert sorted(left) == sorted([moved_on, *not_due, on_vacation])

        def records(db: Any) -> list[Any]:
            return list(db.execute("SELECT g.number, g.account0, g.account1, g.winner, g.score0, g.score1, g.forfeit, "
                              "(SELECT COUNT(*) FROM game_actions a WHERE a.game_id = g.id) FROM games g"))
        kept = {int(r[0]): r[1:] for r in await store.database.query(records)}
        assert len(kept) == len(lost)  # (none for the games dropped or aborted)
        for game, to_move, accounts in lost.values():
            assert tuple(kept[game.number])[:-1] == (*accounts, 1 - to_move, *game.scores(), 1)
        movers = Counter(accounts[to_move] for _, to_move, accounts in lost.values())
        assert await store.correspondence.results.lost_on_time_of(ids) == {a: movers.get(a, 0) for a in ids}
        assert await hands_due(store) == len(lost) - 3
        broken, (broken_game, _, _) = next((i, g) for i, g in lost.items() if i % 10 != 9)  # (not one replayed)

        def break_its_log(db: Any) -> None:  # (its first move lost: the log no longer replays)
            game_id = db.execute("SELECT id FROM games WHERE number = ?", (broken_game.number,)).fetchone()[0]
            db.execute("DELETE FROM game_actions WHERE seq = 0 AND game_id = ?", (game_id,))
            due = db.execute("SELECT actions FROM game_hands_due WHERE game_id = ?", (game_id,)).fetchone()[0]
            if due:  # (PostgreSQL: its moves wait with its hands)
                db.execute("UPDATE game_hands_due SET actions = ? WHERE game_id = ?", (due.split("\n", 1)[1], game_id))
        await store.database.tx(break_its_log)
        assert await record_hands(store) == len(lost) - 4 and await hands_due(store) == 0
        kept = {int(r[0]): r[1:] for r in await store.database.query(records)}
        for game, _, _ in lost.values():  # (its moves kept for its review, by the pass or with its hands)
            assert kept[game.number][-1] == len(game.actions) or game.number == broken_game.number
        del lost[broken]  # (its record keeps its result, and no hands)

        def hands(db: Any) -> dict[int, list[tuple[int, int, int, int]]]:
            found: dict[int, list[tuple[int, int, int, int]]] = {}
            for row in db.execute("SELECT g.number, h.number, h.seat, h.pegging, h.hand_points FROM hands h "
                                  "JOIN games g ON g.id = h.game_id"):
                found.setdefault(int(row[0]), []).append((int(row[1]), int(row[2]), int(row[3]), int(row[4])))
            return found

        def deals(db: Any) -> dict[int, int]:
            return {int(n): int(c) for n, c in db.execute(
                "SELECT g.number, COUNT(*) FROM game_deals d JOIN games g ON g.id = d.game_id GROUP BY g.number")}
        recorded, dealt = await store.database.query(hands), await store.database.query(deals)
        for game, _, _ in lost.values():  # (every forfeit with its hands and deals, as a journal records them)
            assert sorted(recorded.get(game.number, [])) == hands_of(game)
            assert dealt.get(game.number, 0) == len(game.dealt)
        again = await sweep(store, "node-0", clock.now, EndAll(lambda judged: end_games(house, judged)),
                            lambda at: candidates(house, at), SweepRules(abandon_days=60))
        assert again is not None and again.ended == []  # (ended once: nothing counted twice)
    finally:
        await store.close()


async def test_the_sweepers_query_reads_the_saved_games_through_indexes(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME)
    try:
        kind = GameKind.CORRESPONDENCE.value
        plan = await store.database.query(lambda db: [str(r[-1]) for r in db.execute(
            "EXPLAIN QUERY PLAN " + DUE_SQL, (kind, START, kind, START - 60 * DAY)).fetchall()])
        assert not [line for line in plan if line.startswith("SCAN")], plan
        assert any("saved_games_kind_deadline" in line for line in plan), plan
        assert any("saved_games_kind_idle" in line for line in plan), plan
    finally:
        await store.close()


async def test_the_event_loop_goes_on_while_a_pass_replays_the_games(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A task of the event loop counts while the sweeper's step runs (the
    pass, then the hands of the games lost on time, as a node's loop runs
    them): every replay runs in another thread than the loop's (so the
    loop goes on meanwhile: whether it gets a turn during one short replay
    is the interpreter's to say, not the door's), the count moves on
    during the step, and every game is ended with its hands."""
    rng = random.Random(9)
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ids = [(await store.accounts.create(f"P{i}", "unused-hash")).id for i in range(10)]
        due = []
        for i in range(40):
            game = played(700 + i, rng)
            due.append(await keep(store, clock, ids[i % 10], ids[(i + 3) % 10], game, to_move_of(game), START + DAY,
                                  standing=i % 4 != 0))
        ticks = 0
        during: list[int] = []  # (the thread each replay ran in)
        real = engine.game.replay
        loop_thread = threading.get_ident()

        def counted(*args: Any) -> Any:
            during.append(threading.get_ident())
            return real(*args)
        monkeypatch.setattr(service, "replay", counted)
        monkeypatch.setattr(forfeit_hands, "replay", counted)
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0)
        counting = asyncio.create_task(ticker())
        clock.now = START + 2 * DAY
        house = GameHouse(store, NoTables())
        swept = await sweep(store, "node-0", clock.now, EndAll(lambda judged: end_games(house, judged)),
                            lambda at: candidates(house, at), SweepRules(abandon_days=60))
        later = await record_hands(store)
        done.set()
        await counting
        assert swept is not None and sorted(i for i, _ in swept.ended) == sorted(due)
        assert later == 30 and len(during) == len(due)  # (ten replayed in the pass, thirty after it)
        assert loop_thread not in during, "a replay ran on the event loop's thread"
        assert ticks > len(due)  # (the loop went on through the step)
    finally:
        await store.close()


async def test_the_sweepers_loop_records_the_hands_of_the_games_it_ended(tmp_path: Path) -> None:
    """A node's loop (run_sweeper with the game service's end of games):
    a game out of time is ended, then its hands are recorded, with no
    other call."""
    rng = random.Random(11)
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann, bob = [(await store.accounts.create(n, "unused-hash")).id for n in ("Ann", "Bob")]
        game = played(800, rng)
        await keep(store, clock, ann, bob, game, to_move_of(game), START + DAY)
        clock.now = START + 2 * DAY
        house = GameHouse(store, NoTables())
        task = asyncio.create_task(run_sweeper(store, "node-0", EndAll(lambda judged: end_games(house, judged)),
                                               lambda at: candidates(house, at), SweepRules(abandon_days=60),
                                               every=0.01, clock=clock))

        def hands(db: Any) -> int:
            return int(db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
        try:
            for _ in range(500):
                if await store.database.query(hands):
                    break
                await asyncio.sleep(0.01)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        assert await store.database.query(hands) == len(hands_of(game)) and await hands_due(store) == 0
    finally:
        await store.close()


async def test_a_rated_match_lost_on_time_is_forfeited_whole_and_moves_the_ratings_by_turns(
        where: Path | str) -> None:
    """Two games out of time in one pass: a rated best of three and an
    unrated single game. Each is kept with its match, forfeited by the
    player out of time (the whole match, games won before it kept); the
    rated one moves both players' ratings of play by turns, live play's
    untouched; the unrated one moves none."""
    rng = random.Random(13)
    clock = FakeClock(START)
    store = await Store.open(where, clock)
    try:
        ids = [(await store.accounts.create(n, "unused-hash")).id for n in ("Ann", "Bob", "Cy", "Dee")]
        saved = store.saved
        rated = played(900, rng)
        mover = to_move_of(rated)
        assert mover is not None
        match_id = await saved.begin(GameStart(ids[0], "caller", rated.number, None, RULES, (1, 0), 0, ids[1],
                                               ("Ann", "Bob"), None, GameKind.CORRESPONDENCE, mover, START + DAY, 1,
                                               best_of=3, rated=True))
        for seq, action in enumerate(rated.actions):
            last = seq == len(rated.actions) - 1
            await saved.append(match_id, seq, action, to_move=mover, deadline=START + DAY,
                               standing=Standing.of(rated) if last else None)
        single = played(950, rng)
        await keep(store, clock, ids[2], ids[3], single, to_move_of(single), START + DAY)
        clock.now = START + 2 * DAY
        house = GameHouse(store, NoTables())
        swept = await sweep(store, "node-0", clock.now, EndAll(lambda judged: end_games(house, judged)),
                            lambda at: candidates(house, at), SweepRules(abandon_days=60))
        assert swept is not None and len(swept.ended) == 2
        rows = await store.database.query(lambda db: db.execute(
            "SELECT account0, best_of, rated, wins0, wins1, winner, forfeit, leaver, by_turns FROM matches "
            "ORDER BY account0").fetchall())
        assert [tuple(r) for r in rows] == [
            (ids[0], 3, 1, 1, 0, 1 - mover, 1, mover, 1),
            (ids[2], 1, 0, 0, 0, 1 - to_move_of(single), 1, to_move_of(single), 1)], rows
        for account in ids[:2]:
            by_turns = await store.ratings.of(account, by_turns=True)
            assert by_turns is not None and by_turns.matches == 1
            assert await store.ratings.of(account) is None
        winner = ids[1 - mover]
        rating = await store.ratings.of(winner, by_turns=True)
        assert rating is not None and rating.rating.rating > 1500
        for account in ids[2:]:
            assert await store.ratings.of(account, by_turns=True) is None
    finally:
        await store.close()
