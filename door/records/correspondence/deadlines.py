"""The deadline of a correspondence move, pure arithmetic on seconds since
the epoch (UTC).

A move made at ``now`` with ``days`` per move must be answered within
``days`` counted days: ``days * 86400`` seconds of counted time.  Time is
not counted while the player is away (their vacation intervals, half-open
``[start, end)``) nor, when weekends do not count, on a Saturday or a
Sunday (UTC days).  So a deadline is never before ``now + days`` days,
and a vacation only moves it later.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["DAY", "Interval", "deadline", "counted", "seconds_left", "left_words", "merge"]

DAY = 86400.0
"""Seconds in a day."""

Interval = tuple[float, float]
"""A span of time ``(start, end)``, seconds since the epoch, ``start`` included and ``end`` not."""

_SATURDAY = 5
"""``(days since the epoch + 3) % 7`` of a Saturday (1970-01-01 was a Thursday: 3 with Monday 0)."""


def _weekend(t: float) -> bool:
    """Whether the UTC day holding ``t`` is a Saturday or a Sunday."""
    return (math.floor(t / DAY) + 3) % 7 >= _SATURDAY


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """``intervals`` sorted, the empty ones dropped and the overlapping or
    touching ones joined.

    >>> merge([(5, 9), (0, 2), (2, 3), (8, 12), (4, 4)])
    [(0, 3), (5, 12)]
    """
    out: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _walk(start: float, weekends: bool, away: Sequence[Interval]) -> Iterable[tuple[float, float, bool]]:
    """The time from ``start`` on as pieces ``(from, to, counted)``, cut at
    each UTC midnight and each end of an interval of ``away`` (merged)."""
    t = start
    while True:
        cut = (math.floor(t / DAY) + 1) * DAY
        inside = False
        for a, b in away:
            if a <= t < b:
                inside, cut = True, min(cut, b)
                break
            if a > t:
                cut = min(cut, a)
                break
        yield t, cut, not inside and (weekends or not _weekend(t))
        t = cut


def deadline(now: float, days: float, weekends: bool = True, away: Iterable[Interval] = ()) -> float:
    """When a move made at ``now`` must be answered: after ``days`` days of
    counted time, not counting the intervals ``away`` (the player's
    vacations) nor, unless ``weekends``, Saturdays and Sundays (UTC).
    Raises ``ValueError`` for ``days`` not above 0, or an interval with
    no end (an infinite or NaN time).

    >>> deadline(0.0, 2)  # Thursday 1970-01-01 00:00 + 2 days
    172800.0
    >>> deadline(0.0, 2, weekends=False) / DAY  # Thursday and Friday count
    2.0
    >>> deadline(DAY, 2, weekends=False) / DAY  # Friday, then Monday
    5.0
    >>> deadline(0.0, 1, away=[(3600.0, 7200.0)]) - DAY  # an hour away
    3600.0
    """
    if not days > 0 or not math.isfinite(days) or not math.isfinite(now):
        raise ValueError(f"a move's days are a number above 0 and its time finite, got {days!r} at {now!r}")
    spans = merge(away)
    if any(not (math.isfinite(a) and math.isfinite(b)) for a, b in spans):
        raise ValueError("a vacation has a start and an end")
    need = days * DAY
    for start, end, counts in _walk(now, weekends, spans):
        if counts:
            if end - start >= need:
                return start + need
            need -= end - start
    raise AssertionError("unreachable")  # (the walk goes on for ever)


def counted(start: float, end: float, weekends: bool = True, away: Iterable[Interval] = ()) -> float:
    """Seconds of counted time in ``[start, end)`` (as :func:`deadline` counts them); 0 when ``end <= start``."""
    total = 0.0
    if end <= start:
        return total
    for a, b, counts in _walk(start, weekends, merge(away)):
        if a >= end:
            break
        if counts:
            total += min(b, end) - a
    return total


def seconds_left(deadline_at: float, now: float) -> float:
    """Seconds from ``now`` to ``deadline_at``, 0 once it has passed."""
    return max(0.0, deadline_at - now)


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def left_words(seconds: float) -> str:
    """Time left in words, rounded down so a player is never told more
    than there is: ``"2 days"``, ``"1 day 5 hours"``, ``"5 hours"``,
    ``"1 hour 20 minutes"``, ``"3 minutes"``, ``"less than a minute"``,
    ``"no time"``.

    >>> [left_words(s) for s in (3 * DAY - 1, DAY + 5 * 3600, 5 * 3600 + 59, 4800, 61, 30, 0)]
    ['2 days', '1 day 5 hours', '5 hours', '1 hour 20 minutes', '1 minute', 'less than a minute', 'no time']
    """
    if not seconds > 0:
        return "no time"
    whole = int(min(seconds, 1e12))
    days, hours, minutes = whole // 86400, whole % 86400 // 3600, whole % 3600 // 60
    if days >= 2:
        return _plural(days, "day")
    if days == 1:
        return "1 day" + (f" {_plural(hours, 'hour')}" if hours else "")
    if hours >= 2:
        return _plural(hours, "hour")
    if hours == 1:
        return "1 hour" + (f" {_plural(minutes, 'minute')}" if minutes else "")
    if minutes:
        return _plural(minutes, "minute")
    return "less than a minute"
