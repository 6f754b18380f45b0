"""The Yale CPSC 474 greedy benchmark opponent, as the course
states its policy."""

from __future__ import annotations

import random

from bench.yale_greedy import YaleGreedy, score_without_starter
from engine.cards import parse_cards
from engine.scoring import RunMode


def test_a_hand_without_a_starter_is_scored_as_the_course_scores_it() -> None:
    assert score_without_starter(parse_cards("5H 5D 5C JS"), True) == 14  # three fifteens with J, 5-5-5, pair royal
    assert score_without_starter(parse_cards("4H 5H 6H 8H"), True) == 2 + 3 + 4  # 4-5-6 fifteen, run, flush
    assert score_without_starter(parse_cards("4H 5H 6H 8H"), False) == 5
    assert score_without_starter(parse_cards("7C 8D"), False) == 2
    assert score_without_starter(parse_cards("3C 4C 4D 5S"), True) == 2 + 6  # a pair; two runs of three


def test_the_dealer_adds_the_throw_and_the_pone_subtracts_it() -> None:
    hand = parse_cards("5H 5D 9C 9S KD QH")
    # kept 9 9 K Q: 2 (pair); thrown 5 5: 2 (pair) -> dealer 4; kept 5 5 K Q: 2 + 8 = 10, thrown 9 9: 2 -> 12 / 8
    assert set(YaleGreedy(random.Random(1)).choose_discard(hand, True)) == set(parse_cards("9C 9S"))
    pone = YaleGreedy(random.Random(1)).choose_discard(hand, False)
    kept = [c for c in hand if c not in pone]
    sign_best = max(score_without_starter([c for c in hand if c not in t], True) - score_without_starter(t, False)
                    for t in __import__("itertools").combinations(hand, 2))
    assert score_without_starter(kept, True) - score_without_starter(pone, False) == sign_best


def test_it_plays_the_card_that_scores_most_at_once() -> None:
    player = YaleGreedy(random.Random(0))
    assert player.choose_play(parse_cards("2C 7D KS"), parse_cards("8H"), [], RunMode.UNORDERED) == parse_cards("7D")[0]
    assert player.choose_play(parse_cards("2C 8D KS"), parse_cards("8H"), [], RunMode.UNORDERED) == parse_cards("8D")[0]
