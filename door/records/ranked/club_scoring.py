"""A club night's arithmetic, pure: the American Cribbage
Congress's scoring, the standings, and Swiss pairings.

ACC club play: each round is one game; a win is worth 2 points, a win by a
skunk (or a double skunk) 3, a loss 0; the standings go by points, then
games won, then spread (the points a player's games were won by, less the
points they were lost by).  Pairings: the first round at random, then
players with similar records meet (highest first, each with the next
player they have not met tonight, by the tournaments' backtracking
matcher, :func:`door.records.ranked.swiss.pair_in_order`, so nobody meets
again while another pairing exists); with an odd number the player left over
plays the computer, whose games count for that player only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from door.records.ranked.swiss import pair_in_order
from door.records.ranked.tournament import game_points

__all__ = ["ClubResult", "Standing", "acc_points", "standings", "swiss_pairs", "COMPUTER"]

COMPUTER = None
"""The opponent of the player left over in an odd round: the computer."""


@dataclass(frozen=True)
class ClubResult:
    """One game of the night: ``round`` (1, 2, ...), the ``players`` (the
    second ``None`` for the computer), the ``winner``'s index (0 or 1),
    the final ``scores`` (points), ``skunk`` (the loser was skunked or
    double skunked) and ``forfeit`` (the loser left)."""

    round: int
    players: tuple[str, str | None]
    winner: int
    scores: tuple[int, int]
    skunk: bool = False
    forfeit: bool = False


@dataclass
class Standing:
    """A player's night so far: ACC ``points``, games ``won`` and
    ``played``, and ``spread`` (points)."""

    name: str
    points: int = 0
    won: int = 0
    played: int = 0
    spread: int = 0

    def line(self, place: int) -> str:
        """``" 1  Ann                     7 pts   3-0   +41"``."""
        return (f"{place:>2}  {self.name[:22]:<22} {self.points:>3} pts   {self.won}-{self.played - self.won}   "
                f"{self.spread:+d}")


def acc_points(result: ClubResult) -> tuple[int, int]:
    """ACC points of each seat for ``result``: 2 a win, 3 a skunk, 0 a
    loss (a forfeit is a plain win)."""
    win = game_points(True, result.skunk and not result.forfeit)
    return (win, 0) if result.winner == 0 else (0, win)


def standings(names: Sequence[str], results: Sequence[ClubResult]) -> list[Standing]:
    """The standings of ``names`` after ``results``, best first: by
    points, then games won, then spread, then name."""
    table = {name: Standing(name) for name in names}
    for r in results:
        points = acc_points(r)
        margin = abs(r.scores[0] - r.scores[1])
        for seat, name in enumerate(r.players):
            if name is None or name not in table:
                continue
            s = table[name]
            s.points += points[seat]
            s.played += 1
            if r.winner == seat:
                s.won += 1
                s.spread += margin
            else:
                s.spread -= margin
    return sorted(table.values(), key=lambda s: (-s.points, -s.won, -s.spread, s.name))


def swiss_pairs(names: Sequence[str], results: Sequence[ClubResult], rng: random.Random) -> list[tuple[str, str | None]]:
    """The next round's pairings of ``names``: at random before any
    result, else by the standings, each player with the nearest one below
    them that they have not met (a rematch only when no pairing of the
    night's players avoids one, as few as can be); an odd player out meets the computer (``None``), never twice when
    another can."""
    met = Counter(frozenset((a, b)) for a, b in (r.players for r in results) if b is not None)
    if not results:
        order = list(names)
        rng.shuffle(order)
    else:
        order = [s.name for s in standings(names, results)]
    computer: list[tuple[str, str | None]] = []
    if len(order) % 2:  # the computer meets the lowest player who has not met it yet
        had_computer = {n for r in results for n in r.players if n is not None and None in r.players}
        out = next((n for n in reversed(order) if n not in had_computer), order[-1])
        order.remove(out)
        computer.append((out, COMPUTER))
    pairs: list[tuple[str, str | None]] = list(pair_in_order(order, met) or [])
    return pairs + computer
