"""Glicko-2 against Glickman's own worked example, and the
properties a ranking relies on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from door.records.ranked.glicko2 import Rating, provisional, rate, rate_match


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system", section 3: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
                 tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_rd() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.rd == pytest.approx(200.27, abs=0.01) and after.volatility == 0.06


ratings = st.builds(Rating, st.floats(800, 2400), st.floats(30, 350), st.floats(0.03, 0.09))


@given(ratings, ratings)
def test_the_winner_goes_up_the_loser_down_and_both_grow_surer(a: Rating, b: Rating) -> None:
    won, lost = rate_match(a, b, True)
    assert won.rating > a.rating and lost.rating < b.rating
    assert won.rd < (a.rd ** 2 + (173.7178 * won.volatility) ** 2) ** 0.5 + 1e-9
    assert lost.rd < (b.rd ** 2 + (173.7178 * lost.volatility) ** 2) ** 0.5 + 1e-9


def test_a_score_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        rate(Rating(), [(Rating(), 2)])


def test_provisional_until_five_matches_and_rd_below_100() -> None:
    assert provisional(Rating(1600, 80), 4) and provisional(Rating(1600, 100), 9)
    assert not provisional(Rating(1600, 99.9), 5)
