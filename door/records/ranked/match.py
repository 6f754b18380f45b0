"""Matches between people: best of 1, 3 or 5 games, rated or
not, and what a table reports when one ends.

A table with :class:`MatchTerms` plays games until a player has won more
than half of them (a skunk is still one game won), without asking "play
again?" between them; the loser of a game deals first in the next (as in
Black Dog Cribbage: :class:`engine.match.Match`).  Then both are asked for a rematch,
which keeps the terms and swaps the first deal.  Leaving a match on purpose
forfeits it; in a rated match so does a line that stays dropped past the
grace (``[ranked] grace``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.rules import Counting, Rules

__all__ = ["MatchTerms", "MatchResult", "MatchEntry", "BEST_OF", "ranked_rules"]

BEST_OF = (1, 3, 5)
"""The lengths a match may have, in games."""


@dataclass(frozen=True)
class MatchTerms:
    """``best_of`` games (1, 3 or 5), ``rated`` (Glicko-2, between two
    registered callers).  Raises ``ValueError`` for another length."""

    best_of: int = 3
    rated: bool = False

    def __post_init__(self) -> None:
        if self.best_of not in BEST_OF:
            raise ValueError(f"a match is best of 1, 3 or 5 games, got {self.best_of!r}")

    @property
    def needed(self) -> int:
        """Games a player must win to take the match."""
        return self.best_of // 2 + 1

    def words(self) -> str:
        """``"a rated best-of-3 match"``, ``"one game"``."""
        if self.best_of == 1:
            return "one rated game" if self.rated else "one game"
        return f"a {'rated ' if self.rated else ''}best-of-{self.best_of} match"

    def score_words(self, wins: tuple[int, int]) -> str:
        """The series score for the title bar: ``"Best of 3: 1-0"``."""
        return f"{'Rated ' if self.rated else ''}best of {self.best_of}: {wins[0]}-{wins[1]}".capitalize()


def ranked_rules(rules: Rules) -> Rules:
    """The house's ranked rules over ``rules``: the door counts every hand
    (a rated match measures cribbage, not arithmetic); hints are off too,
    which the table is told apart."""
    return dataclasses.replace(rules, counting=Counting.AUTOMATIC)


@dataclass(frozen=True)
class MatchResult:
    """A match that ended: its ``terms``, the games each seat won
    (``wins``), the ``winner``'s seat, and ``forfeit`` when the loser left
    it (or stayed away past the grace); ``aborted`` when a player left it
    before its first deal (nobody wins it, and it is never rated), by the
    seat ``leaver``; ``hands``: the hands dealt in it; ``void`` when the
    door's own failure ended it (kept as aborted by nobody: never rated,
    nobody charged)."""

    terms: MatchTerms
    wins: tuple[int, int]
    winner: int
    forfeit: bool = False
    aborted: bool = False
    leaver: int | None = None
    hands: int = 0
    void: bool = False

    def words(self, names: tuple[str, str]) -> str:
        """The result in a sentence: ``"Ann wins the match 2-1 (a rated
        best-of-3 match)."``, ``"Ann wins the match by forfeit (0-0 in
        games; a rated best-of-3 match)."``, ``"Bob aborted the match
        before its first deal: it is not rated."``."""
        if self.void:
            return "The door failed during the match: it is void, and not rated."
        if self.aborted:
            who = names[self.leaver] if self.leaver is not None else "A player"
            return f"{who} left the match before its first deal: it is aborted, and not rated."
        score = f"{max(self.wins)}-{min(self.wins)}"
        if self.forfeit:
            return f"{names[self.winner]} wins the match by forfeit ({score} in games; {self.terms.words()})."
        return f"{names[self.winner]} wins the match {score} ({self.terms.words()})."


@dataclass(frozen=True)
class MatchEntry:
    """What keeping a match between callers needs beyond its result:
    both players' ``networks`` as they played (empty for a shared line;
    the fair-play checks read them), ``unrated_why``, why a match
    offered rated is played unrated (a sentence, or empty), and ``via``."""

    networks: tuple[str, str] = ("", "")
    unrated_why: str = ""
    via: tuple[str, str] = ("", "")
    """How each side played: the transport (``telnet``, ``ssh``, ``web``,
    ``api`` for the game protocol, ...)."""
