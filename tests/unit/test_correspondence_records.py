"""Correspondence play's records on SQLite and PostgreSQL: offers (one open
between two accounts, one to anyone per maker, a limit an address an hour,
accepted by exactly one of two racing callers, lapsing unanswered), days
away within a yearly allowance, and the games lost on time; timed by the
store's fake clock."""

from __future__ import annotations

import asyncio
import calendar
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.play.api_records import stats_message
from door.records.correspondence.deadlines import DAY
from door.records.correspondence.offers import LISTED, OfferLimits, OfferRefused, OfferTerms, room_for
from door.records.correspondence.vacations import VacationRefused
from door.records.migrate import EXPAND
from door.records.schema import MIGRATIONS
from door.records.store import Store
from engine.notation import rules_to_dict
from engine.rules import Counting, Rules
from tests.support.fake_clock import FakeClock

START = float(calendar.timegm((2026, 12, 1, 12, 0, 0)))
"""Tuesday 2026-12-01 12:00 UTC."""

TERMS = OfferTerms(rules_to_dict(Rules()), 3)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
async def store(where: Path | str, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(where, clock)
    try:
        yield s
    finally:
        await s.close()


async def _accounts(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.create(n, "unused-hash")).id for n in names]


def test_the_step_only_adds() -> None:
    step = next(i for i, s in enumerate(MIGRATIONS) if "CREATE TABLE correspondence_offers" in str(s))
    assert step + 1 in EXPAND  # (an expand step: older nodes go on using the store)
    assert "DROP" not in str(MIGRATIONS[step]) and "ALTER" not in str(MIGRATIONS[step])


async def test_an_offer_is_received_accepted_once_and_gone(store: Store) -> None:
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    offers = store.correspondence.offers
    offer = await offers.make(ann, "192.0.2.1", bob, OfferTerms(rules_to_dict(Rules()), 5, 3, True))
    assert [o.id for o in await offers.received(bob)] == [offer.id] and await offers.received(ann) == []
    assert [o.id for o in await offers.sent(ann)] == [offer.id]
    assert (await offers.get(offer.id)) == offer and offer.terms.best_of == 3 and offer.terms.rated
    assert await offers.accept(offer.id, cy) is None  # not made to Cy
    assert await offers.accept(offer.id, ann) is None  # nor to its maker
    taken = await offers.accept(offer.id, bob)
    assert taken is not None and taken.terms.days == 5 and taken.taker == bob
    assert await offers.accept(offer.id, bob) is None and await offers.received(bob) == []
    assert await offers.get(offer.id) is None


async def test_an_offer_counted_by_hand_keeps_its_option_and_is_refused_when_rated(store: Store) -> None:
    """Manual counting is an option of an unrated offer, kept with it: the
    game it begins is counted by each player with muggins; an offer kept
    before the option existed (no ``manual`` in its terms) is counted by
    the door; a rated offer with it is refused in a sentence."""
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    house = Rules(counting=Counting.MANUAL, muggins=False)
    offers = store.correspondence.offers
    made = await offers.make(ann, "192.0.2.1", bob, OfferTerms(rules_to_dict(house), 3, manual=True))
    kept = await offers.get(made.id)
    assert kept is not None and kept.terms.manual
    rules = kept.terms.game_rules()
    assert rules.counting is Counting.MANUAL and rules.muggins
    assert OfferTerms.from_text(OfferTerms(rules_to_dict(house), 3).to_text()).game_rules().counting \
        is Counting.AUTOMATIC
    old = '{"best_of": 1, "days": 3, "rated": false, "rules": {}}'
    assert not OfferTerms.from_text(old).manual
    with pytest.raises(OfferRefused, match="Counting your own hands is for unrated games"):
        await offers.make(ann, "192.0.2.1", cy, OfferTerms(rules_to_dict(house), 3, rated=True, manual=True))
    with pytest.raises(ValueError, match="true or false"):
        OfferTerms(rules_to_dict(house), 3, manual=1).check()  # type: ignore[arg-type]


async def test_one_offer_open_between_two_callers_and_one_to_anyone(store: Store) -> None:
    ann, bob = await _accounts(store, "Ann", "Bob")
    offers = store.correspondence.offers
    first = await offers.make(ann, "192.0.2.1", bob, TERMS)
    with pytest.raises(OfferRefused, match="already have an offer open with that caller"):
        await offers.make(bob, "192.0.2.2", ann, TERMS)  # either way round
    with pytest.raises(OfferRefused, match="yourself"):
        await offers.make(ann, "192.0.2.1", ann, TERMS)
    anyone = await offers.make(ann, "192.0.2.1", None, TERMS)
    with pytest.raises(OfferRefused, match="open to anyone"):
        await offers.make(ann, "192.0.2.1", None, TERMS)
    assert [o.id for o in await offers.open_to_anyone()] == [anyone.id]
    assert await offers.decline(first.id, ann) is False  # the maker does not decline, they withdraw
    assert await offers.decline(first.id, bob)
    assert await offers.make(bob, "192.0.2.2", ann, TERMS)  # the pair is free again
    assert await offers.withdraw(anyone.id, ann) and await offers.open_to_anyone() == []
    with pytest.raises(OfferRefused, match="the caller is gone"):
        await offers.make(ann, "192.0.2.1", bob + 1000, TERMS)  # no such account
    with pytest.raises(ValueError, match="days per move"):
        await offers.make(ann, "192.0.2.1", None, OfferTerms({}, 4 * 4))
    with pytest.raises(ValueError, match="best of 1, 3 or 5"):
        await offers.make(ann, "192.0.2.1", None, OfferTerms({}, 3, 2))


async def test_an_address_makes_so_many_offers_an_hour(store: Store, clock: FakeClock) -> None:
    ann, *others = await _accounts(store, "Ann", "Bob", "Cy", "Di")
    offers = store.correspondence.offers
    limits = OfferLimits(per_hour=2)
    for other in others[:2]:
        offer = await offers.make(ann, "192.0.2.1", other, TERMS, limits)
        assert await offers.withdraw(offer.id, ann)  # withdrawn, still counted
    with pytest.raises(OfferRefused, match="2 offers were made from your address in the last hour"):
        await offers.make(ann, "192.0.2.1", others[2], TERMS, limits)
    assert await offers.make(ann, "192.0.2.9", others[2], TERMS, limits)  # another address
    clock.now += 3601
    assert await offers.make(ann, "192.0.2.1", None, TERMS, limits)


async def test_an_offer_unanswered_lapses(store: Store, clock: FakeClock) -> None:
    ann, bob = await _accounts(store, "Ann", "Bob")
    offers = store.correspondence.offers
    offer = await offers.make(ann, "192.0.2.1", bob, TERMS, OfferLimits(offer_days=7))
    assert offer.expires == START + 7 * DAY
    clock.now += 7 * DAY
    assert await offers.received(bob) == [] and await offers.accept(offer.id, bob) is None
    assert await offers.make(bob, "192.0.2.2", ann, TERMS)  # a lapsed offer holds no pair
    clock.now += 8 * DAY
    assert await offers.lapse() == 1  # the second one
    assert await offers.sent(bob) == []


async def test_two_callers_accepting_one_open_offer_only_one_wins(where: Path | str, clock: FakeClock) -> None:
    stores = [await Store.open(where, clock) for _ in range(2)]
    try:
        ann, *takers = await _accounts(stores[0], "Ann", "Bob", "Cy")
        offers = [s.correspondence.offers for s in stores]
        for turn in range(8):
            offer = await offers[0].make(ann, "192.0.2.1", None, TERMS)
            got = await asyncio.gather(*(o.accept(offer.id, t) for o, t in zip(offers, takers, strict=True)))
            assert sorted(g is None for g in got) == [False, True], (turn, got)
            winner = next(g for g in got if g is not None)
            assert winner.taker == takers[got.index(winner)]
    finally:
        for s in stores:
            await s.close()


def test_the_cap_on_open_games_is_a_sentence() -> None:
    assert room_for(19, 20) is None
    assert room_for(20, 20) == ("You have 20 correspondence games under way, the most this board allows: "
                                "finish one first.")


async def test_vacation_within_the_yearly_allowance(store: Store, clock: FakeClock) -> None:
    ann, bob = await _accounts(store, "Ann", "Bob")
    vacations = store.correspondence.vacations
    with pytest.raises(VacationRefused, match="no vacation"):
        await vacations.take(ann, START, 3, 0)
    with pytest.raises(VacationRefused, match="at least one"):
        await vacations.take(ann, START, 0, 30)
    with pytest.raises(VacationRefused, match="starts today"):
        await vacations.take(ann, START - DAY, 3, 30)
    first = await vacations.take(ann, START, 10, 40)  # 2026-12-01 to 12-11
    assert first.days == 10 and await vacations.used(ann, 2026) == 10
    with pytest.raises(VacationRefused, match="overlaps"):
        await vacations.take(ann, START + 9 * DAY, 2, 40)
    later = await vacations.take(ann, START + 25 * DAY, 10, 40)  # 12-26 to 01-05: 6 in 2026, 4 in 2027
    assert (await vacations.used(ann, 2026), await vacations.used(ann, 2027)) == (16, 4)
    with pytest.raises(VacationRefused, match="You have 4 days of vacation left in 2026, of 20 a year: 14 asked"):
        await vacations.take(ann, START + 11 * DAY, 14, 20)  # (up to the later one's start: no overlap)
    with pytest.raises(VacationRefused, match="left in 2027, of 20 a year: 25 of the 40 days asked fall in it"):
        await vacations.take(bob, START + 16 * DAY, 40, 20)  # (from 12-17, 25 days of them in 2027: that part named)
    assert (await vacations.away(ann)) == first and await vacations.away(bob) is None
    assert await vacations.away(ann, START + 10 * DAY) is None
    assert await vacations.intervals(ann, START + 5 * DAY, START + 30 * DAY) == [(first.starts, first.ends),
                                                                             (later.starts, later.ends)]
    assert await vacations.intervals_of([bob, ann, ann], START + 11 * DAY, START + 30 * DAY) == {
        ann: [(later.starts, later.ends)]}
    assert await vacations.intervals_of([], START, START + DAY) == {}
    clock.now += 2.5 * DAY
    ended = await vacations.end(ann)  # back early: three days begun, the later one dropped
    assert ended is not None and ended.days == 3 and await vacations.upcoming(ann) == []
    assert await vacations.used(ann, 2026) == 3 and await vacations.away(ann) is None
    assert await vacations.end(ann) is None


async def test_games_lost_on_time_are_counted(store: Store) -> None:
    ann, bob = await _accounts(store, "Ann", "Bob")
    results = store.correspondence.results
    assert await results.lost_on_time(ann) == 0
    assert await results.count_loss_on_time(ann) == 1 and await results.count_loss_on_time(ann) == 2
    assert await results.lost_on_time(ann) == 2
    assert await results.lost_on_time_of([bob, ann]) == {ann: 2, bob: 0} and await results.lost_on_time_of([]) == {}


async def test_the_statistics_screens_give_the_games_lost_on_time(store: Store) -> None:
    ann, bob = await _accounts(store, "Ann", "Bob")
    await store.correspondence.results.count_loss_on_time(ann)
    await store.correspondence.results.count_loss_on_time(ann)
    figures = await store.statistics.player("ann")
    assert figures is not None and ("Correspondence games lost on time", "2") in figures.rows()
    assert figures.forfeits.on_time == 2
    account = await store.accounts.get(ann)
    message = await stats_message(store, account)  # the protocol's stats: the screen's rows
    assert {"label": "Correspondence games lost on time", "value": "2"} in message["rows"]
    others = await store.statistics.player("Bob")
    assert others is not None and ("Correspondence games lost on time", "0") in others.rows()


async def test_a_flood_of_offers_is_read_a_list_at_a_time(store: Store, clock: FakeClock) -> None:
    """Sixty callers each offer Bob a game, and sixty more offer one to
    anyone: what is read for a list is the oldest fifty of each, Bob's own
    offer to anyone left out of his (not read and dropped: the database
    gives fifty others)."""
    bob, = await _accounts(store, "Bob")
    makers = await _accounts(store, *(f"M{i}" for i in range(120)))
    offers = store.correspondence.offers
    for i, maker in enumerate(makers):
        clock.now += 1
        await offers.make(maker, f"192.0.2.{i % 250}", bob if i < 60 else None, TERMS, OfferLimits(per_hour=1000))
    await offers.make(bob, "198.51.100.1", None, TERMS)
    received = await offers.received(bob)
    assert len(received) == LISTED and [o.maker for o in received] == makers[:LISTED]
    anyone = await offers.open_to_anyone(besides=bob)
    assert len(anyone) == LISTED and [o.maker for o in anyone] == makers[60:60 + LISTED]
    assert bob not in {o.maker for o in await offers.open_to_anyone(limit=200, besides=bob)}
    assert bob in {o.maker for o in await offers.open_to_anyone(limit=200)}
