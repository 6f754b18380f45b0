"""What the computer plays for: the worth of a won game by how the loser
finished, which is the table's scoring.

- :data:`WIN_CHANCE`: every win the same (a match counted in games won,
  as the door's best-of-3 and best-of-5 are): the computer maximises its
  chance to win the game.
- :data:`MATCH_POINTS`: 1 a win, 2 a skunk, 3 a double skunk (the games
  credited by the house rules' defaults, as in Black Dog Cribbage; also the public
  benchmark's scoring in ``bench.strength``).
- :data:`ACC_POINTS`: the American Cribbage Congress's game points, 2 a
  win and 3 a skunk (a double skunk is a skunk), as a club night scores
  (:mod:`door.records.ranked.club_scoring`).

A game's value to a player is the winner's worth taken from the loser:
plus when they win, minus when they lose (a club night's standings go by
points and then spread, so a skunk taken costs as a skunk given gains).
Values are in plain wins (:meth:`Objective.worth` divides by ``win``), so
the unit is the same for every objective: a signed win chance for
:data:`WIN_CHANCE`.  The standard skunk lines (91 and 61 in a 121-point
game, 31 and 16 in a 61-point one) are used; pure: no I/O.
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Rules

__all__ = ["Objective", "WIN_CHANCE", "MATCH_POINTS", "ACC_POINTS", "skunk_lines", "objective_of", "rules_objective"]


def skunk_lines(game_to: int) -> tuple[int, int]:
    """The standard skunk and double skunk lines (points) for ``game_to``."""
    return (91, 61) if game_to == 121 else (31, 16)


class Objective(NamedTuple):
    """The worth of a win, of a skunk and of a double skunk (any unit: the
    values are taken relative to ``win``), and the objective's short
    ``name`` (``"win"``, ``"match"``, ``"acc"``, or the three numbers)."""

    win: float
    skunk: float
    double_skunk: float
    name: str

    def worth(self, loser: int, game_to: int) -> float:
        """What winning against a loser with ``loser`` points is worth, in
        plain wins (1.0 for a plain win)."""
        skunk, double = skunk_lines(game_to)
        value = self.double_skunk if loser < double else self.skunk if loser < skunk else self.win
        return value / self.win


WIN_CHANCE = Objective(1, 1, 1, "win")
"""Every win alike: the chance to win the game."""

MATCH_POINTS = Objective(1, 2, 3, "match")
"""1 a win, 2 a skunk, 3 a double skunk."""

ACC_POINTS = Objective(2, 3, 3, "acc")
"""The ACC's game points: 2 a win, 3 a skunk."""

_KNOWN = {(o.win, o.skunk, o.double_skunk): o for o in (WIN_CHANCE, MATCH_POINTS, ACC_POINTS)}


def objective_of(win: float, skunk: float, double_skunk: float) -> Objective:
    """The objective whose worths are these (a named one when they are in
    the same ratio as one of the three named); raises ``ValueError`` unless
    ``0 < win <= skunk <= double_skunk``."""
    if not 0 < win <= skunk <= double_skunk:
        raise ValueError(f"worths must satisfy 0 < win <= skunk <= double skunk, got {win}, {skunk}, {double_skunk}")
    for (w, s, d), known in _KNOWN.items():
        if skunk * w == s * win and double_skunk * w == d * win:
            return known
    return Objective(win, skunk, double_skunk, f"{win:g}/{skunk:g}/{double_skunk:g}")


def rules_objective(rules: Rules) -> Objective:
    """What a game under ``rules`` is worth: the games it credits (its
    ``win_value``, ``skunk_value`` and ``double_skunk_value``)."""
    return objective_of(rules.win_value, rules.skunk_value, rules.double_skunk_value)
