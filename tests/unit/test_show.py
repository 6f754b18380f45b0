"""The show: worked examples from the seeds, breakdowns, and properties."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import FULL_DECK, Card, Suit, parse_cards
from engine.scoring import ShowKind, score_show, show_points


def show(hand: str, starter: str, crib: bool = False):
    return score_show(parse_cards(hand), Card.from_str(starter), crib)


@pytest.mark.parametrize("hand,starter,crib,total,parts", [
    # Cribbage Champ (Cribbage Champ): 4D 4H 5S 6D + KC = 14
    ("4D 4H 5S 6D", "KC", False, 14, {ShowKind.FIFTEEN: 6, ShowKind.PAIR: 2, ShowKind.RUN: 6}),
    # the 29 hand: three fives and the jack of the starter's suit, the fourth five cut
    ("5H 5D 5S JC", "5C", False, 29, {ShowKind.FIFTEEN: 16, ShowKind.PAIR: 12, ShowKind.NOBS: 1}),
    # 9 8 7 7 6: two runs of four, a pair, fifteens 9+6, 8+7, 8+7
    ("9H 8D 7S 7C", "6C", False, 16, {ShowKind.FIFTEEN: 6, ShowKind.PAIR: 2, ShowKind.RUN: 8}),
    # J J Q Q K: four runs of three and two pairs
    ("JH JD QS QC", "KC", False, 16, {ShowKind.RUN: 12, ShowKind.PAIR: 4}),
    # Q-K-A is not a run (Cribbage Champ); no fifteens, no pairs
    ("QH KD AS 3C", "9C", False, 0, {}),
    # a four-card flush counts in the hand...
    ("2H 4H 6H 8H", "KC", False, 4, {ShowKind.FLUSH: 4}),
    # ...but not in the crib, which needs all five (the original door)
    ("2H 4H 6H 8H", "KC", True, 0, {}),
    ("2H 4H 6H 8H", "TH", True, 5, {ShowKind.FLUSH: 5}),
    ("2H 4H 6H 8H", "TH", False, 5, {ShowKind.FLUSH: 5}),
    # nobs: the jack of the starter's suit; a jack starter is not nobs
    ("JD 2C 4S 8H", "6D", False, 1, {ShowKind.NOBS: 1}),
    ("AD 3C 8S 9H", "JD", False, 0, {}),
    # a double run of three with a pair royal: 3 3 3 4 5 = runs 9, pairs 6, fifteens 3+3+4+5? no: 3+3+4+5 = 15
    ("3H 3D 3S 4C", "5C", False, 21, {ShowKind.RUN: 9, ShowKind.PAIR: 6, ShowKind.FIFTEEN: 6}),
])
def test_worked_examples(hand, starter, crib, total, parts) -> None:
    s = show(hand, starter, crib)
    by_kind = {k: s.points_of(k) for k in ShowKind if s.points_of(k)}
    assert (s.total, by_kind) == (total, parts), s.items
    assert show_points(s.hand, s.starter, crib) == total


def test_breakdown_names_every_combination() -> None:
    s = show("4D 4H 5S 6D", "KC")
    fifteens = sorted(" ".join(str(c) for c in i.cards) for i in s.items if i.kind is ShowKind.FIFTEEN)
    assert fifteens == ["4D 5S 6D", "4H 5S 6D", "5S KC"]
    runs = sorted(" ".join(str(c) for c in i.cards) for i in s.items if i.kind is ShowKind.RUN)
    assert runs == ["4D 5S 6D", "4H 5S 6D"]


def test_bad_hands_are_refused() -> None:
    with pytest.raises(ValueError):
        show("4D 4H 5S", "KC")
    with pytest.raises(ValueError):
        score_show(parse_cards("4D 4H 5S KC"), Card.from_str("KC"))


five_cards = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


@given(five_cards, st.randoms(use_true_random=False), st.booleans())
def test_order_of_hand_never_matters(cards, rnd, crib) -> None:
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert score_show(hand, starter, crib).total == score_show(shuffled, starter, crib).total


@given(five_cards, st.lists(st.sampled_from(list(Suit)), min_size=5, max_size=5), st.booleans())
def test_suits_matter_only_for_flush_and_nobs(cards, suits, crib) -> None:
    hand, starter = cards[:4], cards[4]
    resuited = [Card(c.rank, s) for c, s in zip(cards, suits)]
    if len(set(resuited)) < 5:
        return
    a = score_show(hand, starter, crib)
    b = score_show(resuited[:4], resuited[4], crib)
    suitless = (ShowKind.FIFTEEN, ShowKind.PAIR, ShowKind.RUN)
    assert sum(a.points_of(k) for k in suitless) == sum(b.points_of(k) for k in suitless)


@given(five_cards, st.booleans())
def test_fast_scorer_agrees_with_breakdown(cards, crib) -> None:
    assert show_points(cards[:4], cards[4], crib) == score_show(cards[:4], cards[4], crib).total


def test_items_are_well_formed() -> None:
    s = show("5H 5D 5S JC", "5C")
    counts = Counter(i.kind for i in s.items)
    assert counts[ShowKind.FIFTEEN] == 8 and counts[ShowKind.PAIR] == 6 and counts[ShowKind.NOBS] == 1
    assert all(sum(c.pip for c in i.cards) == 15 for i in s.items if i.kind is ShowKind.FIFTEEN)
