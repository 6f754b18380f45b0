"""The game review: a known bad discard and a known bad play
are flagged with the right cost, a near-tie is not, and counts missed or
over-claimed are found."""

from __future__ import annotations

import random

from door.play.review_words import review_lines, totals_line
from engine.actions import Claim, Discard, IllegalAction, Play
from engine.cards import FULL_DECK, parse_cards
from engine.expert import rank_discards
from engine.game import Game
from engine.game_review import CRIB_SE, Z_95, review_game
from engine.rules import Counting, Rules
from engine.scoring import show_points

PONE = parse_cards("KC QC TC JC 2H 3H")
DEALER = parse_cards("AS TD 2S 9S 4D 5D")
STARTER = parse_cards("7C")[0]
DECK = [c for pair in zip(PONE, DEALER) for c in pair] + [STARTER]
"""Hand 1, seat 0 dealing: the pone's six at even places, the dealer's at odd, then the starter."""


def test_a_bad_discard_is_flagged_with_its_cost() -> None:
    held = parse_cards("5H 5D 5S JC QD KS")
    # as pone, seat 0 lays away two fives to the dealer's crib
    ranked = rank_discards(held, dealer=False)
    mine = next(d for d in ranked if set(d.thrown) == set(parse_cards("5H 5D")))
    deck = [c for pair in zip(held, parse_cards("AC 2C 3C 4C 6C 8C")) for c in pair] + [STARTER]
    review = review_game(Rules(), 1, [Discard(0, tuple(parse_cards("5H 5D")))], seat=0, first_dealer=1,
                         stacked=[deck])
    [d] = review.discards
    assert d.mine == mine and d.best == ranked[0]
    # the kept hand's part is its exact mean show over the 46 starters
    unseen = [c for c in FULL_DECK if c not in held]
    assert abs(mine.hand - sum(show_points(mine.kept, s) for s in unseen) / 46) < 1e-9
    assert abs(d.cost - (ranked[0].value - mine.value)) < 1e-9 and d.cost > 3
    assert d.mistake and review.discard_cost == d.cost


def test_a_near_tie_is_not_called_a_mistake() -> None:
    rng = random.Random(5)
    found = 0
    for _ in range(200):
        held = tuple(rng.sample(FULL_DECK, 6))
        ranked = rank_discards(held, dealer=True)
        near = [d for d in ranked[1:] if 0 < ranked[0].value - d.value < Z_95 * 2 ** 0.5 * CRIB_SE]
        if not near:
            continue
        other = [c for c in FULL_DECK if c not in held][:6]
        deck = [c for pair in zip(other, held) for c in pair] + [STARTER]
        review = review_game(Rules(), 1, [Discard(0, near[0].thrown)], seat=0, first_dealer=0, stacked=[deck])
        assert review.discards[0].cost > 0 and not review.discards[0].mistake
        assert review.discard_cost == 0
        found += 1
    assert found >= 3


def test_a_bad_play_is_flagged_with_its_cost() -> None:
    # the count is 21 and seat 0 holds a ten (31, two points) and a two: it plays the two
    moves = [Discard(1, tuple(parse_cards("2H 3H"))), Discard(0, tuple(parse_cards("4D 5D"))),
             Play(1, parse_cards("KC")[0]), Play(0, parse_cards("AS")[0]), Play(1, parse_cards("QC")[0]),
             Play(0, parse_cards("2S")[0])]
    review = review_game(Rules(), 1, moves, seat=0, first_dealer=0, stacked=[DECK])
    first, bad = review.plays
    assert bad.count == 21 and bad.card == parse_cards("2S")[0] and bad.best == parse_cards("TD")[0]
    assert bad.cost >= 1.0 and bad.mistake  # 31 for two, against a last card for one
    assert not first.mistake or first.cost > Z_95 * first.se
    assert "2♠ on 21: cost" in "\n".join(review_lines(review, 1, "Computer"))


def test_counts_missed_and_over_claimed_are_found() -> None:
    rules = Rules(counting=Counting.MANUAL, muggins=False)
    moves = [Discard(1, tuple(parse_cards("2H 3H"))), Discard(0, tuple(parse_cards("4D 5D")))]
    pone_kept = parse_cards("KC QC TC JC")
    mine_kept = parse_cards("AS TD 2S 9S")
    for pone_card, my_card in zip(pone_kept, (mine_kept[0], mine_kept[2], mine_kept[1], mine_kept[3])):
        moves += [Play(1, pone_card), Play(0, my_card)]
    game = Game(rules, 1, 0, [DECK])
    game.start()
    played = []
    for m in moves:  # the play as far as the rules let it go: a card that cannot go is skipped
        try:
            game.apply(m)
            played.append(m)
        except IllegalAction:
            pass
    while game.show_turn is not None and not game.over:
        seat, _turn = game.show_turn
        claim = Claim(seat, 0)  # every count claimed as nothing: all missed
        game.apply(claim)
        played.append(claim)
    review = review_game(rules, 1, played, seat=0, first_dealer=0, stacked=[DECK])
    hand, crib = review.counts
    assert hand.what == "hand" and hand.claimed == 0 and hand.missed == show_points(mine_kept, STARTER)
    assert crib.what == "crib" and crib.missed == show_points(parse_cards("2H 3H 4D 5D"), STARTER, True)
    assert review.counting_cost == hand.missed + crib.missed
    assert totals_line(review).endswith(f"your counting {review.counting_cost}.")


def _claimed_game(rules: Rules, claim_of: dict[int, int]) -> tuple[list, Game]:  # type: ignore[type-arg]
    """Hand 1 of :data:`DECK` played out, each count claimed as ``claim_of[seat] + true``."""
    moves = [Discard(1, tuple(parse_cards("2H 3H"))), Discard(0, tuple(parse_cards("4D 5D")))]
    pone_kept = parse_cards("KC QC TC JC")
    mine_kept = parse_cards("AS TD 2S 9S")
    for pone_card, my_card in zip(pone_kept, (mine_kept[0], mine_kept[2], mine_kept[1], mine_kept[3])):
        moves += [Play(1, pone_card), Play(0, my_card)]
    game = Game(rules, 1, 0, [DECK])
    game.start()
    played = []
    for m in moves:
        try:
            game.apply(m)
            played.append(m)
        except IllegalAction:
            pass
    while game.show_turn is not None and not game.over:
        seat, turn = game.show_turn
        cards = game.crib if turn.value == "crib" else game.kept[seat]
        true = show_points(cards, game.starter, turn.value == "crib")
        claim = Claim(seat, max(0, true + claim_of.get(seat, 0)))
        game.apply(claim)
        played.append(claim)
    return played, game


def test_an_over_claim_costs_what_it_lost_and_what_it_gave_away() -> None:
    """Claiming 2 over a hand under over-claim forfeit pegs nothing and
    gives the opponent the true count: the review's cost is both, not the
    2 points of the over-claim (nor the claimer's loss alone)."""
    rules = Rules(counting=Counting.MANUAL, muggins=True)
    played, _ = _claimed_game(rules, {0: 2})
    review = review_game(rules, 1, played, seat=0, first_dealer=0, stacked=[DECK])
    hand = next(c for c in review.counts if c.what == "crib")  # (seat 0 deals: its crib holds 6)
    true = show_points(parse_cards("2H 3H 4D 5D"), STARTER, True)
    assert true > 0 and hand.over == 2 and hand.pegged == 0 and hand.given == true
    assert hand.cost == 2 * true
    assert review.counting_cost == sum(c.cost for c in review.counts)
    lines = "\n".join(review_lines(review, 1, "Computer"))
    assert (f"Your crib: you claimed {true + 2}, it held {true}: you pegged 0 and Computer {true}, "
            f"a cost of {2 * true}.") in lines
    # capped over-claims cost nothing; a short count with muggins costs twice the points missed
    capped = Rules(counting=Counting.MANUAL, muggins=True, overclaim="capped")
    played, _ = _claimed_game(capped, {0: 2})
    assert next(c for c in review_game(capped, 1, played, seat=0, first_dealer=0, stacked=[DECK]).counts
                if c.what == "crib").cost == 0
    played, _ = _claimed_game(rules, {0: -1})
    short = next(c for c in review_game(rules, 1, played, seat=0, first_dealer=0, stacked=[DECK]).counts
                 if c.what == "crib")
    assert short.missed == 1 and short.cost == 2


def test_the_hint_the_analysis_and_the_review_give_one_estimate_of_a_discard() -> None:
    """The hint on ? and the analysis after the hand say the number and
    the verdict the review says for the same discard."""
    from door.play.hints import discard_analysis, hint

    rng = random.Random(11)
    for _ in range(40):
        deck = rng.sample(FULL_DECK, 13)
        game = Game(Rules(), 1, 0, [deck])
        game.start()
        held = tuple(game.hands[0])
        thrown = tuple(rng.sample(held, 2))
        review = review_game(Rules(), 1, [Discard(0, thrown)], seat=0, first_dealer=0, stacked=[deck])
        [d] = review.discards
        cards, text = hint(game, 0)
        assert set(cards) == set(d.best.thrown)
        assert f"{d.best.value:.1f} expected points" in text
        said = discard_analysis(held, thrown, True)
        assert f": {d.mine.value:.1f} expected" in said
        if d.cost == 0.0:
            assert said.endswith("the best discard.")
        else:
            assert "best was" in said and f": {d.best.value:.1f}" in said
            assert ("near-tie" in said) == (not d.mistake)
