"""Pegging left on the table: each card of the play against
the best card with both hands known, by the exact search."""

from __future__ import annotations

import random

from engine.actions import Discard, Play
from engine.cards import Card
from engine.game import Game, Phase
from engine.pegging_review import left_on_the_table, review_hand, review_plays
from engine.players import GreedyPlayer
from engine.rules import Rules
from engine.scoring import RunMode
from engine.strategy import choose_action

C = Card.from_str


def _deck() -> list[Card]:
    """The pone (seat 1) is dealt 5♥ 9♥ 9♦ 8♣ A♣ 2♣, the dealer (seat 0) the
    four tens T♠ J♠ Q♠ K♠ and 3♦ 4♦; the starter is 7♦."""
    pone = ["5H", "9H", "9D", "8C", "AC", "2C"]
    dealer = ["TS", "JS", "QS", "KS", "3D", "4D"]
    deck = [C(c) for pair in zip(pone, dealer) for c in pair] + [C("7D")]
    rest = [c for c in (Card.from_index(i) for i in range(52)) if c not in deck]
    return deck + rest


def test_a_five_led_into_four_tens_is_flagged_with_its_cost() -> None:
    rules = Rules()
    actions = [Discard(1, (C("AC"), C("2C"))), Discard(0, (C("3D"), C("4D"))), Play(1, C("5H"))]
    game = Game(rules, 1, first_dealer=0, stacked=[_deck()])
    game.start()
    for action in actions:
        game.apply(action)
    [lead] = review_plays(rules, 1, actions, first_dealer=0, stacked=[_deck()])
    assert (lead.hand, lead.seat, lead.card, lead.count) == (1, 1, C("5H"), 0)
    assert lead.best.rank != 5 and lead.lost >= 2  # the dealer answers a five with a ten: fifteen for 2


def test_over_whole_games_every_cost_is_at_least_zero_and_a_best_card_costs_nothing() -> None:
    rng = random.Random(38)
    for number in range(1, 6):
        game = Game(Rules(), number)
        game.start()
        players = [GreedyPlayer(rng), GreedyPlayer(rng)]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(choose_action(game, seat, players[seat]))
        choices = review_plays(game.rules, game.number, game.actions, game.first_dealer)
        assert len(choices) == sum(1 for a in game.actions if isinstance(a, Play))
        for choice in choices:
            assert choice.lost >= 0
            assert choice.lost == 0 or choice.best != choice.card
        hand = choices[-1].hand
        assert left_on_the_table(choices, hand) == tuple(
            sum(c.lost for c in choices if c.hand == hand and c.seat == s) for s in (0, 1))
        only = review_plays(game.rules, game.number, game.actions, game.first_dealer, hand=hand)
        assert only == [c for c in choices if c.hand == hand]


def test_a_hand_reviewed_from_its_own_cards_is_the_hand_reviewed_by_replay() -> None:
    """review_hand (the door's, after each hand: no replay of the game) and
    review_plays agree on every hand of whole games, in both run modes."""
    rng = random.Random(39)
    for number, mode in zip(range(1, 9), [RunMode.UNORDERED, RunMode.ORDERED] * 4):
        game = Game(Rules(run_mode=mode), number)
        game.start()
        players = [GreedyPlayer(rng), GreedyPlayer(rng)]
        reviewed = 0
        while not game.over:
            seat = game.to_act()[0]
            game.apply(choose_action(game, seat, players[seat]))
            if game.phase is Phase.SHOW and game.show_turn is not None and reviewed < game.hand_number or game.over:
                hand = game.hand_number
                by_replay = review_plays(game.rules, game.number, game.actions, game.first_dealer, hand=hand)
                assert review_hand(game.rules, hand, game.kept, game.played) == by_replay
                reviewed = hand
        assert reviewed >= 3
