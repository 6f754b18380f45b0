"""Rated play by turns (by correspondence, and tournaments' games) on
SQLite and PostgreSQL: a pool of its own beside live play's, each match
moving only its own pool's ratings, and a voided match worked out of the
pool it was played in; a tournament's games rated when the sysop made
it rated and fair play allows the pair."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.config import PagingConfig, RankedConfig
from door.games.house import GameHouse
from door.games.tournament import seat_pairings
from door.records.games import GameRecord
from door.records.migrate import EXPAND
from door.records.ranked.agreement import Agreement, expert_agreement
from door.records.ranked.ratings import MatchRecord
from door.records.ranked.tournament import Format, Kind
from door.records.saved_rows import GameStart
from door.records.schema import MIGRATIONS
from door.records.store import Store
from door.records.tournaments.settings import Play, Settings, TournamentError
from door.sysop.lobby import Lobby
from engine.actions import Discard
from engine.events import GameResult, Skunk
from engine.expert import rank_discards
from engine.game import Game
from engine.rules import Rules


@pytest.fixture
async def store(where: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(where)
    try:
        yield s
    finally:
        await s.close()


def test_the_step_only_adds() -> None:
    step = next(i for i, s in enumerate(MIGRATIONS) if "CREATE TABLE correspondence_ratings" in str(s))
    assert step + 1 in EXPAND and step + 1 < len(MIGRATIONS)  # (an expand step, before the release's contract)
    assert "DROP" not in str(MIGRATIONS[step]) and "RENAME" not in str(MIGRATIONS[step])


def _match(accounts: tuple[int, int], winner: int, by_turns: bool) -> MatchRecord:
    return MatchRecord(("Ann", "Bob"), accounts, 3, True, (2, 1) if winner == 0 else (1, 2), winner,
                       by_turns=by_turns)


async def test_matches_by_turns_are_rated_in_a_pool_of_their_own(store: Store) -> None:
    ann = (await store.accounts.create("Ann", "unused-hash")).id
    bob = (await store.accounts.create("Bob", "unused-hash")).id
    ratings = store.ratings
    change = await ratings.record(_match((ann, bob), 0, by_turns=True))
    assert change is not None and change.after[0].rating > 1500 > change.after[1].rating
    assert await ratings.of(ann) is None and await ratings.of(bob) is None  # live play's pool: untouched
    by_turns = await ratings.of(ann, by_turns=True)
    assert by_turns is not None and by_turns.matches == 1 and by_turns.rating.rating == change.after[0].rating
    await ratings.record(_match((ann, bob), 1, by_turns=False))  # a live match: Bob wins it
    live = await ratings.of(bob)
    assert live is not None and live.matches == 1 and live.rating.rating > 1500
    again = await ratings.of(ann, by_turns=True)
    assert again is not None and again.rating == by_turns.rating  # (the live match did not move it)
    assert [p.name for p in await ratings.top(by_turns=True)] == ["Ann", "Bob"]
    assert [p.name for p in await ratings.top()] == ["Bob", "Ann"]
    rows = await store.database.query(lambda db: db.execute(
        "SELECT id, by_turns FROM matches ORDER BY id").fetchall())
    assert [r[1] for r in rows] == [1, 0]

    assert await ratings.void(rows[0][0]) == 2  # the match by turns voided: its pool worked out again
    assert await ratings.of(ann, by_turns=True) is None and await ratings.of(bob, by_turns=True) is None
    after = await ratings.of(bob)
    assert after is not None and after.rating == live.rating  # (live play's pool as it was)


def test_a_tournaments_rated_setting_is_kept_and_said() -> None:
    settings = Settings(Format(Kind.SWISS, rounds=1), play=Play.CORRESPONDENCE, rated=True)
    assert Settings.from_json(settings.to_json()) == settings and settings.describe().endswith("; rated")
    older = json.loads(settings.to_json())
    del older["rated"]  # (a tournament made before tournaments could be rated)
    assert Settings.from_json(json.dumps(older)).rated is False
    with pytest.raises(TournamentError, match="rated is true or false"):
        Settings(Format(Kind.SWISS, rounds=1), rated="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("may", [True, False])
async def test_a_rated_tournaments_games_by_correspondence_are_rated_where_fair_play_allows(
        store: Store, may: bool) -> None:
    ann = (await store.accounts.create("Ann", "unused-hash")).id
    await store.accounts.create("Bob", "unused-hash")
    t = store.tournaments
    await t.create("letters", "By letter", Settings(Format(Kind.SWISS, rounds=1), play=Play.CORRESPONDENCE,
                                                    rated=True))
    for name in ("Ann", "Bob"):
        await t.enter("letters", name)
    await t.start("letters")
    seatings = await t.step("letters", store.clock())
    assert [s.rated for s in seatings] == [True]
    ranked = RankedConfig(min_games=0, min_age_days=0) if may else RankedConfig()  # (new accounts: 0 games)
    house = GameHouse(store, Lobby(PagingConfig()), ranked=ranked)
    tables = await seat_pairings(house, seatings)
    assert len(tables) == 1 and tables[0].series.rated is may
    kept = [g for g in await store.saved.unfinished(ann)]
    saved = await store.saved.load_game(kept[0].id)
    assert saved is not None and saved.rated is may and saved.best_of == 1  # (the next sitting goes on rated)


async def test_how_often_a_sides_decisions_matched_the_experts_by_turns_and_live(store: Store) -> None:
    """A game played by turns whose one decision of Ann's is the expert's
    own discard, and a live one whose is the expert's worst: by turns she
    matched the expert once in one decision, live never."""
    ann = (await store.accounts.create("Ann", "unused-hash")).id
    bob = (await store.accounts.create("Bob", "unused-hash")).id
    rules = Rules(game_to=61)
    for number, by_turns, pick in ((42, True, 0), (43, False, -1)):
        game = Game(rules, number, 0)
        game.start()
        held = tuple(game.hands[0])
        thrown = rank_discards(held, game.dealer == 0)[pick].thrown
        saved_id = await store.saved.begin(GameStart(ann, "caller", number, 0, rules, (0, 0), 0, bob))
        await store.saved.append(saved_id, 0, Discard(0, tuple(thrown)))
        await store.games.record(saved_id, GameRecord(number, rules, ("Ann", "Bob"), (ann, bob), "caller",
                                                      GameResult(0, (61, 20), Skunk.NONE, 1), [], 0.0,
                                                      first_dealer=0, by_turns=by_turns))
    by_turns = await expert_agreement(store.database, store.games, ann, True)
    live = await expert_agreement(store.database, store.games, ann, False)
    assert by_turns == Agreement(1, 1, 1) and by_turns.words() == "100% of 1 in 1 game"
    assert live == Agreement(0, 1, 1)
    assert await expert_agreement(store.database, store.games, bob, True) == Agreement(0, 0, 1)  # (no decision)
