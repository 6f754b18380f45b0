"""The store: schema and WAL, damaged and locked files, accounts, keys,
records and statistics from known figures, the action log."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from door.records.games import GameRecord
from door.records.migrate import kept_version
from door.records.passwords import hash_password, verify_password
from door.records.saved_games import GameStart
from door.records.schema import render
from door.records.store import DATABASE_NAME, MIGRATIONS, Conflict, NameTaken, Store, StoreError
from door.records.throttle import BASE_DELAY, MAX_DELAY, LoginThrottle
from engine.actions import Claim, Discard, Play
from engine.cards import Card
from engine.events import GameResult, Skunk
from engine.rules import Rules
from engine.tally import HandRecord, SeatHand


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    """An empty store: the SQLite file, and a new database on the
    throwaway PostgreSQL server."""
    where = (tmp_path / DATABASE_NAME if request.param == "sqlite"
             else request.getfixturevalue("postgres").new_database())
    s = await Store.open(where)
    yield s
    await s.close()


async def test_new_database_is_wal_at_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / DATABASE_NAME
    s = await Store.open(path)
    await s.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # the version every release checks is the last contract step's; schema_steps counts them all
    assert db.execute("PRAGMA user_version").fetchone()[0] == kept_version(len(MIGRATIONS))
    assert db.execute("SELECT version FROM schema_steps").fetchall() == [(len(MIGRATIONS),)]
    db.close()
    s = await Store.open(path)  # opening again migrates nothing and keeps the data
    await s.close()


async def test_damaged_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    junk = b"this is not a database" * 100
    path.write_bytes(junk)
    path.chmod(0o600)
    with pytest.raises(StoreError, match="not a usable cribbage database"):
        await Store.open(path)
    assert path.read_bytes() == junk


async def test_locked_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE x (y)")
    path.chmod(0o600)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked by another program"):
            await Store.open(path)
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    db.close()
    path.chmod(0o600)
    with pytest.raises(StoreError, match="a newer release of cribbage-door made; this program knows version"):
        await Store.open(path)


async def test_a_new_database_is_private_and_an_open_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    s = await Store.open(path)
    await s.close()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    path.chmod(0o644)
    with pytest.raises(StoreError, match=r"mode is 0644, so other users can read it; run: chmod 600"):
        await Store.open(path)


async def test_accounts_and_keys(store: Store) -> None:
    ann = await store.accounts.create("Ann", hash_password("secret1"))
    with pytest.raises(NameTaken):
        await store.accounts.create("aNN", hash_password("x"))
    found = await store.accounts.find("ANN")
    assert found is not None and found.id == ann.id and found.name == "Ann"
    assert verify_password("secret1", await store.accounts.password_hash(ann.id))
    assert not await store.accounts.has_ssh_keys(ann.id)
    bob = await store.accounts.create("Bob", hash_password("secret2"))
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample"
    await store.accounts.add_ssh_key(ann.id, key)
    await store.accounts.add_ssh_key(bob.id, key)  # linking it to Bob leaves Ann's link alone
    assert await store.accounts.key_matches(ann.id, key) and await store.accounts.key_matches(bob.id, key)
    assert not await store.accounts.key_matches(ann.id, key + "x")
    await store.accounts.save_options(ann.id, {"pace": "prompt"})
    assert (await store.accounts.find("ann")).options == {"pace": "prompt"}


def test_passwords_are_salted_scrypt() -> None:
    a, b = hash_password("same"), hash_password("same")
    assert a != b and a.startswith("scrypt$") and "same" not in a
    assert verify_password("same", a) and not verify_password("Same", a)
    assert not verify_password("same", "md5$abc")


def test_throttle_backs_off_and_resets() -> None:
    t = LoginThrottle()
    delays = [t.failure("Ann", "1.2.3.4", "telnet") for _ in range(6)]
    assert delays[0] == BASE_DELAY and delays == sorted(delays) and delays[-1] == MAX_DELAY
    assert t.failures("ANN") == 6
    t.success("ann", "1.2.3.4")
    assert t.failures("Ann") == 0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_gets_per_address_checks_per_window_whatever_the_names() -> None:
    clock = Clock()
    t = LoginThrottle(window=600, per_address=10, per_account=20, clock=clock)
    for i in range(10):
        assert t.admit(f"name{i % 3}", "6.6.6.6") is None
        t.failure(f"name{i % 3}", "6.6.6.6", "ssh")
    assert "from your address" in (t.admit("someone", "6.6.6.6") or "")
    assert t.admit("someone", "7.7.7.7") is None  # another address is not held up
    t.success("someone", "7.7.7.7")
    clock.now += 601
    assert t.admit("name0", "6.6.6.6") is None  # the window moved on


def test_checks_under_way_count_so_parallel_guesses_do_not_pass() -> None:
    t = LoginThrottle(per_address=10)
    admitted = [t.admit("Ann", "6.6.6.6") for _ in range(1000)]  # a thousand at once, none answered yet
    assert admitted.count(None) == 10


def test_a_spread_attack_never_locks_the_owner_out() -> None:
    t = LoginThrottle(window=600, per_address=10, per_account=20)
    for i in range(20):
        assert t.admit("Vic", f"10.0.0.{i}") is None
        t.failure("Vic", f"10.0.0.{i}", "telnet")
    assert "for vic" in (t.admit("vic", "10.0.0.3") or "")  # an address that failed on Vic: no more
    assert t.admit("Vic", "10.0.0.99") is None  # a fresh address gets one check
    t.failure("Vic", "10.0.0.99", "telnet")
    assert t.admit("Vic", "10.0.0.99") is not None
    assert t.admit("Vic", "192.168.1.5") is None  # the owner, at home: checked at once
    t.success("Vic", "192.168.1.5")


async def test_a_check_abandoned_half_way_counts_as_wrong() -> None:
    import asyncio

    t = LoginThrottle()
    stored = hash_password("right-one")
    task = asyncio.create_task(t.check("Ann", "6.6.6.6", "ssh", "guess", stored))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert t.failures("Ann") == 1
    assert (await t.check("Ann", "6.6.6.6", "ssh", "right-one", stored)).ok
    wrong = await t.check("Ann", "6.6.6.6", "ssh", "nope", stored)
    assert not wrong.ok and wrong.delay == BASE_DELAY


def test_passwords_are_one_form_whatever_the_client_sends() -> None:
    stored = hash_password("pass word")
    assert verify_password("\uff50\uff41\uff53\uff53\u3000word", stored)  # full width, ideographic space
    composed = hash_password("caf\u00e9!!")
    assert verify_password("cafe\u0301!!", composed)  # e + combining acute, as some clients send it


def hand(number: int, dealer: int, mine: SeatHand, theirs: SeatHand, complete: bool = True,
         replayed: bool = False) -> HandRecord:
    return HandRecord(number, dealer, (mine, theirs), complete, replayed)


async def test_statistics_from_known_hands(store: Store) -> None:
    ann = await store.accounts.create("Ann", hash_password("secret1"))
    rules = Rules()
    # game 1: Ann wins 121-80 (a skunk); two complete hands and one replayed
    h1 = hand(1, 0, SeatHand(pegging=5, hand_points=12, hand_true=12, hand_claim=12, crib_points=8, crib_true=8,
                             crib_claim=8, heels=2),
              SeatHand(pegging=3, hand_points=6, hand_true=8, hand_claim=6, muggins_lost=2))
    h1.seats[0].muggins_won = 2
    h2 = hand(2, 1, SeatHand(pegging=1, hand_points=29, hand_true=29, hand_claim=29),
              SeatHand(pegging=4, hand_points=10, hand_true=10, hand_claim=10, crib_points=4, crib_true=4,
                       crib_claim=4))
    h3 = hand(3, 0, SeatHand(pegging=9, hand_points=20, hand_true=20), SeatHand(), replayed=True)
    await store.games.record(None, GameRecord(7, rules, ("Ann", "Computer"), (ann.id, None), "computer",
                            GameResult(0, (121, 80), Skunk.SKUNK, 2), [h1, h2, h3], 1000.0))
    # game 2: Ann loses 100-121; one incomplete hand with an over-claim
    h4 = hand(1, 1, SeatHand(pegging=2, hand_points=0, hand_true=6, hand_claim=9, muggins_lost=6),
              SeatHand(pegging=0, muggins_won=6), complete=False)
    await store.games.record(None, GameRecord(8, rules, ("Ann", "Computer"), (ann.id, None), "computer",
                            GameResult(1, (100, 121), Skunk.NONE, 1), [h4], 2000.0))
    s = await store.statistics.player("ann")
    assert s is not None
    assert (s.games, s.wins, s.losses, s.credited) == (2, 1, 1, 2)
    assert (s.skunks_given, s.skunks_taken, s.double_skunks_given) == (1, 0, 0)
    assert (s.hands, s.hand_points, s.cribs, s.crib_points, s.pegging_points) == (2, 41, 1, 8, 6)
    assert (s.best_hand, s.twenty_nines, s.heels) == (29, 1, 2)
    assert (s.muggins_taken, s.muggins_given) == (2, 6)
    assert (s.claims, s.exact_claims) == (4, 3)
    assert s.margin_total == (121 - 80) + (100 - 121) and s.longest_streak == 1 and s.vs_computer == 2
    rows = dict(s.rows())
    assert rows["Win rate"] == "50%" and rows["Average points per hand"] == "20.50"
    assert rows["Counts claimed exactly"] == "75% of 4"
    top = await store.statistics.top()
    assert [(p.name, p.games, p.wins, p.credited) for p in top] == [("Ann", 2, 1, 2)]
    games = await store.games.recent("ANN")
    assert [g.number for g in games] == [8, 7]


async def test_action_log_round_trip_and_finish(store: Store) -> None:
    ann = await store.accounts.create("Ann", hash_password("secret1"))
    rules = Rules(game_to=61)
    saved_id = await store.saved.begin(GameStart(ann.id, "computer", 42, None, rules, (1, 0)))
    actions = [Discard(0, (Card.from_str("5H"), Card.from_str("JD"))), Play(1, Card.from_str("TC")), Claim(0, 12)]
    for i, a in enumerate(actions):
        await store.saved.append(saved_id, i, a)
    with pytest.raises(Conflict):  # a second writer of step 1 is refused, and nothing changes
        await store.saved.append(saved_id, 1, Claim(0, 0))
    saved = await store.saved.load(ann.id)
    assert saved is not None and saved.actions == actions and saved.rules == rules
    assert (saved.number, saved.match_points, saved.first_dealer) == (42, (1, 0), None)
    await store.games.record(saved_id, GameRecord(42, rules, ("Ann", "Computer"), (ann.id, None), "computer",
                            GameResult(0, (61, 20), Skunk.SKUNK, 2), [], 0.0))
    assert await store.saved.load(ann.id) is None


async def test_lookalike_names_are_one_name(store: Store) -> None:
    """Full width, a soft hyphen, zero-width characters and
    case make no new name."""
    await store.accounts.create("Gandalf", hash_password("secret1"))
    for twin in ["GANDALF", "\uff27andalf", "Gan\u00addalf", "Gand\u200balf", "Gandalf\u200d", "  gandalf "]:
        with pytest.raises(NameTaken):
            await store.accounts.create(twin, hash_password("secret1"))
        assert (await store.accounts.find(twin)) is not None


def old_database(folder: Path, version: int, *rows: str) -> Path:
    """A database file in ``folder`` at schema ``version`` 1 or 2 (both
    have the first migration's tables), with the SQL ``rows`` run in it."""
    path = folder / DATABASE_NAME
    db = sqlite3.connect(path)
    db.executescript(render(MIGRATIONS[0], "sqlite"))
    for row in rows:
        db.execute(row)
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()
    path.chmod(0o600)
    return path


async def test_migration_rekeys_old_names(tmp_path: Path) -> None:
    path = old_database(tmp_path, 1,  # a version-1 file, keys case-folded only
                        "INSERT INTO accounts (name, name_key, password_hash, created) "
                        "VALUES ('\uff21nn', '\uff41nn', 'x', 0)")
    store = await Store.open(path)
    try:
        assert (await store.accounts.find("ann")) is not None
        with pytest.raises(NameTaken):
            await store.accounts.create("Ann", hash_password("secret1"))
    finally:
        await store.close()


async def test_a_game_between_callers_is_kept_for_both(store: Store) -> None:
    """The owner's seat, the other caller's account and the
    names are kept; either finds the game; a new game of either, of
    another kind, leaves it."""
    ann = await store.accounts.create("Ann", hash_password("secret1"))
    bob = await store.accounts.create("Bob", hash_password("secret1"))
    rules = Rules(game_to=61)
    saved_id = await store.saved.begin(GameStart(bob.id, "caller", 7, 1, rules, (0, 0), seat=1, other_account=ann.id,
                                       players=("Ann", "Bob")))
    await store.saved.append(saved_id, 0, Discard(0, (Card.from_str("5H"), Card.from_str("JD"))))
    for account in (ann, bob):
        saved = await store.saved.load(account.id)
        assert saved is not None and saved.id == saved_id and saved.players == ("Ann", "Bob")
        assert len(saved.actions) == 1
    assert saved.seat_of(bob.id) == 1 and saved.seat_of(ann.id) == 0
    with pytest.raises(ValueError):
        saved.seat_of(bob.id + ann.id + 1)
    own = await store.saved.begin(GameStart(ann.id, "computer", 8, None, rules, (0, 0)))  # Ann plays the computer
    assert (await store.saved.load(ann.id)).id == own  # her own game first
    assert (await store.saved.load(bob.id)).id == saved_id  # Bob's game with her is still kept
    await store.saved.begin(GameStart(bob.id, "computer", 9, None, rules, (0, 0)))  # the owner's new game: both kept
    assert (await store.saved.load(ann.id)).id == own
    assert await store.saved.drop_for(ann.id) and (await store.saved.load(ann.id)).id == saved_id
    assert await store.saved.drop_for(ann.id) and await store.saved.load(ann.id) is None


async def test_migration_3_keeps_old_saved_games(tmp_path: Path) -> None:
    """A version-2 file's unfinished game loads after migration 3, as the
    owner's game in seat 0 with no other caller."""
    path = old_database(tmp_path, 2,
                        "INSERT INTO accounts (name, name_key, password_hash, created) VALUES ('Ann', 'ann', 'x', 0)",
                        "INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, match_points, "
                        "started) VALUES (1, 'computer', 42, NULL, '{}', '[0, 0]', 0)")
    store = await Store.open(path)
    try:
        saved = await store.saved.load(1)
        assert saved is not None and saved.number == 42
        assert (saved.seat, saved.other_account, saved.players) == (0, None, ())
    finally:
        await store.close()


def test_a_migration_another_process_made_while_this_one_waited_is_not_made_twice(tmp_path: Path) -> None:
    """Two processes (``serve --workers``) opening a new file at once: the
    one that waits for the lock reads the version again under it, and
    goes on from what the other made, instead of creating its tables a
    second time."""
    import os
    import threading

    from door.records.sqlite_database import SqliteDatabase, _statements
    path = tmp_path / DATABASE_NAME
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("BEGIN IMMEDIATE")  # the other process is migrating
    opened: list[object] = []

    def open_it() -> None:
        async def go() -> None:
            database = await SqliteDatabase.open(path)
            opened.append(database)
            await database.close()
        try:
            asyncio.run(go())
        except StoreError as exc:
            opened.append(exc)

    waiter = threading.Thread(target=open_it)
    waiter.start()
    waiter.join(0.4)  # it read version 0 and waits for the lock
    assert not opened
    for statement in _statements(render(MIGRATIONS[0], "sqlite")):  # type: ignore[arg-type]
        other.execute(statement)
    other.execute("PRAGMA user_version = 1")
    other.execute("COMMIT")
    waiter.join(10)
    assert opened and not isinstance(opened[0], StoreError), opened
    assert other.execute("PRAGMA user_version").fetchone()[0] == kept_version(len(MIGRATIONS))
    other.close()


async def test_one_session_per_account_across_nodes(store: Store) -> None:
    """``sessions``: the first node to claim an account holds
    it; another sees the holder while it is alive, takes it from a dead
    one or when forced; a release by a session that was taken over leaves
    the claim; a forgotten node's claims go with it."""
    account = await store.accounts.create("Tia", hash_password("tia-secret"))
    one = await store.nodes.register("127.0.0.1", 1)
    two = await store.nodes.register("127.0.0.1", 2)
    assert await store.nodes.claim(account.id, one, 5, alive={two}) == one
    assert await store.nodes.claim(account.id, two, 7, alive={one}) == one  # on line at node one: go there
    assert await store.nodes.claim(account.id, one, 6, alive={two}) == one  # a second login at the holder
    await store.nodes.release(account.id, one, 5)  # the older session ends: the claim is the newer one's
    assert await store.nodes.claim(account.id, two, 7, alive={one}) == one
    assert await store.nodes.claim(account.id, two, 7, alive=set()) == two  # node one is dead: taken
    assert await store.nodes.claim(account.id, one, 8, alive={two}, force=True) == one  # handed over to one
    await store.nodes.forget([one])
    assert await store.nodes.claim(account.id, two, 9, alive=set()) == two
    await store.nodes.release(account.id, two, 9)
    three = await store.nodes.register("127.0.0.1", 3)
    assert await store.nodes.claim(account.id, three, 1, alive={two}) == three  # released: free
