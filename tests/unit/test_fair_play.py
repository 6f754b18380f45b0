"""Fair play in rated matches, in the records: who may play one
(games, age, aborts, networks, a shared line, a pair's day), the sysop's
list of what slipped through, and a voided match's ratings worked out
again to the exact values without it."""

from __future__ import annotations

import time
from pathlib import Path

from door.records.games import GameRecord
from door.records.passwords import hash_password
from door.records.ranked.fair_play import DAY, Contender, FairPlayRules
from door.records.ranked.glicko2 import Rating, rate_match
from door.records.ranked.pools import why_unrated
from door.records.ranked.ratings import MatchRecord
from door.records.store import DATABASE_NAME, Store
from engine.events import GameResult, Skunk
from engine.rules import Rules

HASH = hash_password("fair-secret")
"""One hash for every account here (scrypt is slow)."""


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def accounts(store: Store, *names_and_addresses: tuple[str, str]) -> list[int]:
    return [(await store.accounts.create(name, HASH, address)).id for name, address in names_and_addresses]


async def finished_games(store: Store, account_id: int, n: int) -> None:
    """``n`` finished games of ``account_id`` against the computer."""
    for _ in range(n):
        await store.games.record(None, GameRecord(1, Rules(), ("X", "Computer"), (account_id, None), "computer",
                                 GameResult(0, (121, 90), Skunk.NONE, 1), [], store.clock()))


def rated(a: int, b: int, winner: int, **extra) -> MatchRecord:  # type: ignore[no-untyped-def]
    return MatchRecord((f"p{a}", f"p{b}"), (a, b), 3, True, (2, 0) if winner == 0 else (0, 2), winner, **extra)


async def test_who_may_play_a_rated_match(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    rules = FairPlayRules(min_games=2, min_age=DAY, pair_per_day=2, abort_limit=2, abort_window=DAY,
                          abort_hold=3600)
    try:
        ann, bob, cy = await accounts(store, ("Ann", "192.0.2.10"), ("Bob", "198.51.100.20"), ("Cy", "192.0.2.77"))
        a, b = Contender(ann, "Ann", "192.0.2.10"), Contender(bob, "Bob", "198.51.100.20")
        assert "Ann has finished 0 of the 2 games" in (await store.fair_play.why_unrated(a, b, rules) or "")
        for who in (ann, bob, cy):
            await finished_games(store, who, 2)
        assert "Ann's account is new" in (await store.fair_play.why_unrated(a, b, rules) or "")
        clock.now += DAY + 1
        assert await store.fair_play.why_unrated(a, b, rules) is None
        # the same /24 now, or when one of them registered: unrated (unless the house allows it)
        c_now = Contender(cy, "Cy", "203.0.113.5")
        why = await store.fair_play.why_unrated(a, c_now, rules)  # Cy registered from Ann's /24
        assert why is not None and "same network" in why
        same = Contender(bob, "Bob", "192.0.2.99")
        assert "same network" in (await store.fair_play.why_unrated(a, same, rules) or "")
        allowed = FairPlayRules(min_games=2, min_age=DAY, same_network=True, pair_per_day=2)
        assert await store.fair_play.why_unrated(a, same, allowed) is None
        # one pair counts at most pair_per_day rated matches a day
        for winner in (0, 1):
            await store.ratings.record(rated(ann, bob, winner))
        assert "the most one pair may" in (await store.fair_play.why_unrated(a, b, rules) or "")
        clock.now += DAY
        assert await store.fair_play.why_unrated(a, b, rules) is None
        # aborts before the first deal: two in a day hold the aborter back for an hour after the last
        for _ in range(2):
            await store.ratings.record(MatchRecord(("Ann", "Bob"), (ann, bob), 3, True, (0, 0), 0, aborted=True,
                                                   leaver=1))
        until = await store.fair_play.held_back(bob, rules)
        assert until is not None and abs(until - (clock.now + 3600)) < 1
        assert await store.fair_play.held_back(ann, rules) is None
        assert "Bob aborted 2 rated matches lately" in (await store.fair_play.why_unrated(a, b, rules) or "")
        clock.now += 3601
        assert await store.fair_play.why_unrated(a, b, rules) is None
        # an aborted match moves no rating
        assert (await store.ratings.of(ann)).matches == 2  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_callers_on_a_shared_line_are_judged_by_their_history(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    rules = FairPlayRules(min_games=0, min_age=0, pair_per_day=10)
    try:
        ann, bob = await accounts(store, ("Ann", "10.0.0.5"), ("Bob", "10.0.0.5"))
        a, b = Contender(ann, "Ann", "", shared=True), Contender(bob, "Bob", "", shared=True)
        assert await store.fair_play.why_unrated(a, b, rules) is None  # one BBS: the address says nothing
        for _ in range(2):
            await store.ratings.record(rated(ann, bob, 0, forfeit=True, leaver=1))
            clock.now += 60
        why = await store.fair_play.why_unrated(a, b, rules)
        assert why is not None and "won by forfeit by the same side" in why
    finally:
        await store.close()


async def test_voiding_a_match_gives_the_ratings_it_would_have_without_it(tmp_path: Path) -> None:
    """Ratings after A, B, C with B voided are exactly the ratings after A
    and C alone (each match its own rating period, in order)."""
    clock = Clock()
    voided = await Store.open(tmp_path / "one.sqlite3", clock)
    clean = await Store.open(tmp_path / "two.sqlite3", clock)
    try:
        ids = {}
        for store in (voided, clean):
            ids[store] = await accounts(store, ("Ann", "1.1.1.1"), ("Bob", "2.2.2.2"), ("Cy", "3.3.3.3"))
        plays = [(0, 1, 0), (1, 2, 1), (0, 2, 0), (2, 1, 0), (0, 1, 1)]
        for n, (x, y, winner) in enumerate(plays):
            clock.now += 10
            for store in (voided, clean):
                if store is clean and n == 1:
                    continue  # the match that is voided in the other store
                i = ids[store]
                await store.ratings.record(rated(i[x], i[y], winner))
        match_id = await voided.database.query(lambda db: db.execute(
            "SELECT id FROM matches ORDER BY ended, id").fetchall()[1][0])
        changed = await voided.ratings.void(match_id)
        assert changed == 3
        for k in range(3):
            got = await voided.ratings.of(ids[voided][k])
            want = await clean.ratings.of(ids[clean][k])
            assert got is not None and want is not None
            assert (got.rating, got.matches) == (want.rating, want.matches)  # exact, not nearly
        try:
            await voided.ratings.void(match_id)
            raise AssertionError("a match was voided twice")
        except KeyError:
            pass
        # the first match's own figures are the Glicko-2 of two new players
        first = rate_match(Rating(), Rating(), True)
        row = await voided.database.query(lambda db: db.execute(
            "SELECT after0, after1 FROM matches ORDER BY ended, id").fetchone())
        assert row == (first[0].rating, first[1].rating)
    finally:
        await voided.close()
        await clean.close()


async def test_the_sysop_sees_what_slipped_through(tmp_path: Path) -> None:
    clock = Clock()
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann, bob = await accounts(store, ("Ann", "1.1.1.1"), ("Bob", "2.2.2.2"))
        for _ in range(4):
            clock.now += 60
            await store.ratings.record(rated(ann, bob, 0, forfeit=True, leaver=1, hands=0,
                                             networks=("192.0.2.0/24", "192.0.2.0/24")))
        found = await store.fair_play.suspicious(clock.now - DAY)
        kinds = {s.kind for s in found}
        assert kinds == {"pair", "quick forfeit", "shared network", "big gain"}, found
        pair = next(s for s in found if s.kind == "pair")
        assert "4 rated matches" in pair.text and "p" in pair.text and len(pair.matches) == 4
        gain = next(s for s in found if s.kind == "big gain")
        assert gain.text.startswith("p") and "gained" in gain.text
        clock.now += 60  # a rated match one side played by the game protocol: named, whoever won
        await store.ratings.record(rated(ann, bob, 1, via=("api", "telnet")))
        program = [s for s in await store.fair_play.suspicious(clock.now - 30) if s.kind == "program"]
        assert [s.text for s in program] == [f"match {program[0].matches[0]}: p{ann} played by the game protocol "
                                             "(the card table, or a program that may be an engine)"]
    finally:
        await store.close()


async def test_bots_are_rated_in_a_pool_of_their_own(tmp_path: Path) -> None:
    """Two bots of one machine, minutes old, may play rated (in their own
    pool, only the sysop makes an account) once each has finished its
    games; a bot and a person may not, unless the sysop puts the bot in
    people's pool, where fair play judges it as any person; a bot kept
    unrated plays nobody rated."""
    store = await Store.open(tmp_path / DATABASE_NAME, Clock())
    try:
        rules = FairPlayRules(min_games=2)
        (ann,) = await accounts(store, ("Ann", "10.0.0.5"))
        robo, bender, hal, kit = [(await store.bots.make(name, pool))[0].id for name, pool in
                                  (("Robo", None), ("Bender", "bots"), ("Hal", "people"), ("Kit", "unrated"))]
        for account in (ann, robo, bender, hal, kit):
            await finished_games(store, account, 2)
        side = {a: Contender(a, name, "10.0.0.9") for a, name in
                ((ann, "Ann"), (robo, "Robo"), (bender, "Bender"), (hal, "Hal"), (kit, "Kit"))}

        async def why(a: int, b: int) -> str | None:
            return await why_unrated(store.bots, store.fair_play, side[a], side[b], rules)

        assert await why(robo, bender) is None
        assert await why(robo, ann) == "Bots are rated in a pool of their own, not with people."
        assert await why(hal, robo) == "Bots are rated in a pool of their own, not with people."
        assert "Hal's account is new" in (await why(hal, ann) or "")  # people's rules, every one of them
        assert await why(kit, bender) == "Kit is a bot that the sysop keeps out of rated play."
        strict = FairPlayRules(min_games=3)
        assert "Robo has finished 2 of the 3 games" in (
            await why_unrated(store.bots, store.fair_play, side[robo], side[bender], strict) or "")
    finally:
        await store.close()
