"""The expert's model of its opponent: the hard policy's throw
by ranks, its play by ranks, and the holdings inferred from both."""

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement

import pytest

from engine.actions import Play
from engine.cards import FULL_DECK, Card
from engine.game import Game, Phase
from engine.hard import HardPlayer, rank_discards
from engine.opponent_model import (
    MISS,
    blended,
    discard_odds,
    inferred_holdings,
    play_likelihood,
    play_values,
    random_likelihood,
)
from engine.rules import Rules, RunMode
from engine.strategy import Situation, choose_action, situation
from engine.throw_table import SIXES, kept_ranks, six_index


def test_every_sorted_six_has_its_own_place() -> None:
    places = [six_index(six) for six in combinations_with_replacement(range(1, 14), 6)]
    assert sorted(places) == list(range(SIXES))
    with pytest.raises(ValueError):
        six_index((5, 4, 3, 2, 1, 1))
    with pytest.raises(ValueError):
        kept_ranks((5, 5, 5, 5, 5, 9), dealer=True)


def test_the_throw_table_follows_the_hard_policy() -> None:
    """By ranks the table is what hard throws on nearly every real six
    (suits matter only through flushes, nobs and suited throws)."""
    rng = random.Random(7)
    same = 0
    for i in range(400):
        six = rng.sample(FULL_DECK, 6)
        dealer = i % 2 == 0
        kept = tuple(sorted(c.rank for c in rank_discards(six, dealer)[0].kept))
        same += kept == kept_ranks(sorted(c.rank for c in six), dealer)
    assert same >= 0.95 * 400


def test_the_pone_model_keeps_a_five_with_its_tens() -> None:
    assert kept_ranks((5, 5, 10, 11, 12, 13), dealer=False) == (5, 5, 11, 12)


def _hard_position(rng: random.Random) -> tuple[list[Card], list[Card], list[Card], Situation]:
    """A random position of the play from the hard player's side: its hand,
    the series, what it has seen, and the situation."""
    while True:
        cards = rng.sample(FULL_DECK, 10)
        kept, theirs, starter = cards[:4], cards[4:8], cards[8]
        played_mine = rng.randint(0, 3)
        played_theirs = rng.randint(0, 3)
        series = kept[:played_mine][-2:] + theirs[:played_theirs][-1:]
        if sum(c.pip for c in series) > 31:
            continue
        hand = kept[played_mine:]
        if not any(sum(c.pip for c in series) + c.pip <= 31 for c in hand):
            continue
        seen = kept + theirs[:played_theirs] + [starter]
        where = Situation(their_cards=4 - played_theirs, kept=tuple(kept), starter=starter)
        return hand, series, seen, where


def test_play_values_are_the_hard_players_values_by_ranks() -> None:
    rng = random.Random(11)
    for _ in range(300):
        hand, series, seen, where = _hard_position(rng)
        mode = RunMode.ORDERED if rng.random() < 0.5 else RunMode.UNORDERED
        hard = {p.card.rank: p.value for p in HardPlayer().rank_plays(hand, series, seen, mode, where)}
        gone = set(seen) | set(hand) | set(series)
        unseen = [0] * 14
        for c in FULL_DECK:
            if c not in gone:
                unseen[c.rank] += 1
        ours = play_values(tuple(sorted(c.rank for c in hand)), tuple(c.rank for c in series),
                           sum(c.pip for c in series), unseen, where.their_cards, mode is RunMode.ORDERED)
        assert ours == pytest.approx(hard, abs=1e-9)


def test_a_play_the_model_would_not_make_weighs_less() -> None:
    """Hard leads a ten from 5-5-T-T (a 5 led is a fifteen for any ten),
    so a 5 led says they probably do not hold that hand."""
    kept = (5, 5, 10, 10)
    ten = play_likelihood(kept, 1, [(0, False, 10)], ordered=False)
    five = play_likelihood(kept, 1, [(0, False, 5)], ordered=False)
    assert five == pytest.approx(MISS * ten)
    assert ten + five == pytest.approx(1.0)  # a chance over the legal cards
    assert random_likelihood(kept, 1, [(0, False, 5)]) == pytest.approx(0.5)


def _game_in_play(number: int) -> Game:
    game = Game(Rules(), number)
    game.start()
    while game.phase is not Phase.PLAY:
        seat = game.to_act()[0]
        game.apply(choose_action(game, seat, HardPlayer()))
    return game


def test_the_situation_lists_the_play_in_order() -> None:
    game = _game_in_play(5)
    moves = []
    for _ in range(3):
        seat = game.turn
        card = game.playable(seat)[0]
        game.apply(Play(seat, card))
        moves.append((seat, card))
    where = situation(game, 0)
    assert [(mine, card) for _, mine, card in where.play_order] == [(seat == 0, card) for seat, card in moves]
    assert all(series == 0 for series, _, _ in where.play_order)


def test_inferred_holdings_fit_all_that_was_seen() -> None:
    found = 0
    for number in range(9, 15):
        game = _game_in_play(number)
        pone = game.pone
        game.apply(Play(pone, game.playable(pone)[0]))
        dealer = game.dealer
        where = situation(game, dealer)
        holdings, share = inferred_holdings(where, ordered=False, rng=random.Random(1), draws=1000)
        assert 0.0 < share <= 1.0
        assert sum(p for _, p in holdings) == pytest.approx(1.0)
        seen = Counter(c.rank for c in list(where.kept) + list(where.thrown) + list(where.their_played)
                       + [where.starter])
        for ranks, p in holdings:
            assert len(ranks) == 3 and p > 0
            assert all(Counter(ranks)[r] + seen[r] <= 4 for r in ranks)
        found += tuple(sorted(c.rank for c in game.hands[pone])) in [h for h, _ in holdings]
    # what they really hold is among what the model imagines (of 1,000 sixes), most deals
    assert found >= 5


def test_without_the_hands_cards_there_is_nothing_to_infer() -> None:
    assert inferred_holdings(Situation(), ordered=False, rng=random.Random(1), draws=8) == ([], 0.0)


def test_when_nothing_fits_the_expert_falls_back_on_rank_shares() -> None:
    """A floor above every card (as if the opponent said go on nothing):
    no six fits, the model gives up, and the expert still plays."""
    game = _game_in_play(9)
    pone = game.pone
    game.apply(Play(pone, game.playable(pone)[0]))
    dealer = game.dealer
    where = situation(game, dealer)
    impossible = replace(where, their_floor=10)
    assert inferred_holdings(impossible, ordered=False, rng=random.Random(1), draws=4) == ([], 0.0)
    from engine.expert import ExpertPlayer
    card = ExpertPlayer(random.Random(2)).choose_play(
        game.hands[dealer], game.series, list(game.kept[dealer]) + [p.card for p in game.played[pone]],
        RunMode.UNORDERED, impossible)
    assert card in game.playable(dealer)


def test_blended_holdings_sum_to_one_and_take_from_both_in_proportion() -> None:
    model = [((1, 2), 0.5), ((3, 4), 0.25), ((5, 5), 0.25)]
    other = [((3, 4), 0.5), ((9, 9), 0.5)]
    mixed = blended(model, 0.75, other)
    assert dict(mixed) == pytest.approx({(1, 2): 0.375, (3, 4): 0.1875 + 0.125, (5, 5): 0.1875, (9, 9): 0.125})
    assert sum(p for _, p in mixed) == pytest.approx(1.0)
    # each list's first holding comes before anything listed after it
    assert [h for h, _ in mixed][:2] == [(1, 2), (3, 4)]
    assert blended(model, 1.0, other) == model


def _six(*ranks: int) -> list[Card]:
    suits = Counter[int]()
    cards = []
    for r in ranks:
        cards.append(next(c for c in FULL_DECK if c.rank == r and c.suit == suits[r]))
        suits[r] += 1
    return cards


def test_a_discard_the_model_would_make_is_evidence_for_it() -> None:
    six = _six(5, 5, 6, 7, 12, 13)
    model = kept_ranks(sorted(c.rank for c in six), True)
    kept = [c for c in six if c.rank in model]
    thrown = [c for c in six if c not in kept]
    assert discard_odds([]) == 1.0
    assert discard_odds([(True, kept, thrown)]) > 10
    # the same six laid away otherwise (the fives thrown): evidence against
    odd_kept = [c for c in six if c.rank != 5]
    assert discard_odds([(True, odd_kept, [c for c in six if c.rank == 5])]) < 0.2


def _history(game: Game, follow: bool, deals: int) -> Situation:
    """A situation of seat 0 in ``game``'s play after ``deals`` past deals
    in which seat 1 laid away as the model does (``follow``) or not."""
    where = situation(game, 0)
    rng = random.Random(3)
    past = []
    for i in range(deals):
        six = rng.sample(FULL_DECK, 6)
        ranks = sorted(c.rank for c in six)
        model = list(kept_ranks(ranks, i % 2 == 0))
        if follow:
            kept = []
            for c in sorted(six, key=lambda c: c.rank):
                if c.rank in model:
                    model.remove(c.rank)
                    kept.append(c)
        else:
            kept = next(list(four) for four in combinations_with_replacement(six, 4)
                        if len(set(four)) == 4 and sorted(c.rank for c in four) != model)
        past.append((i % 2 == 0, tuple(kept), tuple(c for c in six if c not in kept)))
    return replace(where, their_discards=tuple(past))


def test_an_opponent_who_lays_away_at_random_is_not_read_by_the_model() -> None:
    """After deals whose discards the model would not have made, the
    model's share of the opponent's holdings falls near nothing (the
    expert draws by rank shares instead); after the model's discards it
    rises near all."""
    game = _game_in_play(9)
    pone = game.pone
    game.apply(Play(pone, game.playable(pone)[0]))
    dealer = game.dealer
    base = situation(game, dealer)
    odd = replace(base, their_discards=_history(game, False, 4).their_discards)
    usual = replace(base, their_discards=_history(game, True, 4).their_discards)
    _, share_odd = inferred_holdings(odd, ordered=False, rng=random.Random(1), draws=32)
    _, share_usual = inferred_holdings(usual, ordered=False, rng=random.Random(1), draws=32)
    _, share_none = inferred_holdings(base, ordered=False, rng=random.Random(1), draws=32)
    assert share_odd < 0.05 < share_none < 0.95 < share_usual


def test_the_situation_lists_the_opponents_past_discards() -> None:
    game = Game(Rules(), 4)
    game.start()
    players = [HardPlayer(), HardPlayer()]
    first_hand = None
    while game.hand_number < 2 or game.phase is not Phase.PLAY:
        seat = game.to_act()[0]
        if game.hand_number == 1 and game.phase is Phase.PLAY and first_hand is None:
            first_hand = (game.dealer, tuple(game.kept[1]), tuple(c for c in game.crib if c not in game.kept[1]))
            assert situation(game, 0).their_discards == ()  # this deal is not past yet
        game.apply(choose_action(game, seat, players[seat]))
    assert first_hand is not None
    (dealt, kept, thrown), = situation(game, 0).their_discards
    assert dealt == (first_hand[0] == 1)
    assert kept == first_hand[1]
    assert len(thrown) == 2 and set(thrown) <= set(first_hand[2])
    assert situation(game, 1).their_discards[0][1] == game.shown[0].kept[0]
