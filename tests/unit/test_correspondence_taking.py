"""Taking an offer of a game by correspondence, as the game service does
it, on SQLite and PostgreSQL: both players' caps on games under way are
checked before the offer is spent (the sentence says whose is full, the
offer stays open for later); an offer to anyone is not taken by its maker
nor from the network it was made from (unless the line is shared, or the
sysop allows one network); of two takers at once, one gets it."""

from __future__ import annotations

import asyncio
import calendar
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.config import CorrespondenceConfig, RankedConfig
from door.games.correspondence import accept_offer, begin_from_offer, under_way
from door.games.house import GameHouse
from door.play.away_seat import AwaySeat
from door.play.table import Table
from door.records.correspondence.offers import Offer, OfferTerms
from door.records.identity import Identity
from door.records.saved_games import SavedGame
from door.records.store import Store
from engine.notation import rules_to_dict
from engine.rules import Rules
from tests.support.fake_clock import FakeClock

START = float(calendar.timegm((2026, 12, 1, 12, 0, 0)))
TERMS = OfferTerms(rules_to_dict(Rules()), 3)
HOME, AWAY = "192.0.2.1", "198.51.100.7"


class Tables:
    """A registry that runs each table to its end (by turns, with both
    players away: it deals, keeps the game and stops at once)."""

    def __init__(self) -> None:
        self.tables: set[Table] = set()

    def run_table(self, table: Table, resume: SavedGame | None = None) -> asyncio.Task[None]:
        return asyncio.create_task(table.run(resume))


@pytest.fixture
async def store(where: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(where, FakeClock(START))
    try:
        yield s
    finally:
        await s.close()


def _house(store: Store, max_open: int = 20, same_network: bool = False) -> GameHouse:
    return GameHouse(store, Tables(), correspondence=CorrespondenceConfig(max_open=max_open),
                     ranked=RankedConfig(same_network=same_network))


async def _accounts(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.create(n, "unused-hash")).id for n in names]


async def _game(house: GameHouse, offer: Offer) -> None:
    """The game of the accepted ``offer`` kept in the store, both players away."""
    taker = offer.taker
    assert taker is not None
    table = begin_from_offer(house, offer, "maker", AwaySeat("taker", Identity.of_account(taker)))
    await asyncio.wait_for(table.run(), 10)


async def _play(house: GameHouse, maker: int, taker: int) -> None:
    """A game under way between ``maker`` and ``taker``, by an offer taken."""
    offer = await house.store.correspondence.offers.make(maker, HOME, taker, TERMS)
    taken = await accept_offer(house, offer.id, taker, AWAY)
    assert isinstance(taken, Offer), taken
    await _game(house, taken)


async def test_a_maker_at_the_cap_is_named_and_the_offer_stays(store: Store) -> None:
    """The maker filled their cap after offering: accepting is refused
    before the offer is spent, saying the maker's cap is full; the offer
    is still open and is taken once the maker has room (the store refused
    the game before, the offer spent)."""
    house = _house(store, max_open=1)
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    offers = store.correspondence.offers
    offer = await offers.make(ann, HOME, bob, TERMS)
    await _play(house, ann, cy)  # Ann fills her cap meanwhile
    assert await under_way(house, ann) == 1 and await under_way(house, bob) == 0
    refused = await accept_offer(house, offer.id, bob, AWAY)
    assert refused == ("Ann has 1 correspondence game under way, the most this board allows: the offer stays "
                       "open until they finish one.")
    assert await offers.get(offer.id) == offer and [o.id for o in await offers.received(bob)] == [offer.id]
    roomy = _house(store, max_open=2)
    taken = await accept_offer(roomy, offer.id, bob, AWAY)
    assert isinstance(taken, Offer) and taken.taker == bob


async def test_a_taker_at_the_cap_is_told_it_is_their_own(store: Store) -> None:
    house = _house(store, max_open=1)
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    offer = await store.correspondence.offers.make(ann, HOME, bob, TERMS)
    await _play(house, cy, bob)
    assert await accept_offer(house, offer.id, bob, AWAY) == (
        "You have 1 correspondence game under way, the most this board allows: finish one first.")
    assert await store.correspondence.offers.get(offer.id) == offer


async def test_an_open_offer_is_for_another_caller_from_another_network(store: Store) -> None:
    house = _house(store)
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    offers = store.correspondence.offers
    offer = await offers.make(ann, HOME, None, TERMS)
    assert (await accept_offer(house, offer.id, ann, AWAY)).startswith("That is your own offer")
    refused = await accept_offer(house, offer.id, bob, "192.0.2.200")  # Ann's second account, at her /24
    assert isinstance(refused, str) and refused.startswith("That offer was made from your network")
    assert await offers.get(offer.id) == offer
    shared = await accept_offer(house, offer.id, bob, HOME, shared=True)  # a BBS's node: judged otherwise
    assert isinstance(shared, Offer) and shared.taker == bob
    assert await accept_offer(house, offer.id, cy, AWAY) == "That offer is no longer open."
    again = await offers.make(ann, HOME, None, TERMS)
    allowed = await accept_offer(_house(store, same_network=True), again.id, cy, HOME)
    assert isinstance(allowed, Offer) and allowed.taker == cy  # the sysop allows one network


async def test_an_offer_to_somebody_else_is_not_taken(store: Store) -> None:
    house = _house(store)
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    offer = await store.correspondence.offers.make(ann, HOME, bob, TERMS)
    assert await accept_offer(house, offer.id, cy, AWAY) == "That offer is no longer open."
    assert await accept_offer(house, offer.id + 99, bob, AWAY) == "That offer is no longer open."
    named = await accept_offer(house, offer.id, bob, HOME)  # (a named offer between housemates: as a live game)
    assert isinstance(named, Offer)


async def test_two_callers_taking_an_open_offer_at_once_one_gets_it(store: Store) -> None:
    house = _house(store)
    ann, bob, cy = await _accounts(store, "Ann", "Bob", "Cy")
    for _ in range(4):
        offer = await store.correspondence.offers.make(ann, HOME, None, TERMS)
        got = await asyncio.gather(accept_offer(house, offer.id, bob, AWAY), accept_offer(house, offer.id, cy, AWAY))
        assert sorted(isinstance(g, Offer) for g in got) == [False, True], got
        assert "That offer is no longer open." in got


async def test_an_open_offer_lapses_after_a_week_as_the_others_do(store: Store) -> None:
    house = _house(store)
    ann, bob = await _accounts(store, "Ann", "Bob")
    offers = store.correspondence.offers
    offer = await offers.make(ann, HOME, None, TERMS, house.correspondence.offer_limits())
    clock = store.clock
    assert isinstance(clock, FakeClock) and offer.expires == START + 7 * 86400
    clock.now = START + 7 * 86400 - 1
    assert [o.id for o in await offers.open_to_anyone()] == [offer.id]
    clock.now = START + 7 * 86400
    assert await offers.open_to_anyone() == []
    assert await accept_offer(house, offer.id, bob, AWAY) == "That offer is no longer open."
    assert await offers.lapse() == 1
