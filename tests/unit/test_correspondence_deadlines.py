"""The deadline arithmetic of correspondence play
(door/records/correspondence/deadlines.py): counted days, weekends that do
not count, vacations that only move a deadline later, and time left in
words.  Properties by Hypothesis."""

from __future__ import annotations

import calendar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.records.correspondence.deadlines import DAY, counted, deadline, left_words, seconds_left

MONDAY = float(calendar.timegm((2026, 11, 30, 0, 0, 0)))
"""Monday 2026-11-30 00:00 UTC."""

times = st.floats(min_value=1.7e9, max_value=1.9e9, allow_nan=False)
days = st.sampled_from([1, 2, 3, 5, 7, 14])
vacations = st.lists(st.tuples(st.floats(min_value=0, max_value=40 * DAY), st.floats(min_value=0, max_value=20 * DAY)),
                     max_size=4)


def _away(now: float, spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(now + offset - 10 * DAY, now + offset - 10 * DAY + length) for offset, length in spans]


@settings(deadline=None)  # (a time limit on a shared machine measures the machine, not the code)
@given(times, days, st.booleans(), vacations)
def test_a_deadline_leaves_exactly_the_days_counted_and_never_less(now: float, d: int, weekends: bool,
                                                                   spans: list[tuple[float, float]]) -> None:
    away = _away(now, spans)
    due = deadline(now, d, weekends, away)
    assert due >= now + d * DAY
    assert counted(now, due, weekends, away) == pytest.approx(d * DAY, abs=1e-3)


@settings(deadline=None)  # (a time limit on a shared machine measures the machine, not the code)
@given(times, days, st.booleans(), vacations)
def test_a_vacation_only_moves_a_deadline_later(now: float, d: int, weekends: bool,
                                                spans: list[tuple[float, float]]) -> None:
    away = _away(now, spans)
    plain = deadline(now, d, weekends)
    assert deadline(now, d, weekends, away) >= plain
    assert deadline(now, d, weekends, away[:-1]) <= deadline(now, d, weekends, away)  # more away: never earlier


@settings(deadline=None)
@given(times, days)
def test_with_weekends_counted_and_nobody_away_it_is_the_plain_sum(now: float, d: int) -> None:
    assert deadline(now, d) == now + d * DAY


def test_a_weekend_does_not_count_when_weekends_are_off() -> None:
    friday_noon = MONDAY + 4 * DAY + 12 * 3600
    assert deadline(friday_noon, 1, weekends=True) == MONDAY + 5 * DAY + 12 * 3600  # Saturday noon
    assert deadline(friday_noon, 1, weekends=False) == MONDAY + 7 * DAY + 12 * 3600  # Monday noon
    saturday = MONDAY + 5 * DAY + 3600
    assert deadline(saturday, 2, weekends=False) == MONDAY + 9 * DAY  # Monday and Tuesday, to Wednesday 00:00


def test_days_away_push_the_deadline_by_the_time_that_overlaps() -> None:
    away = [(MONDAY + DAY, MONDAY + 3 * DAY), (MONDAY + 20 * DAY, MONDAY + 21 * DAY)]  # the second is after it
    assert deadline(MONDAY, 3, away=away) == MONDAY + 5 * DAY
    assert deadline(MONDAY + 2 * DAY, 1, away=away) == MONDAY + 4 * DAY  # made while away: counts from the return


def test_bad_days_are_an_error() -> None:
    with pytest.raises(ValueError, match="above 0"):
        deadline(MONDAY, 0)
    with pytest.raises(ValueError, match="start and an end"):
        deadline(MONDAY, 1, away=[(MONDAY, float("inf"))])


def test_time_left_in_words() -> None:
    assert seconds_left(MONDAY + 10, MONDAY) == 10 and seconds_left(MONDAY, MONDAY + 10) == 0
    assert left_words(5 * 3600) == "5 hours" and left_words(2 * DAY) == "2 days" and left_words(DAY) == "1 day"
    assert left_words(-5) == "no time" and left_words(3600) == "1 hour" and left_words(120) == "2 minutes"
