"""The door's spoken words: full card names, numbers in
words, and the show counted as players count it, checked against the
scorer for 100,000 random hands and cribs."""

from __future__ import annotations

import random
import re

from door.ui.speech import (
    cadence,
    card_name,
    digest_groups,
    number_words,
    numbered_cards,
    numbered_ranks,
    short_digests,
    show_cards,
    spoken,
    suited_cards,
)
from engine.cards import Card
from engine.claims import adjudicate
from engine.events import CardPlayed, HandCounted, ShowTurn
from engine.rules import Rules
from engine.scoring import PlayKind, PlayScore, ShowKind, score_show

WORDS = {number_words(n): n for n in range(0, 30)}


def test_card_names_and_numbers() -> None:
    assert card_name(Card.from_str("5H")) == "five of hearts"
    assert card_name(Card.from_str("TD")) == "ten of diamonds"
    assert card_name(Card.from_str("AS")) == "ace of spades"
    assert card_name(Card.from_str("JC")) == "jack of clubs"
    assert [number_words(n) for n in (0, 15, 21, 31, 100, 121)] == [
        "zero", "fifteen", "twenty-one", "thirty-one", "one hundred", "one hundred twenty-one"]
    assert numbered_cards([Card.from_str("AS"), None, Card.from_str("KH")]) == "1 ace of spades, 3 king of hearts"
    # the cards to lay away by suit, each suit said once; the cards to play by rank (the play scores ranks)
    assert suited_cards([Card.from_str(c) for c in ["2C", "JC", "6D", "7D", "9D", "KH"]]) == (
        "clubs, 1 two, 2 jack; diamonds, 3 six, 4 seven, 5 nine; hearts, 6 king")
    assert numbered_ranks([Card.from_str("AS"), None, Card.from_str("KH")]) == "1 ace, 3 king"
    # a hand to count: suits only where they can score (a flush, nobs and the starter's suit)
    hand = [Card.from_str(c) for c in ["4D", "5H", "9S", "QH"]]
    assert show_cards(hand, Card.from_str("KC")) == "four, five, nine, queen; starter king"
    nobs = [Card.from_str(c) for c in ["4D", "5H", "9S", "JH"]]
    assert show_cards(nobs, Card.from_str("KH")) == "four, five, nine, jack of hearts; starter king of hearts"
    flush = [Card.from_str(c) for c in ["4H", "5H", "9H", "QH"]]
    assert show_cards(flush, Card.from_str("KC")).startswith("four of hearts, five of hearts")


def test_the_count_as_players_say_it() -> None:
    def said(hand: str, starter: str) -> str:
        return cadence(score_show([Card.from_str(c) for c in hand.split()], Card.from_str(starter)))

    assert said("5H 5D 9C TS", "KH") == "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten"
    assert said("2H 3D 4C 4S", "KS") == "fifteen two, a pair is four, and two runs of three is ten"
    assert said("JH 2D 7C 9S", "KH") == "nobs is one"
    assert said("2H 2D 9C 9S", "KD") == "a pair is two and another pair is four"
    assert said("AH 3D 7C 9S", "QH") == "nothing"
    assert said("AH 2H 3H 4H", "5H").endswith("a run of five is seven, and a flush of five is twelve")


def _check(show) -> None:  # type: ignore[no-untyped-def]
    """Every number said is a running total that grows by the points of
    the part it names; the last is the scorer's total."""
    text = cadence(show)
    if show.total == 0:
        assert text == "nothing"
        return
    parts = re.split(r", and |, | and (?=(?:a|another|two|three|four|nobs|fifteen) )", text)
    expected = {
        "fifteen": show.points_of(ShowKind.FIFTEEN), "pair": show.points_of(ShowKind.PAIR),
        "run": show.points_of(ShowKind.RUN), "flush": show.points_of(ShowKind.FLUSH),
        "nobs": show.points_of(ShowKind.NOBS)}
    got = dict.fromkeys(expected, 0)
    total = 0
    for part in parts:
        if part.startswith("fifteen "):
            kind, number = "fifteen", part[len("fifteen "):]
        else:
            name, number = part.split(" is ")
            kind = next(k for k in ("pair", "run", "flush", "nobs") if k in name)
        value = WORDS[number]
        assert value > total, text
        got[kind] += value - total
        total = value
    assert total == show.total, text
    assert got == expected, text


def test_the_cadence_agrees_with_the_scorer_over_100000_hands_and_cribs() -> None:
    rng = random.Random(35)
    deck = [Card.from_index(i) for i in range(52)]
    for i in range(100_000):
        cards = rng.sample(deck, 5)
        _check(score_show(cards[:4], cards[4], is_crib=i % 2 == 1))


def test_every_hand_of_the_highest_scores_is_said_right() -> None:
    for hand, starter in [("5H 5D 5C JS", "5S"), ("5H 5D 5C 5S", "JD"), ("3H 3D 3C 3S", "9D"),
                          ("4H 4D 5C 6S", "6D"), ("7H 7D 8C 8S", "9D")]:
        _check(score_show([Card.from_str(c) for c in hand.split()], Card.from_str(starter)))


def test_events_in_short_sentences_each_fact_once() -> None:
    played = CardPlayed(1, Card.from_str("5H"), 15, (PlayScore(PlayKind.FIFTEEN, 2),))
    assert spoken(played, 1, ["Computer", "Ann"]) == ["You: five, fifteen, two for fifteen."]
    assert spoken(played, 0, ["Computer", "Ann"]) == ["Ann: five, fifteen, two for fifteen."]
    show = score_show([Card.from_str(c) for c in ["5H", "5D", "9C", "TS"]], Card.from_str("KH"))
    counted = HandCounted(0, ShowTurn.HAND, show, 9, adjudicate(10, 9, Rules()))
    lines = spoken(counted, 0, ["Ann", "Computer"])
    # the caller's own count: its cards were in the prompt, so the result is the count and the verdict
    assert lines[0] == "Fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten."
    assert lines[1].startswith("You claimed nine, one short.")
    theirs = spoken(HandCounted(1, ShowTurn.HAND, show, None, adjudicate(10, 10, Rules())), 0, ["Ann", "Computer"])
    assert theirs == ["Computer's hand: five, five, nine, ten. Fifteen two, fifteen four, fifteen six, fifteen "
                      "eight, and a pair is ten."]
    for line in lines + theirs:
        assert line.isascii()


def test_a_seed_is_left_out_unasked_and_said_in_groups_of_four_on_request() -> None:
    seed = "7ab35da5310e76767f713c4764c9f5adf019abc8e6426d23ea93a58db01cddd2"
    said = short_digests(f"Shuffle: the door's seed commits to {seed} (SHA-256); your seed is {'0' * 64}.")
    assert said == ("Shuffle: the door's seed commits to (digits on request) (SHA-256); your seed is "
                    "(digits on request).")
    assert short_digests("game #123456, 12 points") == "game #123456, 12 points"  # short numbers stay whole
    assert digest_groups(f"Door's seed: {seed}") == (
        "Door's seed: 7ab3 5da5 310e 7676 7f71 3c47 64c9 f5ad f019 abc8 e642 6d23 ea93 a58d b01c ddd2")


def test_his_heels_is_said_in_a_sentence_that_reads_right() -> None:
    from engine.cards import Card
    from engine.events import StarterTurned
    jack = Card.from_str("JH")
    assert spoken(StarterTurned(jack, 0, 2), 0, ["Ann", "Computer"]) == ["Starter: jack of hearts. His heels: you peg two."]
    assert spoken(StarterTurned(jack, 1, 2), 0, ["Ann", "Computer"]) == [
        "Starter: jack of hearts. His heels: Computer pegs two."]
