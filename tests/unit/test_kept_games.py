"""Unfinished games that live in the store: many an account, each kind
with its limit, loaded by id, listed with their state and whose move it
is; the schema step that allows it keeps every game and action of a store
of the release before, and the code works while that step waits for the
release before's nodes (one game an owner, as before).  SQLite and
PostgreSQL both."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from door.play.journal import Journal
from door.records.connection import Connection
from door.records.daily import daily_shuffle
from door.records.game_kinds import KEPT_LIMITS, GameKind, TooManyGames
from door.records.games import Opponent
from door.records.kept_list import Turn, Waiting
from door.records.passwords import hash_password
from door.records.saved_games import KEEP, GameStart, SavedGames, Standing
from door.records.saved_rows import to_move_of
from door.records.schema import MANY_GAMES, MANY_GAMES_EXPAND, MIGRATIONS
from door.records.store import DATABASE_NAME, Conflict, Store
from engine.actions import Action
from engine.game import Game, replay
from engine.notation import action_to_text, rules_to_dict
from engine.rules import Rules
from engine.shuffle import SeededShuffle

RULES = Rules(game_to=61)
DAY = "2026-11-28"


class Ticking:
    """A clock that moves one second each time it is read, from ``start``."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def moves(number: int, count: int, shuffle: SeededShuffle | None = None) -> list[Action]:
    """The first ``count`` actions of game ``number`` played by taking each seat's first legal action."""
    game = Game(RULES, number, None, shuffle=shuffle)
    game.start()
    actions: list[Action] = []
    for _ in range(count):
        action = game.legal_actions(game.to_act()[0])[0]
        game.apply(action)
        actions.append(action)
    return actions


def where_for(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    return (tmp_path / DATABASE_NAME if request.param == "sqlite"
            else request.getfixturevalue("postgres").new_database())


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """An empty store of this release (every step made), its clock ticking a second a read."""
    s = await Store.open(where_for(request, tmp_path), clock=Ticking())
    yield s
    await s.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store will be: the SQLite file, or a new PostgreSQL database."""
    return where_for(request, tmp_path)


async def accounts(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.create(name, hash_password("secret1"))).id for name in names]


async def keep(store: Store, start: GameStart, actions: list[Action], saved: SavedGames | None = None) -> int:
    """``start`` begun and its ``actions`` appended; its id."""
    saved = saved or store.saved
    saved_id = await saved.begin(start)
    for seq, action in enumerate(actions):
        await saved.append(saved_id, seq, action)
    return saved_id


async def test_an_account_keeps_three_unfinished_games_at_once(store: Store) -> None:
    """A game against the computer, a caller's game with Bob (Bob owns
    it) and a match game with Cy, each loaded back exactly by its id; the
    newest is still what ``load`` gives, and ``drop_for`` takes one kind."""
    ann, bob, cy = await accounts(store, "Ann", "Bob", "Cy")
    games = {
        GameKind.COMPUTER: (GameStart(ann, "computer", 11, None, RULES, (0, 0)), moves(11, 9)),
        GameKind.CALLER: (GameStart(bob, "caller", 12, 1, RULES, (0, 0), seat=1, other_account=ann,
                                    players=("Ann", "Bob")), moves(12, 5)),
        GameKind.MATCH: (GameStart(ann, "caller", 13, None, RULES, (1, 0), other_account=cy, players=("Ann", "Cy")),
                         moves(13, 14)),
    }
    ids = {kind: await keep(store, start, actions) for kind, (start, actions) in games.items()}
    assert len(set(ids.values())) == 3
    for kind, (start, actions) in games.items():
        saved = await store.saved.load_game(ids[kind])
        assert saved is not None and saved.kind == kind
        assert (saved.account_id, saved.opponent, saved.number, saved.first_dealer, saved.rules, saved.match_points,
                saved.seat, saved.other_account) == (start.account_id, start.opponent, start.number,
                                                     start.first_dealer, start.rules, start.match_points, start.seat,
                                                     start.other_account)
        assert saved.actions == actions and saved.players == tuple(start.players or ())
    assert [g.id for g in await store.saved.unfinished(ann)] == [ids[GameKind.MATCH], ids[GameKind.CALLER],
                                                                 ids[GameKind.COMPUTER]]
    assert (await store.saved.load(ann)).id == ids[GameKind.MATCH]  # type: ignore[union-attr]  # her newest own
    assert await store.saved.drop_for(ann, GameKind.COMPUTER)
    assert {g.kind for g in await store.saved.unfinished(ann)} == {GameKind.CALLER, GameKind.MATCH}
    assert await store.saved.load_game(ids[GameKind.COMPUTER]) is None
    assert not await store.saved.drop_for(cy, GameKind.COMPUTER)


async def test_each_kind_has_its_limit(store: Store) -> None:
    """A new game against the computer replaces the last (the owner's
    other games stay); a kind that does not replace refuses past its
    limit, for either player, with a sentence and before anything is
    written; two callers keep one game with each other (the new one
    replaces the older); a daily deal replaces the last."""
    ann, bob, cy, dee = await accounts(store, "Ann", "Bob", "Cy", "Dee")
    assert (KEPT_LIMITS[GameKind.COMPUTER], KEPT_LIMITS[GameKind.CORRESPONDENCE]) == (1, 20)
    first = await keep(store, GameStart(ann, "computer", 1, None, RULES, (0, 0)), moves(1, 3))
    with_bob = await keep(store, GameStart(ann, "caller", 2, None, RULES, (0, 0), other_account=bob,
                                           players=("Ann", "Bob")), moves(2, 3))
    second = await store.saved.begin(GameStart(ann, "computer", 3, None, RULES, (0, 0)))
    assert await store.saved.load_game(first) is None
    assert {g.id for g in await store.saved.unfinished(ann)} == {with_bob, second}

    assert await store.saved.may_begin(bob, GameKind.CALLER, ann)
    again = await store.saved.begin(GameStart(bob, "caller", 4, None, RULES, (0, 0), other_account=ann))
    assert await store.saved.load_game(with_bob) is None  # (their new game together replaced the older)
    assert {g.id for g in await store.saved.unfinished(ann)} == {again, second}

    saved = SavedGames(store.database, store.clock, {**KEPT_LIMITS, GameKind.CORRESPONDENCE: 2})
    for other in (bob, cy):
        await saved.begin(GameStart(ann, "caller", 5, None, RULES, (0, 0), other_account=other,
                                    kind=GameKind.CORRESPONDENCE, days_per_move=3, deadline=9e9))
    before = await store.saved.unfinished(ann)
    assert not await saved.may_begin(ann, GameKind.CORRESPONDENCE, dee)
    with pytest.raises(TooManyGames, match="^Ann already has 2 unfinished correspondence games, as many as the door "
                                           "keeps: finish one or give one up first.$") as refused:
        await saved.begin(GameStart(ann, "caller", 6, None, RULES, (0, 0), other_account=dee,
                                    kind=GameKind.CORRESPONDENCE))
    assert (refused.value.account_id, refused.value.kind, refused.value.limit) == (ann, GameKind.CORRESPONDENCE, 2)
    assert isinstance(refused.value, Conflict)  # (a writer that did not ask first: a write the store refused)
    with pytest.raises(TooManyGames, match="^Ann already has 2"):  # Ann is full as the other player too
        await saved.begin(GameStart(dee, "caller", 6, None, RULES, (0, 0), seat=1, other_account=ann,
                                    kind=GameKind.CORRESPONDENCE))
    assert await store.saved.unfinished(ann) == before and await store.saved.unfinished(dee) == []
    with pytest.raises(TooManyGames):
        await saved.check_room(ann, GameKind.CORRESPONDENCE)
    await saved.check_room(ann, GameKind.TOURNAMENT)  # (another kind has room)

    daily = daily_shuffle(DAY, "a" * 64)
    old_daily = await store.saved.begin(GameStart(bob, "computer", daily.game, None, RULES, (0, 0), shuffle=daily))
    new_daily = await store.saved.begin(GameStart(bob, "computer", daily.game, None, RULES, (0, 0), shuffle=daily))
    assert [g.kind for g in await store.saved.unfinished(bob) if g.id in (old_daily, new_daily)] == [GameKind.DAILY]
    assert new_daily != old_daily and await store.saved.load_game(old_daily) is None  # (no id is given twice)


async def test_the_list_is_by_deadline_then_last_move_with_each_game_as_it_stands(store: Store) -> None:
    """Correspondence games with deadlines first, the nearest first; then
    the most recently played; each with the other side, whose move it is
    (as the listing account sees it) and the state the engine rebuilds;
    the summary counts the games waiting on the account, nearest deadline
    first, and follows ``append``'s seat to move and deadline."""
    ann, bob, cy = await accounts(store, "Ann", "Bob", "Cy")
    computer = await keep(store, GameStart(ann, "computer", 21, None, RULES, (0, 0)), moves(21, 12))
    later = await keep(store, GameStart(bob, "caller", 22, None, RULES, (0, 0), seat=1, other_account=ann,
                                        players=("Ann", "Bob"), kind=GameKind.CORRESPONDENCE, deadline=5_000_000.0,
                                        days_per_move=3), moves(22, 2))
    sooner = await keep(store, GameStart(ann, "caller", 23, None, RULES, (0, 0), other_account=cy,
                                         kind=GameKind.CORRESPONDENCE, deadline=4_000_000.0, days_per_move=1),
                        moves(23, 7))
    last_played = await keep(store, GameStart(bob, "sysop", 24, None, RULES, (0, 0)), [])
    live = await keep(store, GameStart(cy, "caller", 25, None, RULES, (0, 0), seat=1, other_account=ann), moves(25, 4))
    await store.saved.append(computer, 12, moves(21, 13)[12])  # Ann's computer game is now the last played
    listed = await store.saved.unfinished(ann)
    assert [g.id for g in listed] == [sooner, later, computer, live] and last_played not in [g.id for g in listed]
    for g, number, count in zip(listed, (23, 22, 21, 25), (7, 2, 13, 4), strict=True):
        game, _ = replay(RULES, number, moves(number, count))
        seat = g.seat
        assert (g.hand, g.scores) == (game.hand_number, (game.scores()[seat], game.scores()[1 - seat]))
        waiting = game.to_act()
        assert g.to_move == (Turn.BOTH if len(waiting) != 1 else Turn.YOU if waiting[0] == seat else Turn.THEM)
    assert [(g.other, g.kind, g.seat, g.owned, g.deadline, g.days_per_move) for g in listed] == [
        ("Cy", GameKind.CORRESPONDENCE, 0, True, 4_000_000.0, 1),
        ("Bob", GameKind.CORRESPONDENCE, 0, False, 5_000_000.0, 3),
        ("Computer", GameKind.COMPUTER, 0, True, None, None),
        ("Cy", GameKind.CALLER, 0, False, None, None)]  # (no names kept: the account's)
    assert listed[2].updated == max(g.updated for g in listed) and all(g.updated > g.started for g in listed)
    bob_sees = {g.id: g for g in await store.saved.unfinished(bob)}
    assert (bob_sees[later].other, bob_sees[later].seat, bob_sees[last_played].other) == ("Ann", 1, "the sysop")

    # the summary: no seat to move written yet counts as waiting on both
    assert await store.saved.waiting_on(ann) == Waiting(4, 4_000_000.0)
    await store.saved.append(sooner, 7, moves(23, 8)[7], to_move=1, deadline=4_500_000.0)  # Cy's move now
    assert await store.saved.waiting_on(ann) == Waiting(3, 5_000_000.0)
    assert await store.saved.waiting_on(cy) == Waiting(2, 4_500_000.0)  # (and their live game)
    await store.saved.append(later, 2, moves(22, 3)[2], to_move=1)  # Bob's seat: his move, the deadline stays
    assert await store.saved.waiting_on(ann) == Waiting(2, None)
    assert [g.id for g in await store.saved.unfinished(ann, waiting=True)] == [computer, live]  # "your move"
    assert await store.saved.waiting_on(bob) == Waiting(2, 5_000_000.0)
    await store.saved.append(later, 3, moves(22, 4)[3], to_move=KEEP, deadline=None)
    assert await store.saved.waiting_on(bob) == Waiting(2, None)

    # where a game stands after a move, as its writer says, is listed without a replay; the old call says nothing
    game, _ = replay(RULES, 23, moves(23, 9))
    await store.saved.append(sooner, 8, moves(23, 9)[8], to_move=to_move_of(game), standing=Standing.of(game))
    assert await stood(store, sooner) == (game.hand_number, *game.scores())
    cy_sees = {g.id: g for g in await store.saved.unfinished(cy)}[sooner]
    assert (cy_sees.hand, cy_sees.scores, cy_sees.seat) == (game.hand_number, game.scores()[::-1], 1)
    await store.saved.append(sooner, 9, moves(23, 10)[9])
    assert await stood(store, sooner) == (None, None, None)
    game, _ = replay(RULES, 23, moves(23, 10))
    assert {g.id: g.hand for g in await store.saved.unfinished(cy)}[sooner] == game.hand_number


async def stood(store: Store, saved_id: int) -> tuple[Any, ...]:
    """The hand and both scores a kept game's row holds."""
    return tuple(await store.database.query(lambda db: db.execute(
        "SELECT hand, score0, score1 FROM saved_games WHERE id = ?", (saved_id,)).fetchone()))


# -- the schema step ---------------------------------------------------------------------------------------

RELEASE_BEFORE = 19
"""The steps the release before this one knows (its schema's version)."""


@contextlib.contextmanager
def release_before() -> Iterator[None]:
    """While it lasts, this program knows only the steps of the release
    before this one (:data:`RELEASE_BEFORE`)."""
    steps = MIGRATIONS[:]
    del MIGRATIONS[RELEASE_BEFORE:]
    try:
        yield
    finally:
        MIGRATIONS[:] = steps


OLD_BEGIN = ("INSERT INTO saved_games (account_id, opponent, number, first_dealer, rules, match_points, started, seat, "
             "other_account, players, shuffle) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
"""How the release before keeps a new game (after deleting its owner's older one)."""


async def old_keep(store: Store, owner: int, opponent: str, number: int, match_points: tuple[int, int],
                   actions: list[Action], other: int | None = None, shuffle: SeededShuffle | None = None) -> int:
    """A game kept as the release before keeps one: the owner's older game deleted, the new row, its actions."""
    def tx(db: Connection) -> int:
        db.execute("DELETE FROM saved_games WHERE account_id = ?", (owner,))
        row = db.execute(OLD_BEGIN, (owner, opponent, number, None, json.dumps(rules_to_dict(RULES)),
                                     json.dumps(list(match_points)), 100.0, 0, other,
                                     json.dumps(["P", "Q"] if other else []),
                                     None if shuffle is None else json.dumps(shuffle.to_dict()))).fetchone()
        db.executemany("INSERT INTO saved_actions (saved_id, seq, action) VALUES (?, ?, ?)",
                       [(row[0], seq, action_to_text(a)) for seq, a in enumerate(actions)])
        return int(row[0])
    return await store.database.tx(tx)


async def dump(store: Store) -> tuple[list[Any], list[Any]]:
    """Every kept game's row of the release before's columns, and every action."""
    def q(db: Connection) -> tuple[list[Any], list[Any]]:
        games = db.execute("SELECT id, account_id, opponent, number, first_dealer, rules, match_points, started, "
                           "seat, other_account, players, shuffle FROM saved_games ORDER BY id").fetchall()
        actions = db.execute("SELECT saved_id, seq, action FROM saved_actions ORDER BY saved_id, seq").fetchall()
        return [tuple(r) for r in games], [tuple(r) for r in actions]
    return await store.database.query(q)


async def a_store_of_the_release_before(where: Path | str) -> tuple[dict[GameKind, int], tuple[list[Any], list[Any]]]:
    """A store made by the release before holding a kept game of each kind
    it knows (computer, daily deal, sysop, a caller's game, a match game):
    their ids and everything it keeps of them."""
    with release_before():
        store = await Store.open(where)
        try:
            ids = await accounts(store, "Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
            daily = daily_shuffle(DAY, "b" * 64)
            kept = {
                GameKind.COMPUTER: await old_keep(store, ids[0], "computer", 31, (0, 0), moves(31, 10)),
                GameKind.DAILY: await old_keep(store, ids[1], "computer", daily.game, (0, 0),
                                               moves(daily.game, 6, daily), shuffle=daily),
                GameKind.SYSOP: await old_keep(store, ids[2], "sysop", 33, (0, 0), moves(33, 4)),
                GameKind.CALLER: await old_keep(store, ids[3], "caller", 34, (0, 0), moves(34, 12), other=ids[0]),
                GameKind.MATCH: await old_keep(store, ids[4], "caller", 35, (2, 1), moves(35, 1), other=ids[5]),
            }
            return kept, await dump(store)
        finally:
            await store.close()


async def test_the_step_keeps_every_game_and_action_of_a_store_of_the_release_before(where: Path | str) -> None:
    kept, before = await a_store_of_the_release_before(where)
    store = await Store.open(where)  # no node on line: every step is made
    try:
        assert await dump(store) == before
        for kind, saved_id in kept.items():
            saved = await store.saved.load_game(saved_id)
            assert saved is not None and saved.kind == kind and saved.updated == 100.0
            game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
            listed = {g.id: g for g in await store.saved.unfinished(saved.account_id)}[saved_id]
            assert (listed.kind, listed.hand, listed.scores) == (kind, game.hand_number, game.scores())
        # and an account may now keep more than one
        ann = kept_owner = before[0][0][1]
        assert kept_owner == ann
        await store.saved.begin(GameStart(ann, "sysop", 40, None, RULES, (0, 0)))
        assert len(await store.saved.unfinished(ann)) == 3  # her computer game, Dee's with her, the sysop's
    finally:
        await store.close()


async def steps_made(store: Store) -> int:
    return int(await store.database.query(lambda db: db.execute("SELECT version FROM schema_steps").fetchone()[0]))


async def test_while_the_step_waits_for_older_nodes_a_new_game_replaces_its_owners_as_before(
        where: Path | str) -> None:
    """A node of the release before is on line: this release's node makes
    the expand step only, and keeps one game an owner (the rule still in
    force), reading the release before's rows too; ``records contract``
    then makes the step, every game kept, and owners keep many."""
    kept, _ = await a_store_of_the_release_before(where)
    with release_before():
        old = await Store.open(where)
    await old.nodes.register("127.0.0.1", 7000)
    store = await Store.open(where)
    try:
        assert await steps_made(store) == MANY_GAMES - 1 and MANY_GAMES_EXPAND < MANY_GAMES  # (every expand step)
        ann = (await store.saved.load_game(kept[GameKind.COMPUTER])).account_id  # type: ignore[union-attr]
        listed = await store.saved.unfinished(ann)
        assert [(g.id, g.kind, g.other) for g in listed] == [(kept[GameKind.CALLER], GameKind.CALLER, "P"),  # (newer)
                                                              (kept[GameKind.COMPUTER], GameKind.COMPUTER, "Computer")]
        # this release writes where Dee's game with Ann stands; then a node of the release before moves it
        with_dee = kept[GameKind.CALLER]
        game, _ = replay(RULES, 34, moves(34, 13))
        await store.saved.append(with_dee, 12, moves(34, 13)[12], to_move=to_move_of(game), standing=Standing.of(game))
        await old.database.tx(lambda db: db.execute("INSERT INTO saved_actions (saved_id, seq, action) VALUES "
                                                    "(?, 13, ?)", (with_dee, action_to_text(moves(34, 14)[13]))))
        new = await keep(store, GameStart(ann, "sysop", 41, None, RULES, (0, 0)), moves(41, 3))
        assert [g.id for g in await store.saved.unfinished(ann)] == [new, kept[GameKind.CALLER]]  # hers replaced
        # the old node goes on: it replaces the owner's game (now one of this release) its own way
        again = await old_keep(old, ann, "computer", 42, (0, 0), moves(42, 2))
        assert [(g.id, g.kind) for g in await store.saved.unfinished(ann)] == [
            (with_dee, GameKind.CALLER), (again, GameKind.COMPUTER)]  # (the old node's row has no kind: read)
    finally:
        await store.close()
        await old.close()
    store = await Store.open(where, contract=True)
    try:
        assert await steps_made(store) == len(MIGRATIONS)
        assert (await store.saved.load_game(again)).kind == GameKind.COMPUTER  # type: ignore[union-attr]
        game, _ = replay(RULES, 34, moves(34, 14))  # the old node's move is in the list's state (not what was written)
        assert {g.id: g.hand for g in await store.saved.unfinished(ann)}[with_dee] == game.hand_number
        assert await stood(store, with_dee) == (None, None, None)
        await store.saved.begin(GameStart(ann, "sysop", 43, None, RULES, (0, 0)))
        assert len(await store.saved.unfinished(ann)) == 3
    finally:
        await store.close()


async def test_a_tables_journal_keeps_where_its_game_stands(store: Store) -> None:
    """Each move a table keeps says whose move is next and where the game
    stands, so that the lists need no replay."""
    (ann,) = await accounts(store, "Ann")
    journal = Journal(store, ann, ("Ann", "Computer"), (ann, None), Opponent.COMPUTER)
    game = Game(RULES, 51)
    game.start()
    await journal.start(game, (0, 0))
    assert journal.saved_id is not None
    for action in moves(51, 11):
        game.apply(action)
        await journal.action(game)
    assert await stood(store, journal.saved_id) == (game.hand_number, *game.scores())
    saved = await store.saved.load_game(journal.saved_id)
    assert saved is not None and saved.kind == GameKind.COMPUTER and saved.to_move == to_move_of(game) is not None
