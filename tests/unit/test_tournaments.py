"""Tournaments in the store (door/records/tournaments/): a 9-player
qualifying Swiss of 3 rounds then a knock-out of the top 4 in best of
three, results entered round by round on a fake clock, one player missing
a deadline, every pairing, bye, standing, place and season point checked
against the rules of docs/tournaments.md (worked out by hand in the
comments); entering and its refusals; the sysop's remedies."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import pytest

from door.records.connection import Connection
from door.records.ranked.tournament import Format, Kind
from door.records.store import DATABASE_NAME, Store
from door.records.tournaments.repository import Tournaments
from door.records.tournaments.settings import DAY, HOUR, Play, Settings, TournamentError
from door.records.tournaments.values import BOTH_LOST, State
from tests.support.fake_clock import FakeClock

START = 1_800_000_000.0
RATED = {"Ann": 1900, "Bob": 1850, "Cy": 1800, "Dee": 1750, "Eve": 1700, "Fay": 1650, "Gus": 1600, "Hal": 1550,
         "Ivy": 1500}


async def callers(store: Store, ratings: Mapping[str, float]) -> None:
    """Register each of ``ratings``' callers with that rating."""
    for name, rating in ratings.items():
        account = await store.accounts.create(name, "unused-hash")

        def rate(db: Connection, a: int = account.id, r: float = rating) -> None:
            db.execute("INSERT INTO ratings (account_id, rating, rd, volatility, matches, updated) "
                       "VALUES (?, ?, 60, 0.06, 20, 0)", (a, r))
        await store.database.tx(rate)


def table(pairings: list, wave: int) -> list[tuple[str, str, str | None]]:  # type: ignore[type-arg]
    return [(p.slot, *p.players) for p in pairings if p.wave == wave]


async def test_a_qualifying_swiss_then_a_knock_out_of_the_top_4(where: Path | str) -> None:
    clock = FakeClock(START)
    store = await Store.open(where, clock)
    try:
        await callers(store, RATED)
        t = store.tournaments
        settings = Settings(Format(Kind.QUALIFYING, rounds=3, games=3, qualify=Fraction(1, 2)), round_hours=2,
                            show_minutes=120)  # (nobody sits at a table here: only the deadlines decide)
        await t.create("autumn", "Autumn qualifier", settings)
        for name in RATED:
            await t.enter("autumn", name.lower())  # any case: the name as registered is kept
        await t.start("autumn")
        assert await t.step("autumn", clock.now) != []

        # Round 1 by rating, Ivy (the lowest) out with the bye; the top half meets the bottom half
        view = await t.view("autumn")
        assert table(view.pairings, 1) == [("1-1", "Ann", "Eve"), ("1-2", "Bob", "Fay"), ("1-3", "Cy", "Gus"),
                                           ("1-4", "Dee", "Hal"), ("1-5", "Ivy", None)]
        bye = view.pairings[4]
        assert (bye.winner, bye.how, bye.deadline) == (0, "bye", None)
        assert all(p.deadline == START + 2 * HOUR for p in view.pairings[:4])
        await t.record("autumn", "Ann", "Eve", (121, 100))
        await t.record("autumn", "Fay", "Bob", (121, 85))  # a skunk: 3 game points
        await t.record("autumn", "Cy", "Gus", (121, 110))
        await t.record("autumn", "Dee", "Hal", (121, 115))
        clock.now += HOUR
        seats = await t.step("autumn", clock.now)

        # Fay 3 (+36); Ann 2 (+21), Cy 2 (+11), Dee 2 (+6), Ivy 2 (the bye, 0); Hal -6, Gus -11, Eve -21, Bob -36.
        # The bye goes to the lowest of those with none: Bob; the rest meet the nearest below not met.
        view = await t.view("autumn")
        assert table(view.pairings, 2) == [("2-1", "Fay", "Ann"), ("2-2", "Cy", "Dee"), ("2-3", "Ivy", "Hal"),
                                           ("2-4", "Gus", "Eve"), ("2-5", "Bob", None)]
        assert [s.players for s in seats] == [("Fay", "Ann"), ("Cy", "Dee"), ("Ivy", "Hal"), ("Gus", "Eve")]
        assert seats[0].best_of == 1 and seats[0].deadline == clock.now + 2 * HOUR and seats[0].move_days is None
        assert None not in seats[0].accounts
        await t.record("autumn", "Ann", "Fay", (121, 100))
        await t.record("autumn", "Dee", "Cy", (121, 60))  # a double skunk: 3 game points
        await t.record("autumn", "Eve", "Gus", (121, 111))
        await t.check_in("autumn", "Ivy")  # Hal never turns up
        clock.now += HOUR
        assert await t.step("autumn", clock.now) == []  # the deadline has not passed: nothing moves
        clock.now += HOUR
        await t.step("autumn", clock.now)

        view = await t.view("autumn")
        late = next(p for p in view.pairings if p.slot == "2-3")
        assert (late.winner, late.how, late.scores) == (0, "forfeit", (0, 0)) and late.players[0] == "Ivy"
        # Dee 5 (+67); Ann 4 (+42); Ivy 4 (0); Fay 3 (+15); Eve 2 (-11), Bob 2 (-36), Cy 2 (-50); Hal 0 (-6),
        # Gus 0 (-21).  Gus has the bye; no rematch is needed.
        assert table(view.pairings, 3) == [("3-1", "Dee", "Ann"), ("3-2", "Ivy", "Fay"), ("3-3", "Eve", "Bob"),
                                           ("3-4", "Cy", "Hal"), ("3-5", "Gus", None)]
        await t.record("autumn", "Ann", "Dee", (121, 105))
        await t.record("autumn", "Fay", "Ivy", (121, 119))
        await t.record("autumn", "Bob", "Eve", (121, 80))
        await t.record("autumn", "Hal", "Cy", (121, 101))
        clock.now += HOUR
        await t.step("autumn", clock.now)

        view = await t.view("autumn")
        assert [(line.name, line.points, line.won, line.played, line.skunks, line.spread) for line in view.standings] \
            == [("Ann", 6, 3, 3, 0, 58), ("Dee", 5, 2, 3, 1, 51), ("Fay", 5, 2, 3, 1, 17), ("Bob", 5, 2, 3, 1, 5),
                ("Ivy", 4, 2, 3, 0, -2), ("Hal", 2, 1, 3, 0, 14), ("Gus", 2, 1, 3, 0, -21),
                ("Eve", 2, 1, 3, 0, -52), ("Cy", 2, 1, 3, 0, -70)]
        # The top half of 9 (4) in the knock-out, 1 v 4 and 2 v 3; the other 5 in the consolation, a bracket
        # of 8 whose byes fall to its top seeds (Ivy, Hal, Gus), so Gus and Hal meet at once
        assert table(view.pairings, 4) == [("W1-1", "Ann", "Bob"), ("W1-2", "Dee", "Fay"), ("W1-2", "Eve", "Cy"),
                                           ("W2-2", "Gus", "Hal")]
        assert [p.stage for p in view.pairings if p.wave == 4] == ["bracket", "bracket", "consolation",
                                                                   "consolation"]
        with pytest.raises(TournamentError, match="best of 3 is won 2 games"):
            await t.record("autumn", "Ann", "Bob", (3, 1))
        await t.record("autumn", "Ann", "Bob", (2, 1))
        await t.record("autumn", "Fay", "Dee", (2, 0))
        await t.record("autumn", "Eve", "Cy", (2, 1))
        await t.record("autumn", "Hal", "Gus", (2, 0))
        clock.now += HOUR
        await t.step("autumn", clock.now)
        view = await t.view("autumn")
        assert table(view.pairings, 5) == [("W2-1", "Ann", "Fay"), ("W2-1", "Ivy", "Eve")]
        await t.record("autumn", "Fay", "Ann", (2, 1))
        await t.record("autumn", "Ivy", "Eve", (2, 0))
        clock.now += HOUR
        await t.step("autumn", clock.now)
        view = await t.view("autumn")
        assert table(view.pairings, 6) == [("W3-1", "Ivy", "Hal")]
        assert view.tournament.state is State.RUNNING
        await t.record("autumn", "Ivy", "Hal", (2, 1))
        clock.now += HOUR
        assert await t.step("autumn", clock.now) == []

        view = await t.view("autumn")
        assert view.tournament.state is State.FINISHED and view.tournament.ended == clock.now
        assert [s.champion for _, s in view.brackets] == ["Fay", "Ivy"]
        # Places: the knock-out's (Fay, Ann, then Bob and Dee out in its first round, sharing third), then the
        # consolation's after them (Ivy 5, Hal 6, Eve and Gus 7, Cy 9).  Games won: the Swiss's (byes not) and
        # the matches'.
        finishes = await t.finishes(2027)
        assert [(f.name, f.place, f.won) for f in finishes] == [
            ("Fay", 1, 6), ("Ann", 2, 6), ("Bob", 3, 2), ("Dee", 3, 2), ("Ivy", 5, 5), ("Hal", 6, 4),
            ("Eve", 7, 3), ("Gus", 7, 0), ("Cy", 9, 2)]
        season = await t.season(2027)
        assert [(s.name, s.points) for s in season] == [("Fay", 16), ("Ann", 13), ("Ivy", 8), ("Bob", 7),
                                                        ("Dee", 7), ("Hal", 6), ("Eve", 4), ("Cy", 2), ("Gus", 1)]
        assert await t.step("autumn", clock.now + 1e6) == []  # over: nothing more happens
        assert len(await t.finishes(2027)) == 9
    finally:
        await store.close()


async def test_entries_are_checked_where_they_enter(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1500, "Cy": 1200})
        await store.bots.make("Robo")
        t = store.tournaments
        with pytest.raises(TournamentError, match="lower-case letters"):
            await t.create("Spring Open", "Spring", Settings(Format(Kind.SWISS, rounds=3)))
        with pytest.raises(ValueError, match="1 to 99 rounds"):
            Settings(Format(Kind.SWISS, rounds=0))
        with pytest.raises(TournamentError, match="rating band is empty"):
            Settings(Format(Kind.SWISS, rounds=3), min_rating=1800, max_rating=1400)
        with pytest.raises(TournamentError, match="a correspondence move is 1 to 14 days"):
            Settings(Format(Kind.SINGLE), move_days=30)
        with pytest.raises(TournamentError, match="entries would close before the tournament is made"):
            await t.create("past", "Past", Settings(Format(Kind.SINGLE), closes=START - 1))
        settings = Settings(Format(Kind.SINGLE, games=3), min_rating=1300, max_rating=2000,
                            closes=START + 3600)
        await t.create("spring", "Spring open", settings)
        with pytest.raises(TournamentError, match="already a tournament called 'spring'"):
            await t.create("spring", "Again", settings)
        await t.enter("spring", "Ann")
        with pytest.raises(TournamentError, match="already entered"):
            await t.enter("spring", "ANN")
        with pytest.raises(TournamentError, match="not a registered caller"):
            await t.enter("spring", "Nobody")
        with pytest.raises(TournamentError, match="Robo is a bot"):
            await t.enter("spring", "Robo")
        with pytest.raises(TournamentError, match="rating 1200 is outside spring's band"):
            await t.enter("spring", "Cy")
        with pytest.raises(TournamentError, match="needs at least 2 entrants"):
            await t.start("spring")
        await t.enter("spring", "Bob")
        await t.withdraw("spring", "bob")
        with pytest.raises(TournamentError, match="'Bob' has not entered"):
            await t.withdraw("spring", "Bob")
        await t.enter("spring", "Bob")
        clock.now = START + 3600
        with pytest.raises(TournamentError, match="entries have closed"):
            await t.enter("spring", "Robo")
        # the director starts it when entries close, and pairs its first match
        assert await t.due(clock.now) == ["spring"]
        seats = await t.step("spring", clock.now)
        assert [(s.slot, s.players, s.best_of) for s in seats] == [("W1-1", ("Ann", "Bob"), 3)]
        with pytest.raises(TournamentError, match="has started"):
            await t.withdraw("spring", "Ann")
        assert [x.name for x in await t.listing(State.RUNNING)] == ["spring"]
        assert await t.listing(State.OPEN) == []
    finally:
        await store.close()


async def test_the_sysops_remedies_and_both_players_late(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800, "Cy": 1700, "Dee": 1600, "Eve": 1500})
        t = store.tournaments
        await t.create("club", "Club Swiss", Settings(Format(Kind.SWISS, rounds=2), round_hours=1))
        for name in ("Ann", "Bob", "Cy", "Dee"):
            await t.enter("club", name)
        await t.start("club")
        await t.step("club", clock.now)  # Ann v Cy, Bob v Dee
        assert await t.extend("club", 2, "Ann") == 1
        clock.now += 1.5 * HOUR  # past the deadline of Bob v Dee, not of Ann v Cy (extended)
        await t.step("club", clock.now)
        view = await t.view("club")
        both = next(p for p in view.pairings if p.slot == "1-2")
        assert (both.winner, both.how) == (BOTH_LOST, "both late")
        assert next(p for p in view.pairings if p.slot == "1-1").open
        # both lost: a game played and lost each, no points
        assert [(line.name, line.points, line.played) for line in view.standings if line.name in ("Bob", "Dee")] \
            == [("Bob", 0, 1), ("Dee", 0, 1)]
        await t.replace("club", "Cy", "Eve")  # Eve takes Cy's place, game and all
        view = await t.view("club")
        assert next(p for p in view.pairings if p.slot == "1-1").players == ("Ann", "Eve")
        await t.adjudicate("club", "Eve", "Ann")
        with pytest.raises(TournamentError, match="no open game together"):
            await t.record("club", "Eve", "Ann", (121, 100))
        await t.step("club", clock.now)
        view = await t.view("club")
        assert [p.how for p in view.pairings if p.wave == 1] == ["adjudicated", "both late"]
        with pytest.raises(TournamentError, match="later rounds were paired from it"):
            await t.adjudicate("club", "Ann", "Eve")
        with pytest.raises(TournamentError, match="won with 121 points"):
            await t.record("club", *view.pairings[-2].players, (100, 90))  # type: ignore[arg-type]
    finally:
        await store.close()


async def test_live_set_times_and_correspondence_deadlines(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1800})
        t = store.tournaments
        await t.create("weekly", "Weekly", Settings(Format(Kind.SWISS, rounds=2), round_hours=1, interval_hours=24))
        await t.create("letters", "By letter", Settings(Format(Kind.DOUBLE, games=5), play=Play.CORRESPONDENCE,
                                                        move_days=2, round_days=10))
        for name in ("weekly", "letters"):
            await t.enter(name, "Ann")
            await t.enter(name, "Bob")
            await t.start(name)
        first = await t.step("letters", clock.now)
        assert [(s.best_of, s.move_days, s.deadline) for s in first] == [(5, 2, START + 10 * DAY)]
        await t.step("weekly", clock.now)
        await t.record("weekly", "Ann", "Bob", (121, 100))
        clock.now += 23 * HOUR
        assert await t.step("weekly", clock.now) == []  # round 2's set time is a day after the start
        clock.now += HOUR
        seats = await t.step("weekly", clock.now)
        assert [(s.slot, s.players, s.move_days) for s in seats] == [("2-1", ("Ann", "Bob"), None)]
        # a double elimination of two: the winners' champion loses the grand final, so the reset is played
        await t.record("letters", "Ann", "Bob", (3, 2))
        assert [s.slot for s in await t.step("letters", clock.now)] == ["F1"]
        await t.record("letters", "Bob", "Ann", (3, 0))
        assert [s.slot for s in await t.step("letters", clock.now)] == ["F2"]
        await t.record("letters", "Bob", "Ann", (3, 1))
        await t.step("letters", clock.now)
        view = await t.view("letters")
        assert view.tournament.state is State.FINISHED and view.brackets[0][1].champion == "Bob"
    finally:
        await store.close()


async def test_a_knock_out_match_both_miss_goes_to_the_better_seed_and_the_game_says_who_is_late(
        tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Ann": 1500, "Bob": 1900, "Cy": 1700, "Dee": 1600})
        t = store.tournaments
        await t.create("cup", "Cup", Settings(Format(Kind.SINGLE, games=3), round_hours=1))
        for name in ("Ann", "Bob", "Cy", "Dee"):
            await t.enter(name="cup", player=name)
        await t.start("cup")
        seats = await t.step("cup", clock.now)
        assert [s.players for s in seats] == [("Bob", "Ann"), ("Cy", "Dee")]  # 1 v 4, 2 v 3
        await t.check_in("cup", "Cy")
        await t.check_in("cup", "Dee")
        await t.waiting_on(seats[1].pairing, 0)  # both sat down; the game waits on Cy
        clock.now += 2 * HOUR
        assert [s.players for s in await t.step("cup", clock.now)] == [("Bob", "Dee")]
        view = await t.view("cup")
        assert [(p.slot, p.winner, p.scores, p.how) for p in view.pairings[:2]] == [
            ("W1-1", 0, (2, 0), "both late, the better seed goes on"), ("W1-2", 1, (0, 2), "forfeit")]
    finally:
        await store.close()


async def test_a_replaced_player_keeps_their_place_in_the_bracket_as_drawn(tmp_path: Path) -> None:
    clock = FakeClock(START)
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        await callers(store, {"Bob": 1500, "Cy": 1500, "Dee": 1500, "Eve": 1500, "Abe": 1500})
        t = store.tournaments
        await t.create("cup", "Cup", Settings(Format(Kind.SINGLE, games=1)))
        for name in ("Bob", "Cy", "Dee", "Eve"):
            await t.enter("cup", name)
        await t.start("cup")
        await t.step("cup", clock.now)  # seeds by name (equal ratings): Bob v Eve, Cy v Dee
        await t.record("cup", "Bob", "Eve", (1, 0))
        await t.replace("cup", "Cy", "Abe")  # Abe would be the first seed by name if the bracket were drawn again
        view = await t.view("cup")
        assert view.tournament.seeds == {"bracket": ("Bob", "Abe", "Dee", "Eve")}
        assert [(p.slot, p.players) for p in view.pairings] == [("W1-1", ("Bob", "Eve")), ("W1-2", ("Abe", "Dee"))]
        assert [state.matches["W1-1"].winner for _, state in view.brackets] == ["Bob"]
        await t.record("cup", "Dee", "Abe", (1, 0))
        assert [s.players for s in await t.step("cup", clock.now)] == [("Bob", "Dee")]
    finally:
        await store.close()


async def test_standings_asked_for_again_within_seconds_are_not_worked_out_anew(where: Path | str) -> None:
    """A view asked for ``within`` seconds of the last is the one worked
    out then (a program may ask for a big Swiss's standings hundreds of
    times a second, each tens of milliseconds of the store's one thread);
    a change made through the repository is seen at once, one made at
    another node (another repository on the store) once the seconds pass;
    the list's entries are read without working out the standings."""
    clock = FakeClock(START)
    store = await Store.open(where, clock)
    try:
        await callers(store, {"Ann": 1900, "Bob": 1850})
        t = store.tournaments
        await t.create("autumn", "Autumn", Settings(Format(Kind.SWISS, rounds=3), round_hours=2))
        assert await t.view("autumn", 2.0) is await t.view("autumn", 2.0)
        assert await t.view("autumn") is not await t.view("autumn")  # (without within: always anew)
        await t.enter("autumn", "Ann")  # here: seen at once
        assert [e.name for e in (await t.view("autumn", 2.0)).entries] == ["Ann"]
        other = Tournaments(store.database, clock)  # another node's
        await other.enter("autumn", "Bob")
        assert [e.name for e in (await t.view("autumn", 2.0)).entries] == ["Ann"]
        assert [e.name for e in await t.entries("autumn")] == ["Ann", "Bob"]
        clock.now += 2.0
        assert [e.name for e in (await t.view("autumn", 2.0)).entries] == ["Ann", "Bob"]
        with pytest.raises(TournamentError):
            await t.view("nope", 2.0)
    finally:
        await store.close()
