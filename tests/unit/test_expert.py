"""The expert computer: its tables, its inference of the
opponent's cards, and whole games."""

import random
from collections import Counter

import pytest

from engine import pegging_search
from engine.actions import Discard, Play
from engine.cards import FULL_DECK, Card, parse_cards
from engine.crib_values import representatives
from engine.expert import ExpertPlayer, rank_discards, their_holdings
from engine.expert_tables import crib_value, keep_share, load, pegging_value
from engine.game import Game, Phase
from engine.hard import HardPlayer
from engine.pegging_search import PIP
from engine.rules import Rules, RunMode
from engine.strategy import Situation, choose_action, situation


def test_the_tables_cover_every_throw_and_every_kept_hand() -> None:
    tables = load()
    assert set(tables["crib"]["mine"]) == set(representatives()) == set(tables["crib"]["theirs"])
    assert len(tables["pegging"]) == 1820  # four ranks of thirteen, repeats allowed
    assert all(0 < s <= 1 for seat in (True, False) for s in keep_share(seat))


def test_the_pone_keeps_fives_and_throws_kings() -> None:
    pone = keep_share(False)
    assert pone[4] > 0.9 and pone[12] < 0.5


def test_a_crib_thrown_to_is_worth_less_than_one_of_random_cards() -> None:
    """The opponent's throw is not random: a pone throws the dealer cards
    that go badly together, so the dealer's own crib is worth less than
    with two random cards, and five-five is still the best throw."""
    five, other_five = parse_cards("5H 5S")
    random_cards = 0.0
    from engine.crib_values import crib_value as random_crib
    random_cards = random_crib(five, other_five)
    assert crib_value(five, other_five, own=True) < random_cards
    mine = load()["crib"]["mine"]
    assert max(mine, key=mine.get) == "5-5"


def test_low_cards_peg_better_than_fives_and_tens_for_the_pone() -> None:
    low = parse_cards("AH 2S 3D 4C")
    fives = parse_cards("5H 5S TD JC")
    assert pegging_value(low, dealer=False) > pegging_value(fives, dealer=False)
    assert pegging_value(low, dealer=True) > pegging_value(low, dealer=False)  # the dealer pegs more


def test_discards_are_ranked_by_hand_crib_and_pegging() -> None:
    hand = parse_cards("5H 5S JD QC 2H 9S")
    ranked = rank_discards(hand, dealer=True)
    assert len(ranked) == 15
    assert [c.value for c in ranked] == sorted((c.value for c in ranked), reverse=True)
    best = ranked[0]
    assert best.value == pytest.approx(best.hand + best.crib + best.pegging)
    with pytest.raises(ValueError):
        rank_discards(hand[:5], dealer=True)


def test_the_crib_is_valued_by_how_the_opponent_has_thrown() -> None:
    """Against an opponent whose past discards are nothing like the
    model's, the crib is valued as with two random cards (the hard
    computer's table); against one who follows it, as the model throws."""
    from engine.crib_values import crib_value as random_crib
    from engine.opponent_model import model_share
    hand = parse_cards("5H 5S JD QC 2H 9S")
    for dealer in (True, False):
        sign = 1 if dealer else -1
        for choice in rank_discards(hand, dealer, share=0.0):
            a, b = choice.thrown
            assert choice.crib == pytest.approx(sign * random_crib(a, b))
        for choice in rank_discards(hand, dealer, share=1.0):
            a, b = choice.thrown
            assert choice.crib == pytest.approx(sign * crib_value(a, b, own=dealer))
    # a pone who kept two kings and threw a five and a four, four times:
    # the model's pone keeps the five's fifteens and throws the kings
    odd = (False, tuple(parse_cards("KH KS 9D 3C")), tuple(parse_cards("5H 4S")))
    assert model_share([odd] * 4) < 0.01 < model_share([]) == 0.5


def test_holdings_are_exact_for_two_cards_and_weighted_by_the_keep_shares() -> None:
    unseen = parse_cards("5H 5S KD KC")
    weights = [1.0] * 13
    weights[12] = 0.5  # kings kept half as often
    holdings = dict(their_holdings(unseen, 2, weights, random.Random(1)))
    # one way to hold 5-5 and K-K, four to hold 5-K; a king weighs half
    raw = {(5, 5): 1.0, (5, 13): 4 * 0.5, (13, 13): 0.25}
    total = sum(raw.values())
    assert holdings == pytest.approx({h: w / total for h, w in raw.items()})


def test_drawn_holdings_only_hold_unseen_cards() -> None:
    unseen = [c for c in FULL_DECK if c.pip >= 9]
    holdings = their_holdings(unseen, 4, [1.0] * 13, random.Random(2), draws=40)
    assert sum(p for _, p in holdings) == pytest.approx(1.0)
    assert all(len(h) == 4 and min(h) >= 9 for h, _ in holdings)
    assert their_holdings(unseen, 0, [1.0] * 13, random.Random(2)) == []


def _game_in_play(number: int) -> Game:
    game = Game(Rules(), number, first_dealer=0)
    game.start()
    for seat in (1, 0):
        game.apply(choose_action(game, seat, HardPlayer()))
    return game


def test_the_situation_knows_my_throw_and_their_cards() -> None:
    game = _game_in_play(5)
    dealer_throw = next(a for a in game.actions if isinstance(a, Discard) and a.seat == 0)
    pone_card = game.hands[1][0]
    game.apply(Play(1, pone_card))
    where = situation(game, 0)
    assert where.thrown == tuple(dealer_throw.cards)
    assert where.their_played == (pone_card,)
    assert where.their_cards == 3 and where.their_floor == 0


def test_a_go_tells_the_floor_of_their_cards() -> None:
    """The pone holds 9-T-J-Q; the dealer 2-3-4-6.  After 9, 2, T, 3 (24)
    the pone cannot play: the dealer, to play again, knows every card the
    pone still holds is above 7."""
    pone = parse_cards("9H TH JH QH")
    dealer = parse_cards("2S 3S 4S 6S")
    rest = [c for c in FULL_DECK if c not in pone + dealer]
    deck = [c for pair in zip(list(pone) + rest[:2], list(dealer) + rest[2:4]) for c in pair] + [rest[4]]
    game = Game(Rules(), 1, first_dealer=0, stacked=[deck])
    game.start()
    game.apply(Discard(1, (rest[0], rest[1])))
    game.apply(Discard(0, (rest[2], rest[3])))
    for seat, card in ((1, "9H"), (0, "2S"), (1, "TH"), (0, "3S")):
        game.apply(Play(seat, Card.from_str(card)))
    assert game.count == 24 and game.turn == 0  # the pone said go
    where = situation(game, 0)
    assert where.their_floor == 7
    # the expert does not imagine the pone holding anything it could have played
    card = ExpertPlayer(random.Random(1)).choose_play(
        game.hands[0], game.series, list(game.kept[0]) + [p.card for p in game.played[1]], RunMode.UNORDERED,
        where)
    assert card in game.playable(0)


def test_it_takes_the_game_when_a_card_reaches_the_target() -> None:
    hand = parse_cards("5H 9S")
    series = parse_cards("TD")
    where = Situation(mine=119, theirs=100, their_cards=3)
    assert ExpertPlayer().choose_play(hand, series, hand + series, RunMode.UNORDERED, where) == hand[0]


@pytest.mark.parametrize("number", [3, 4])
def test_whole_games_against_hard_are_legal_and_finish(number: int) -> None:
    game = Game(Rules(run_mode=RunMode.ORDERED if number % 2 else RunMode.UNORDERED), number)
    game.start()
    players = [ExpertPlayer(random.Random(number)), HardPlayer(random.Random(-number))]
    moves: Counter[str] = Counter()
    while not game.over:
        seat = game.to_act()[0]
        moves[game.phase.value] += 1
        game.apply(choose_action(game, seat, players[seat]))
    assert game.result is not None and moves[Phase.PLAY.value] > 20


def test_the_table_of_scored_series_stays_bounded() -> None:
    """series_points remembers what it scored, for the whole process: the
    table never grows past its limit, and a remembered answer is the one
    worked out (every series of up to 4 cards, both run modes: more
    series than the table holds)."""
    from itertools import product

    from engine.pegging_search import _KNOWN_AT_MOST, _scored, series_points

    pegging_search._KNOWN.clear()
    distinct: set[tuple[tuple[int, ...], bool]] = set()
    for ordered in (True, False):
        for ranks in product(range(1, 14), repeat=4):
            for n in (1, 2, 3, 4):
                series = ranks[:n]
                count = sum(PIP[r] for r in series)
                if count > 31:
                    break
                assert series_points(series, count, ordered) == _scored(series, count, ordered)
                assert len(pegging_search._KNOWN) <= _KNOWN_AT_MOST
                distinct.add((series, ordered))
    assert len(distinct) > _KNOWN_AT_MOST  # the limit was reached and the table emptied on the way


def test_the_expert_keeps_nothing_of_its_search_between_moves() -> None:
    """A door holds one expert per caller, most of them mid-play at any
    moment: the positions a move searched (about 1 MiB at the first card
    of a hand) must go with the move, not wait for the hand's last card
    (at 500 callers the door's memory peaked at 550 MiB, 129 MiB now)."""
    import gc
    import tracemalloc

    expert, hard = ExpertPlayer(random.Random(3)), HardPlayer()
    game = Game(Rules(), 31)
    game.start()
    while not (game.phase is Phase.PLAY and 0 in game.to_act()):
        seat = game.to_act()[0]
        game.apply(choose_action(game, seat, expert if seat == 0 else hard))
    expert.rank_plays(parse_cards("AH 2H 3H 4H"), [], [], RunMode.ORDERED)  # the tables loaded
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        game.apply(choose_action(game, 0, expert))  # the hand's first card: the largest search
        pegging_search._KNOWN.clear()  # the process's bounded table of series (tested apart), not the caller's
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 64 * 1024, f"{kept} bytes kept after one move"
