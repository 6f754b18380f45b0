"""The hard computer: the exact crib table, discards, the play search, the
board, and its strength against simpler players (fixed deals and seeds, so
every figure here is deterministic)."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards
from engine.crib_values import compute_crib_value, crib_value, load_table, representatives, table_key
from engine.game import Game
from engine.hard import HardPlayer, rank_discards
from engine.players import EasyPlayer, GreedyPlayer, RandomPlayer
from engine.rules import Rules
from engine.scoring import RunMode
from engine.strategy import Situation, choose_action

C = Card.from_str


def test_table_has_every_kind_of_throw() -> None:
    table = load_table()
    assert len(table) == 169 == len(representatives())
    ranked = sorted(table, key=table.get, reverse=True)
    assert ranked[0] == "5-5" and table["5-11 s"] > table["5-11 o"]  # suited jacks can be nobs' flush partners
    assert table["10-13 o"] < 3.5


@pytest.mark.parametrize("key", ["5-5", "1-2 s", "7-8 o", "11-11", "3-12 s"])
def test_a_sample_of_entries_matches_a_fresh_computation(key: str) -> None:
    a, b = representatives()[key]
    assert crib_value(a, b) == pytest.approx(compute_crib_value(a, b), abs=1e-6)
    assert table_key(b, a) == key


def test_discards_rank_all_fifteen_by_expected_points() -> None:
    choices = rank_discards(parse_cards("5H 5D 5S JC 2C 9D"), dealer=False)
    assert len(choices) == 15
    assert set(choices[0].thrown) == set(parse_cards("2C 9D"))
    assert choices[0].value == pytest.approx(choices[0].hand_ev + choices[0].crib_ev)
    assert all(c.crib_ev <= 0 for c in choices)  # the opponent's crib counts against
    dealer = rank_discards(parse_cards("5H 5D 5S JC 2C 9D"), dealer=True)
    assert all(c.crib_ev >= 0 for c in dealer)


def test_the_crib_changes_the_discard() -> None:
    # the dealer lays 5-5 in his own crib (8.99 points on average there);
    # the pone keeps them and gives away 8-9 instead
    hand = parse_cards("3C 5D 5H 7H 8D 9D")
    assert set(rank_discards(hand, dealer=True)[0].thrown) == {C("5D"), C("5H")}
    assert set(rank_discards(hand, dealer=False)[0].thrown) == {C("8D"), C("9D")}


def play(hand: str, series: str, **where) -> Card:
    cards, played = parse_cards(hand), parse_cards(series)
    return HardPlayer(random.Random(1)).choose_play(cards, played, list(cards) + list(played),
                                                    RunMode.UNORDERED, Situation(**where))


def test_takes_points_and_avoids_leaving_five_or_twenty_one() -> None:
    assert play("5S 2C 9D", "TH") == C("5S")                 # fifteen for 2
    assert play("AS 3C", "TH TD 8C") == C("3C")              # thirty-one for 2
    assert play("KS 6C 2D", "TH AH") != C("KS")              # 21 invites a ten for 31
    assert play("5S 3C 2D 9H", "") != C("5S")                # leading a five invites fifteen


def test_plays_to_the_score() -> None:
    # one point from the game: take the pair (2) now, whatever the risk
    assert play("7S 2C", "7H", mine=120, theirs=50) == C("7S")
    # the opponent needs 2: do not leave them a fifteen (a ten after a five)
    assert play("5S 9C", "", mine=50, theirs=119) == C("9C")


def duplicate(first, second, numbers) -> tuple[int, int]:
    """Play each deal twice with the seats swapped; returns (wins of
    ``first``, games)."""
    wins = games = 0
    for n in numbers:
        for seat in (0, 1):
            players = [first(n), second(n)] if seat == 0 else [second(n), first(n)]
            g = Game(Rules(), n)
            g.start()
            while not g.over:
                s = g.to_act()[0]
                g.apply(choose_action(g, s, players[s]))
            wins += g.result.winner == seat
            games += 1
    return wins, games


def test_hard_beats_random_and_greedy_in_duplicate() -> None:
    wins, games = duplicate(lambda n: HardPlayer(random.Random(n)), lambda n: RandomPlayer(random.Random(n)),
                            range(1, 21))
    assert wins >= 0.95 * games, f"{wins}/{games} against random play"
    wins, games = duplicate(lambda n: HardPlayer(random.Random(n)), lambda n: GreedyPlayer(random.Random(n)),
                            range(1, 41))
    assert wins > 0.5 * games, f"{wins}/{games} against the greedy player"


def test_easy_is_weaker_than_hard() -> None:
    wins, games = duplicate(lambda n: HardPlayer(random.Random(n)), lambda n: EasyPlayer(random.Random(n)),
                            range(1, 21))
    assert wins > 0.6 * games, f"{wins}/{games}"
