"""Adjudication of a manual count in the show (DESIGN.md, the original door, as in Cribbage Partner).

Let ``actual`` be the true points of the hand and ``claim`` what the player
entered:

- ``claim == actual``: the claimer pegs ``actual``.
- ``claim < actual``: the claimer pegs ``claim``; with muggins on, the
  opponent pegs the difference ("Muggins!").
- ``claim > actual`` with overclaim *forfeit* (as in the original door): the claimer pegs 0
  and the opponent pegs ``actual``; with overclaim *capped* (Cribbage
  Partner): the claimer pegs ``actual``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .rules import Overclaim, Rules

__all__ = ["ClaimOutcome", "Verdict", "adjudicate"]


class Verdict(enum.Enum):
    """How a claim compared with the true count."""

    EXACT = "exact"
    UNDER = "under"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class ClaimOutcome:
    """The points a claim earns: ``claimer`` and ``opponent`` (muggins), in
    points, with the ``verdict``."""

    verdict: Verdict
    claimer: int
    opponent: int


def adjudicate(actual: int, claim: int, rules: Rules) -> ClaimOutcome:
    """Apply the claim rules of ``rules`` to a ``claim`` of a hand worth
    ``actual`` points.  Raises ``ValueError`` for a negative claim or count.

    >>> adjudicate(12, 10, Rules())
    ClaimOutcome(verdict=<Verdict.UNDER: 'under'>, claimer=10, opponent=2)
    >>> adjudicate(12, 14, Rules())
    ClaimOutcome(verdict=<Verdict.OVER: 'over'>, claimer=0, opponent=12)
    """
    if actual < 0 or claim < 0:
        raise ValueError(f"counts are never negative: actual={actual!r} claim={claim!r}")
    if claim == actual:
        return ClaimOutcome(Verdict.EXACT, actual, 0)
    if claim < actual:
        return ClaimOutcome(Verdict.UNDER, claim, actual - claim if rules.muggins else 0)
    if rules.overclaim is Overclaim.FORFEIT:
        return ClaimOutcome(Verdict.OVER, 0, actual)
    return ClaimOutcome(Verdict.OVER, actual, 0)
