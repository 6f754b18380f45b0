"""The play: fifteen, thirty-one, pairs, and runs in both run modes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import FULL_DECK, Card, Suit, parse_cards
from engine.scoring import PlayKind, RunMode, score_play

U, O = RunMode.UNORDERED, RunMode.ORDERED


def kinds(series: str, mode: RunMode = U):
    return [(s.kind, s.points) for s in score_play(parse_cards(series), mode)]


@pytest.mark.parametrize("series,mode,expected", [
    ("5H TD", U, [(PlayKind.FIFTEEN, 2)]),
    ("TD KC 5H 6S", U, [(PlayKind.THIRTY_ONE, 2)]),
    ("7H 7D", U, [(PlayKind.PAIR, 2)]),
    ("7H 7D 7S", U, [(PlayKind.PAIR_ROYAL, 6)]),
    ("7H 7D 7S 7C", U, [(PlayKind.DOUBLE_PAIR_ROYAL, 12)]),
    ("5H 5D 5S", U, [(PlayKind.FIFTEEN, 2), (PlayKind.PAIR_ROYAL, 6)]),
    # the original door: 6, 7, 8 is a run
    ("6H 7D 8S", U, [(PlayKind.RUN, 3)]),
    ("6H 7D 8S", O, [(PlayKind.RUN, 3)]),
    # option 1: 7-5-6 is a run; option 2: it is not, but 5-6-7 and 7-6-5 are
    ("7H 5D 6S", U, [(PlayKind.RUN, 3)]),
    ("7H 5D 6S", O, []),
    ("5H 6D 7S", O, [(PlayKind.RUN, 3)]),
    ("7H 6D 5S", O, [(PlayKind.RUN, 3)]),
    ("2H 4D 3S 5C", U, [(PlayKind.RUN, 4)]),
    ("2H 4D 3S 5C", O, []),
    ("2H 3D 4S 5C", O, [(PlayKind.RUN, 4)]),
    ("4H 3D 2S AC 5C", U, [(PlayKind.FIFTEEN, 2), (PlayKind.RUN, 5)]),
    ("4H 3D 2S AC 5C", O, [(PlayKind.FIFTEEN, 2)]),
    # a pair breaks the run; the run then comes only from the tail
    ("3H 4D 4S 5C", U, []),
    ("3H 4D 4S 5C 6C", U, [(PlayKind.RUN, 3)]),
    # Q-K-A is not a run
    ("QH KD AS", U, []),
    ("9H 8D", U, []),
])
def test_play_scores(series, mode, expected) -> None:
    assert kinds(series, mode) == expected


def test_errors() -> None:
    with pytest.raises(ValueError):
        score_play([])
    with pytest.raises(ValueError, match="passes 31"):
        score_play(parse_cards("TH TD TS 2C"))


@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=8, unique=True))
def test_ordered_runs_are_also_unordered_runs(cards) -> None:
    while sum(c.pip for c in cards) > 31:
        cards = cards[1:]
    if not cards:
        return
    ordered = [s for s in score_play(cards, O) if s.kind is PlayKind.RUN]
    unordered = [s for s in score_play(cards, U) if s.kind is PlayKind.RUN]
    assert sum(s.points for s in ordered) <= sum(s.points for s in unordered)


def test_play_points_keeps_its_first_series_and_evicts_nothing(monkeypatch) -> None:
    """The computer's memo of play points is filled once and never churns
    (an evicting cache made the soak's memory creep)."""
    from itertools import product

    from engine import scoring

    memo: dict = {}
    monkeypatch.setattr(scoring, "_PLAY_MEMO", memo)
    monkeypatch.setattr(scoring, "PLAY_MEMO", 100)
    series = [tuple(s) for s in product(range(1, 6), repeat=3)]  # 125 series of three low cards
    for ranks in series:
        assert scoring.play_points(ranks, RunMode.UNORDERED) == sum(
            s.points for s in score_play([Card(r, Suit.CLUBS) for r in ranks], RunMode.UNORDERED))
    assert len(memo) == 100 and (series[0], RunMode.UNORDERED) in memo
    assert scoring.play_points((5, 5, 5), RunMode.UNORDERED) == 8  # fifteen and a pair royal: computed, not kept
    assert ((5, 5, 5), RunMode.UNORDERED) not in memo
