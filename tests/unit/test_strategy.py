"""The computer player: sensible discards and plays, exact counts, and
better than random play (fixed game numbers and seeds: deterministic)."""

import random

import pytest

from engine.actions import Claim, ReplayHand
from engine.cards import FULL_DECK, Card, parse_cards
from engine.game import Game, Phase
from engine.hard import HardPlayer
from engine.rules import Rules
from engine.scoring import RunMode, score_show
from engine.strategy import choose_action, decision_for, expected_hand

P = HardPlayer(random.Random(1))


@pytest.mark.parametrize("hand,is_dealer,thrown", [
    ("5H 5D 5S JC 2C 9D", False, "2C 9D"),     # keep three fives and the jack
    ("4D 4H 5S 6D KC QS", False, "QS KC"),     # keep the double run
    ("7C 8C 9C TC 2H KD", True, "2H KD"),      # keep the run, flush, and fifteens
])
def test_discards(hand: str, is_dealer: bool, thrown: str) -> None:
    assert set(P.choose_discard(parse_cards(hand), is_dealer)) == set(parse_cards(thrown))


def test_expected_hand_is_the_mean_over_46_starters() -> None:
    kept, six = parse_cards("5H 5D 5S JC"), parse_cards("5H 5D 5S JC 2C 9D")
    unseen = [c for c in FULL_DECK if c not in six]
    assert len(unseen) == 46
    mean = expected_hand(kept, unseen)
    assert mean == pytest.approx(sum(score_show(kept, s).total for s in unseen) / 46)


def play(hand: str, series: str) -> Card:
    cards, played = parse_cards(hand), parse_cards(series)
    return P.choose_play(cards, played, list(cards) + list(played), RunMode.UNORDERED)


def test_takes_fifteen_and_thirty_one() -> None:
    assert play("5S 2C", "TH") == Card.from_str("5S")
    assert play("AS 3C", "TH TD 8C") == Card.from_str("3C")


def test_pairs_when_it_pays() -> None:
    assert play("9S 2C", "9H") == Card.from_str("9S")


def test_avoids_leaving_five_or_twenty_one() -> None:
    assert play("KS 6C", "TH AH") != Card.from_str("KS")   # 21 invites a ten for 31
    assert play("5S 3C 2D", "") != Card.from_str("5S")      # never lead a five


def test_counts_exactly_in_a_game() -> None:
    g = Game(Rules(), 11)
    g.start()
    players = [HardPlayer(random.Random(2)), HardPlayer(random.Random(3))]
    while not g.over:
        seat = g.to_act()[0]
        action = choose_action(g, seat, players[seat])
        if isinstance(action, Claim):
            assert action.points == g.current_show().total
        g.apply(action)


def test_beats_random_play() -> None:
    wins = 0
    games = 30
    for number in range(1, games + 1):
        g = Game(Rules(), number)
        g.start()
        bot, rnd = HardPlayer(random.Random(number)), random.Random(number)
        bot_seat = number % 2
        while not g.over:
            seat = g.to_act()[0]
            if seat == bot_seat:
                g.apply(choose_action(g, seat, bot))
            elif g.phase is Phase.SHOW:
                g.apply(Claim(seat, g.current_show().total))
            else:
                g.apply(rnd.choice([a for a in g.legal_actions(seat) if not isinstance(a, ReplayHand)]))
        wins += g.result.winner == bot_seat
    assert wins >= 24, f"the computer won only {wins} of {games} against random play"


def test_easy_player_is_legal_and_plain() -> None:
    from engine.players import EasyPlayer
    easy = EasyPlayer(random.Random(1))
    # keeps its own best four: 5 5 J K (fifteens 8, pair 2) over anything else
    assert set(easy.choose_discard(parse_cards("5H 5D JC KS 2C 8D"), False)) == set(parse_cards("2C 8D"))
    # plays the first card that scores, else its lowest
    assert easy.choose_play(parse_cards("9S 5S"), parse_cards("TH"), [], RunMode.UNORDERED) == Card.from_str("5S")
    assert easy.choose_play(parse_cards("9S 3C 7D"), parse_cards("KH"), [], RunMode.UNORDERED) == Card.from_str("3C")


def test_sensible_beats_easy() -> None:
    from engine.players import EasyPlayer
    wins = 0
    for number in range(1, 31):
        g = Game(Rules(), number)
        g.start()
        players = {number % 2: HardPlayer(random.Random(number)), 1 - number % 2: EasyPlayer(random.Random(number))}
        while not g.over:
            seat = g.to_act()[0]
            g.apply(choose_action(g, seat, players[seat]))
        wins += g.result.winner == number % 2
    assert wins >= 17, f"the hard computer won only {wins} of 30 against the easy one"


def test_a_decision_needs_thought_when_cards_of_two_ranks_can_be_played() -> None:
    """The discard always needs thought; a card in the play only when the
    cards that fit hold more than one rank (the rest is a choice of suit,
    which pegs nothing); the count of a show never (the expert counts
    exactly).  Checked at every decision of whole games."""
    seen = {True: 0, False: 0}
    for number in range(1, 7):
        game = Game(Rules(), number)
        game.start()
        players = [HardPlayer(random.Random(number)), HardPlayer(random.Random(number + 100))]
        while not game.over:
            seat = game.to_act()[0]
            decision = decision_for(game, seat)
            if game.phase is Phase.PLAY:
                count = sum(c.pip for c in game.series)
                expected = len({c.rank for c in game.hands[seat] if count + c.pip <= 31}) > 1
                seen[expected] += 1
            else:
                expected = game.phase is Phase.DISCARD
            assert decision.needs_thought is expected
            game.apply(decision.take(players[seat]))
    assert seen[True] > 50 and seen[False] > 50  # both kinds of play were met
