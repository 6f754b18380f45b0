"""The expert's search of the play: its scoring and its go / 31 / last
card rules against the real game's."""

import copy
import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Discard, Play
from engine.cards import FULL_DECK, Card
from engine.game import Game, Phase
from engine.pegging_search import PIP, BoardSearch, PeggingSearch, series_points
from engine.rules import Rules, RunMode
from engine.scoring import play_points

RANKS = [r for r in range(1, 14) for _ in range(4)]


@settings(max_examples=400, deadline=None)
@given(st.permutations(RANKS), st.integers(1, 8), st.sampled_from(list(RunMode)))
def test_series_points_are_play_points(deck: list[int], n: int, mode: RunMode) -> None:
    series = tuple(deck[:n])
    count = sum(PIP[r] for r in series)
    if count > 31:
        return
    assert series_points(series, count, mode is RunMode.ORDERED) == play_points(series, mode)


def test_series_points_are_play_points_for_every_short_series_of_low_ranks() -> None:
    """Every series of one to six cards from ace to six (run-rich: runs in
    and out of order, broken by pairs), in both run modes."""
    from itertools import product
    for n in range(1, 7):
        for series in product(range(1, 7), repeat=n):
            count = sum(series)
            if count > 31 or max(series.count(r) for r in series) > 4:
                continue
            for mode in RunMode:
                assert series_points(series, count, mode is RunMode.ORDERED) == play_points(series, mode), (series, mode)


def _play_phase(pone_cards: list[Card], dealer_cards: list[Card], mode: RunMode) -> Game:
    """A game in the play with these kept hands (seat 0 deals the first hand)."""
    rest = [c for c in FULL_DECK if c not in pone_cards + dealer_cards]
    pone6, dealer6 = pone_cards + rest[:2], dealer_cards + rest[2:4]
    starter = rest[4]
    deck = [c for pair in zip(pone6, dealer6) for c in pair] + [starter]
    game = Game(Rules(run_mode=mode, game_to=121), 1, first_dealer=0, stacked=[deck])
    game.start()
    game.apply(Discard(1, (rest[0], rest[1])))
    game.apply(Discard(0, (rest[2], rest[3])))
    assert game.phase is Phase.PLAY and game.turn == 1
    return game


def _minimax(game: Game, mover: int, start: tuple[int, int]) -> int:
    """Net pegging for ``mover`` from here to the end of the play, by the
    real game's rules (every legal card tried on a copy)."""
    if game.phase is not Phase.PLAY:
        return (game.pegs[mover].front - start[mover]) - (game.pegs[1 - mover].front - start[1 - mover])
    seat = game.turn
    best = None
    for card in {c.rank: c for c in game.playable(seat)}.values():
        child = copy.deepcopy(game)
        child.apply(Play(seat, card))
        v = _minimax(child, mover, start)
        if seat != mover:
            v = -v
        best = v if best is None else max(best, v)
    assert best is not None
    return best if seat == mover else -best


@functools.cache
def _brute(hands: tuple[tuple[int, ...], tuple[int, ...]], turn: int, series: tuple[int, ...], last: int,
           mode: RunMode) -> int:
    """Seat 0's pegging minus seat 1's to the end of the play, by trying
    every card (ranks) each player may play, the standard rules written
    out plainly: a player who cannot play says go and the other plays on;
    when neither can, the last to play pegs 1 and the other leads; 31
    ends the series too (its 2 from :func:`play_points`, no go); the last
    card pegs 1 unless it made 31.  No memo and no shared code with the
    solver but the scorer of a series (remembered, as any search may be)."""
    count = sum(min(r, 10) for r in series)
    hand = hands[turn]
    fits = [i for i, r in enumerate(hand) if count + min(r, 10) <= 31 and r not in hand[:i]]  # (ranks alike alike)
    if not fits:
        if any(count + min(r, 10) <= 31 for r in hands[1 - turn]):
            return _brute(hands, 1 - turn, series, last, mode)
        leader = 1 - last if hands[1 - last] else last
        return (1 if last == 0 else -1) + _brute(hands, leader, (), last, mode)
    sign = 1 if turn == 0 else -1
    values = []
    for i in fits:
        after = (hand[:i] + hand[i + 1:], hands[1]) if turn == 0 else (hands[0], hand[:i] + hand[i + 1:])
        played = series + (hand[i],)
        points = play_points(played, mode)
        total = count + min(hand[i], 10)
        if not after[0] and not after[1]:  # the last card
            value = sign * (points + (0 if total == 31 else 1))
        elif total == 31:  # a new series, led by the other if they still hold a card
            value = sign * points + _brute(after, 1 - turn if after[1 - turn] else turn, (), turn, mode)
        else:
            value = sign * points + _brute(after, 1 - turn, played, turn, mode)
        values.append(value)
    return max(values) if turn == 0 else min(values)


@pytest.mark.parametrize("seed", range(12))
def test_the_search_pegs_as_the_game_does(seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(FULL_DECK, 8)
    if seed % 3 == 0:  # low cards: long series, gos and 31s
        cards = rng.sample([c for c in FULL_DECK if c.pip <= 5], 8)
    mode = RunMode.ORDERED if seed % 2 else RunMode.UNORDERED
    game = _play_phase(cards[:4], cards[4:], mode)
    start = (game.pegs[0].front, game.pegs[1].front)
    expected = _minimax(game, 1, start)
    search = PeggingSearch(mode)
    pone = tuple(sorted(c.rank for c in cards[:4]))
    dealer = tuple(sorted(c.rank for c in cards[4:]))
    assert search.value(pone, dealer, (), 0) == expected
    # each card of the pone's lead: the best of them is the position's value
    assert max(search.after(r, pone, dealer, (), 0) for r in set(pone)) == expected
    # the plain brute force below pegs as the game does too (seat 0 of it is the pone)
    assert _brute((pone, dealer), 0, (), 0, mode) == expected


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(RunMode))
def test_the_search_agrees_with_brute_force_on_1000_deals(mode: RunMode) -> None:
    """Check of the double-dummy solver: 1,000 random deals in
    each run mode (one in three of low cards, for long series, gos and
    31s), the value of the position and of each card of the lead."""
    rng = random.Random(3800 + list(RunMode).index(mode))
    low = [r for r in RANKS if r <= 5]
    for deal in range(1000):
        ranks = rng.sample(low if deal % 3 == 0 else RANKS, 8)
        pone, dealer = tuple(sorted(ranks[:4])), tuple(sorted(ranks[4:]))
        search = PeggingSearch(mode)
        assert search.value(pone, dealer, (), 0) == _brute((pone, dealer), 0, (), 0, mode), (pone, dealer)
        for i, rank in enumerate(pone):
            rest = pone[:i] + pone[i + 1:]
            by_brute = play_points((rank,), mode) + _brute((rest, dealer), 1, (rank,), 0, mode)
            assert search.after(rank, pone, dealer, (), 0) == by_brute, (pone, dealer, rank)


def test_a_card_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError):
        PeggingSearch(RunMode.UNORDERED).after(10, (10,), (1,), (10, 10), 30)


@pytest.mark.parametrize("seed", range(6))
def test_with_the_board_out_of_reach_the_board_search_is_the_points_search(seed: int) -> None:
    rng = random.Random(100 + seed)
    ranks = rng.sample(RANKS, 8)
    mine, theirs = tuple(sorted(ranks[:4])), tuple(sorted(ranks[4:]))
    points = PeggingSearch(RunMode.UNORDERED)
    board = BoardSearch(RunMode.UNORDERED, 10_000, lambda loser: 1e9, lambda me, them: float(me - them))
    for rank in set(mine):
        assert board.after(rank, mine, theirs, (), 0, 0, 0) == points.after(rank, mine, theirs, (), 0)


def test_the_board_search_pegs_out_rather_than_score_more() -> None:
    """Needing 2 to win on a count of 10: a 5 makes fifteen and the game
    (worth 1 here); an ace scores nothing and leaves the game in doubt."""
    board = BoardSearch(RunMode.UNORDERED, 121, lambda loser: 1.0, lambda me, them: 0.0)
    mine, theirs = (1, 5), (2, 9)
    assert board.after(5, mine, theirs, (10,), 10, 119, 100) == 1.0
    assert board.after(1, mine, theirs, (10,), 10, 119, 100) < 1.0
