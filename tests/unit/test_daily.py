"""The daily deal's records: a day's cards from a secret seed nobody can
compute offline, one play a caller (and an address) a day, the day's
ranking against the par with unfinished plays ranked as they stood, the
seed shown only once the day is over, and the streak."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import time
from pathlib import Path

from door.records.cli import run_records
from door.records.daily import REVEAL_GRACE, day_end, day_of, marker
from door.records.games import Opponent
from door.records.passwords import hash_password
from door.records.ranked.fair_play import FairPlayRules
from door.records.saved_games import GameStart
from door.records.store import DATABASE_NAME, Store
from engine.actions import Discard
from engine.game import Game
from engine.rules import Rules
from engine.shuffle import commitment


class Clock:
    """A clock a test sets: seconds since the epoch."""

    def __init__(self, day: str) -> None:
        self.now = time.mktime(time.strptime(day + " 12:00", "%Y-%m-%d %H:%M"))

    def __call__(self) -> float:
        return self.now

    def next_day(self) -> None:
        self.now += 86400


def public_formula(day: str) -> int:
    """The daily deal's game number as it once was: SHA-256 of a fixed
    string and the date, computable by anyone, for any day, offline."""
    digest = hashlib.sha256(f"cribbage-door daily deal {day}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 999_999


def first_hands(game: Game) -> list[list[str]]:
    game.start()
    return [sorted(c.to_str() for c in game.hands[0]), sorted(c.to_str() for c in game.hands[1])]


async def test_a_days_cards_come_from_a_secret_seed_not_from_the_date(tmp_path: Path) -> None:
    """A script that deals the day from the date (the old public formula)
    no longer matches the dealt cards, nor does the numbered game of the
    deal's own number; every node reads one seed; it is shown only once
    the day is over, and it hashes to the commitment shown all day."""
    clock = Clock("2026-11-28")
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    other = await Store.open(tmp_path / DATABASE_NAME, clock)  # a second node on the same store
    try:
        day = store.daily.today()
        deal = await store.daily.deal(day)
        assert await other.daily.deal(day) == deal  # the same cards on every node
        dealt = first_hands(Game(Rules(), deal.game, shuffle=deal))
        assert dealt != first_hands(Game(Rules(), public_formula(day)))  # the offline script is wrong now
        assert dealt != first_hands(Game(Rules(), deal.game))  # "Play a numbered game" of its number too
        assert deal.player_seeds == (marker(day), marker(day))
        assert await store.daily.commitment(day) == commitment(deal.server_seed)
        assert await store.daily.revealed(day) is None  # not while the day lasts
        tomorrow = await store.daily.deal("2026-11-29")
        assert tomorrow.server_seed != deal.server_seed
        clock.next_day()
        assert await store.daily.revealed(day) == deal.server_seed
        assert await store.daily.revealed("2026-11-29") is None
    finally:
        await other.close()
        await store.close()


async def test_one_play_a_day_an_account_and_an_address(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME, Clock("2026-11-26"))
    try:
        ann, bob, cy, dee = [await store.accounts.create(n, hash_password(f"{n}-secret"))
                             for n in ("Ann", "Bob", "Cy", "Dee")]
        day = "2026-11-26"
        assert await store.daily.claim(ann.id, day, "192.0.2.1") is None
        assert "played today's deal already" in (await store.daily.claim(ann.id, day, "192.0.2.9") or "")
        refused = await store.daily.claim(bob.id, day, "192.0.2.1")  # Ann's second account, at her address
        assert refused is not None and "from your address already" in refused
        assert not await store.daily.played(bob.id, day)
        assert await store.daily.claim(cy.id, day, "") is None  # a shared line (a BBS): by account only
        assert await store.daily.claim(dee.id, day, "") is None
    finally:
        await store.close()


async def test_a_ranking_against_the_par_and_a_streak(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / DATABASE_NAME, Clock("2026-11-26"))
    try:
        ann = await store.accounts.create("Ann", hash_password("ann-secret"))
        bob = await store.accounts.create("Bob", hash_password("bob-secret"))
        day = "2026-11-26"
        assert await store.daily.claim(ann.id, day) is None
        assert await store.daily.pending(ann.id, day) and await store.daily.played(ann.id, day)
        assert await store.daily.claim(bob.id, day) is None
        await store.daily.finish(ann.id, day, 121, 100)
        await store.daily.finish(bob.id, day, 110, 121)
        assert not await store.daily.pending(ann.id, day)
        ranking = await store.daily.ranking(day)
        assert [(r.name, r.margin, r.against_par) for r in ranking] == [("Ann", 21, None), ("Bob", -11, None)]
        await store.daily.set_par(day, 121, 110)
        await store.daily.set_par(day, 90, 121)  # the first par kept stays
        assert await store.daily.par(day) == (121, 110)
        assert [r.against_par for r in await store.daily.ranking(day)] == [10, -22]
        for earlier in ("2026-11-25", "2026-11-24", "2026-11-22"):
            assert await store.daily.claim(ann.id, earlier) is None
        assert await store.daily.streak(ann.id, day) == 3  # the 26th, 25th and 24th; not the 22nd
        assert await store.daily.streak(ann.id, "2026-11-27") == 3  # not yet played today: still going
        assert await store.daily.streak(ann.id, "2026-11-28") == 0
        assert day_of(0).count("-") == 2
    finally:
        await store.close()


async def test_a_play_left_unfinished_is_ranked_as_it_stood_once_the_day_is_over(tmp_path: Path) -> None:
    """A losing play left unfinished used to never reach the ranking: now
    it is ranked as it stood when the day ended, marked unfinished, from
    the standing kept when the caller left it, or from the kept game when
    the server stopped first."""
    clock = Clock("2026-11-26")
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann, bob, cy = [await store.accounts.create(n, hash_password(f"{n}-secret")) for n in ("Ann", "Bob", "Cy")]
        day = store.daily.today()
        deal = await store.daily.deal(day)
        for account in (ann, bob, cy):
            assert await store.daily.claim(account.id, day) is None
        await store.daily.finish(ann.id, day, 61, 40)
        await store.daily.finish(bob.id, day, 20, 45, finished=False)  # Bob left it, losing
        # Cy's server stopped mid-game: no standing, only the kept game (some moves in)
        game = Game(Rules(game_to=61), deal.game, shuffle=deal)
        game.start()
        saved_id = await store.saved.begin(GameStart(cy.id, Opponent.COMPUTER, deal.game, game.first_dealer, game.rules, (0, 0),
                                           0, None, ("Cy", "Computer"), deal))
        for seq, seat in enumerate((1 - game.dealer, game.dealer)):
            action = Discard(seat, (game.hands[seat][0], game.hands[seat][1]))
            game.apply(action)
            await store.saved.append(saved_id, seq, action)
        while game.scores() == (0, 0):  # and played on until somebody scored
            action = game.legal_actions(game.to_act()[0])[0]
            game.apply(action)
            await store.saved.append(saved_id, len(game.actions) - 1, action)
        # then Cy began a game against the computer: kept beside the day's deal, which is still the one ranked
        await store.saved.begin(GameStart(cy.id, Opponent.COMPUTER, 99, None, Rules(game_to=61), (0, 0)))
        assert [r.name for r in await store.daily.ranking(day)] == ["Ann"]  # the day goes on: finished plays only
        assert await store.daily.pending(bob.id, day)  # Bob may still go back to it today
        clock.next_day()
        ranking = await store.daily.ranking(day)
        assert [(r.name, r.score, r.computer, r.unfinished) for r in ranking] == [
            ("Ann", 61, 40, False), ("Cy", *game.scores(), True), ("Bob", 20, 45, True)]
        assert "(unfinished)" in ranking[2].line(3) and "(unfinished)" not in ranking[0].line(1)
    finally:
        await store.close()


async def test_a_fresh_account_may_not_claim_the_days_deal_and_is_told_when(tmp_path: Path) -> None:
    """Today's deal is ranked only for accounts that may play rated
    matches: one made today, or with too few finished games, is refused
    (nothing claimed) and told when it may; a day later, with its games,
    it plays."""
    clock = Clock("2026-11-26")
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann = await store.accounts.create("Ann", hash_password("ann-secret"))
        day = store.daily.today()
        rules = FairPlayRules(min_games=1, min_age=86400.0)
        refused = await store.daily.claim(ann.id, day, "192.0.2.7", rules)
        assert refused is not None and "after 1 more finished game (0 of the 1" in refused
        assert "from Nov 27 12:00 (1 day after it was made)" in refused
        assert await store.daily.why_not_ranked(ann.id, rules) == refused
        assert not await store.daily.played(ann.id, day)  # nothing was claimed: it may play once it may
        clock.next_day()
        day = store.daily.today()
        still = await store.daily.claim(ann.id, day, "192.0.2.7", rules)
        assert still is not None and "after 1 more finished game" in still and "from " not in still
        assert await store.daily.claim(ann.id, day, "192.0.2.7", FairPlayRules(min_games=0, min_age=86400.0)) is None
        assert await store.daily.played(ann.id, day)
    finally:
        await store.close()


def test_records_daily_flags_the_accounts_of_one_network(tmp_path: Path) -> None:
    """``records daily``: the day's plays, the accounts that played (or
    registered) from one /24 flagged; another network's is not."""
    clock = Clock("2026-11-26")

    async def fill() -> str:
        store = await Store.open(tmp_path / DATABASE_NAME, clock)
        day = store.daily.today()
        for name, address, registered in (("Ann", "192.0.2.7", "192.0.2.7"), ("Bob", "198.51.100.4", "192.0.2.200"),
                                          ("Cy", "203.0.113.9", "203.0.113.9"), ("Dee", "192.0.2.9", "")):
            account = await store.accounts.create(name, hash_password("secret1"), registered)
            assert await store.daily.claim(account.id, day, address) is None
            clock.now += 60
        await store.daily.finish((await store.accounts.find("Ann")).id, day, 121, 100)  # type: ignore[union-attr]
        await store.close()
        return day
    day = asyncio.run(fill())
    out = io.StringIO()
    args = argparse.Namespace(action="daily", target=day, yes=False, days=30.0)
    assert run_records(args, tmp_path / DATABASE_NAME, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"Today's deal of {day}: 4 play(s)")
    flags = {line.split()[1] if line.startswith("  !") else line.split()[0]: line.startswith("  !")
             for line in lines[1:5]}
    assert flags == {"Ann": True, "Bob": True, "Cy": False, "Dee": True}
    assert "121-100" in lines[1] and "not finished" in lines[2]
    assert "  ! 192.0.2.0/24: Ann, Bob, Dee" in lines
    bad = io.StringIO()
    assert run_records(argparse.Namespace(action="daily", target="yesterday", yes=False, days=30.0),
                       tmp_path / DATABASE_NAME, bad) == 2


async def test_a_days_seed_waits_for_its_plays_and_fixes_their_results_once_shown(tmp_path: Path) -> None:
    """A play begun before midnight goes on after it; the day's seed is
    shown only once every play of it is over, or :data:`REVEAL_GRACE`
    after the day (it was shown at midnight: a second account could read
    it and the first finish the deal knowing every card, ranked on the
    day); once shown, a play still going on keeps nothing more."""
    clock = Clock("2026-11-26")
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann, bob, cy = [await store.accounts.create(n, hash_password(f"{n}-secret")) for n in ("Ann", "Bob", "Cy")]
        day = store.daily.today()
        deal = await store.daily.deal(day)
        for account in (ann, bob, cy):
            assert await store.daily.claim(account.id, day) is None
        await store.daily.finish(ann.id, day, 61, 40)
        await store.daily.finish(cy.id, day, 30, 50, finished=False)  # Cy's line dropped: her standing kept
        clock.now = day_end(day) + 1800  # half past midnight: Bob plays on, Cy's play is unfinished
        assert store.daily.over(day) and await store.daily.revealed(day) is None
        assert await store.daily.sealed_now(deal) == day
        await store.daily.finish(bob.id, day, 61, 55)  # Bob finishes: kept
        assert await store.daily.revealed(day) is None  # (Cy's play may still go on)
        clock.now = day_end(day) + REVEAL_GRACE
        assert await store.daily.revealed(day) == deal.server_seed and await store.daily.sealed_now(deal) is None
        await store.daily.finish(cy.id, day, 61, 0)  # Cy goes on knowing the cards: too late to count
        ranking = await store.daily.ranking(day)
        assert [(r.name, r.score, r.computer, r.unfinished) for r in ranking] == [
            ("Ann", 61, 40, False), ("Bob", 61, 55, False), ("Cy", 30, 50, True)]
    finally:
        await store.close()


async def test_a_days_seed_is_shown_after_midnight_once_its_plays_are_over(tmp_path: Path) -> None:
    clock = Clock("2026-11-26")
    store = await Store.open(tmp_path / DATABASE_NAME, clock)
    try:
        ann = await store.accounts.create("Ann", hash_password("Ann-secret"))
        day = store.daily.today()
        deal = await store.daily.deal(day)
        assert await store.daily.claim(ann.id, day) is None
        await store.daily.finish(ann.id, day, 61, 40)
        assert await store.daily.revealed(day) is None  # (the day lasts)
        clock.now = day_end(day) + 1
        assert await store.daily.revealed(day) == deal.server_seed
    finally:
        await store.close()
