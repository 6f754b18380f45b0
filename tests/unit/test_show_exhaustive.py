"""Score all 12,994,800 (four-card hand, starter) combinations with the
door's own scorer and compare with the published distribution."""

from itertools import combinations

import pytest

from engine.cards import FULL_DECK
from engine.scoring import show_points

# The published distribution of hand scores over all 52C4 * 48 combinations.
HAND_DISTRIBUTION = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


def distribution(is_crib: bool) -> dict[int, int]:
    counts = [0] * 30
    for hand in combinations(FULL_DECK, 4):
        for starter in FULL_DECK:
            if starter not in hand:
                counts[show_points(hand, starter, is_crib)] += 1
    return dict(enumerate(counts))


@pytest.mark.slow
def test_every_hand_matches_published_distribution() -> None:
    got = distribution(False)
    assert sum(got.values()) == 12_994_800
    diff = {k: (got[k], HAND_DISTRIBUTION[k]) for k in got if got[k] != HAND_DISTRIBUTION[k]}
    assert not diff, f"score: (ours, published) {diff}"
    mean = sum(k * n for k, n in got.items()) / 12_994_800
    assert round(mean, 6) == 4.769152


@pytest.mark.slow
def test_every_crib() -> None:
    got = distribution(True)
    assert got[0] == 1_022_208
    assert got[29] == 4 and got[28] == 76
    assert got[19] == got[25] == got[26] == got[27] == 0
    # The crib loses only four-card flushes: the hands that score 4 less.
    hand = HAND_DISTRIBUTION
    assert sum(got.values()) == 12_994_800
    assert sum(k * n for k, n in got.items()) < sum(k * n for k, n in hand.items())
