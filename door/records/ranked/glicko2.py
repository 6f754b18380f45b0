"""Glicko-2 ratings, from Glickman's paper: Mark E. Glickman,
"Example of the Glicko-2 system" (Boston University, 2013), steps 1-8.

Pure arithmetic on plain values: :class:`Rating` (rating and RD in the
familiar Glicko scale, points; volatility on the Glicko-2 scale) and
:func:`rate`, one rating period.  The door makes each rated match its
own rating period, for each player against the other's rating before the
match (:func:`rate_match`).

No maintained Python library was found to take instead: those on PyPI are
abandoned (``glicko2`` 0.0.x, the 2009 ``pyglicko2``) or a first 0.1
release; the paper's steps are short, and the worked example is the test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "SCALE", "TAU", "rate", "rate_match", "provisional"]

SCALE = 173.7178
"""Glicko points per Glicko-2 unit (step 2 of the paper)."""

TAU = 0.5
"""The system constant tau: how fast volatility may change (the paper's
example uses 0.5; Glickman suggests 0.3 to 1.2)."""

EPSILON = 0.000001
"""Convergence tolerance of the volatility iteration (step 5)."""


@dataclass(frozen=True)
class Rating:
    """A player's ``rating`` and ``rd`` (rating deviation), in Glicko points
    (a new player: 1500 and 350), and ``volatility`` (0.06 to start)."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which they scored
    ``results``: (opponent's rating at the period's start, score: 1 a win,
    0.5 a draw, 0 a loss) each.  No results: only the RD grows (step 6).
    Raises ``ValueError`` for a score outside 0..1."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.volatility
    if not results:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    total_v, total_d = 0.0, 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, got {score!r}")
        mu_j, phi_j = (opponent.rating - 1500.0) / SCALE, opponent.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        total_v += g * g * e * (1.0 - e)
        total_d += g * (score - e)
    v = 1.0 / total_v
    delta = v * total_d
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total_d
    return Rating(SCALE * new_mu + 1500.0, SCALE * new_phi, new_sigma)


def rate_match(first: Rating, second: Rating, first_won: bool, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after a rated match (its own rating period):
    each against the other's rating before it."""
    return (rate(first, [(second, 1.0 if first_won else 0.0)], tau),
            rate(second, [(first, 0.0 if first_won else 1.0)], tau))


def provisional(rating: Rating, matches: int) -> bool:
    """True while a rating is provisional: fewer than 5 rated matches, or an
    RD of 100 points or more."""
    return matches < 5 or rating.rd >= 100.0
