"""The games a table has played and the match it is playing: games
credited, games won in the current match, the score for the title bar,
what leaving costs, and the match's result when it ends."""

from __future__ import annotations

from door.records.ranked.match import MatchResult, MatchTerms
from engine.game import Game
from engine.match import Match
from engine.rules import Rules

__all__ = ["Series"]


def _opening_dealer(game: Game) -> int:
    """Who dealt hand 1 of ``game`` (the dealer alternates; a hand played
    over is dealt by its own dealer)."""
    return game.dealer if game.hand_number % 2 == 1 else 1 - game.dealer


class Series:
    """A table's games under ``rules``, and the match they make under
    ``terms`` (best of N, rated or not; ``None``: games until a player
    declines another)."""

    def __init__(self, rules: Rules, terms: MatchTerms | None) -> None:
        self.match = Match(rules)
        """Every game played at the table (:class:`engine.match.Match`: the loser of one deals first in the next)."""
        self.terms = terms
        self.start = 0
        """Where the current match begins in ``match.games`` (a rematch starts a new one)."""
        self.offset = (0, 0)
        """Games credited to each seat before the table began (a resumed game's, without terms)."""
        self.won_before = (0, 0)
        """Games each seat won in the current match before the table began (a
        match of best of N resumed from the store: its earlier games were
        played at tables before this one)."""
        self.dealt = False
        """A hand of the current match has been dealt (shown): leaving before that aborts a match, after it
        forfeits it."""
        self.result: MatchResult | None = None
        """The last match that ended (with terms)."""
        self.stakes: dict[int, str] = {}
        """What losing a rated match does to each seat's rating ("your rating 1500 -> 1338"), said before a
        player leaves it."""
        self.news: dict[int, list[str]] = {0: [], 1: []}
        """What each seat was told when its matches ended (the ratings): shown on a page that waits for a key
        when the player leaves the table."""

    @property
    def rated(self) -> bool:
        """True for a rated match."""
        return self.terms is not None and self.terms.rated

    def points(self) -> tuple[int, int]:
        """Games credited to each seat so far (skunks count double)."""
        p = self.match.points
        return (p[0] + self.offset[0], p[1] + self.offset[1])

    def games(self) -> list[Game]:
        """The games of the current match, in order."""
        return self.match.games[self.start:]

    def wins(self) -> tuple[int, int]:
        """Games each seat won in the current match (a skunk is one game)."""
        wins = [self.won_before[0], self.won_before[1]]
        for g in self.games():
            if g.result is not None:
                wins[g.result.winner] += 1
        return (wins[0], wins[1])

    def carried(self) -> tuple[int, int]:
        """What a new game's log keeps of the match so far, to go on from
        it at another table: in a match with terms, the games each seat won
        (:meth:`wins`); otherwise the games credited (:meth:`points`)."""
        return self.wins() if self.terms is not None else self.points()

    def resumed(self, kept: tuple[int, int]) -> None:
        """The table goes on with a kept game whose log kept ``kept`` of
        its match (:meth:`carried`)."""
        if self.terms is not None:
            self.won_before = kept
        else:
            self.offset = kept

    def score_words(self) -> str:
        """The series score for the title bar: ``"Best of 3: 1-0"`` in a
        match, ``"Games 0-2"`` (games credited, skunks double) otherwise."""
        if self.terms is not None and (self.terms.best_of > 1 or self.terms.rated):
            return self.terms.score_words(self.wins())
        points = self.points()
        return f"Games {points[0]}-{points[1]}"

    def leave_question(self, seat: int, against_computer: bool) -> str:
        """What ``seat`` is asked before leaving on purpose: in a rated
        match what it costs ("Leave this rated match? You forfeit it: your
        rating 1500 -> 1338. (Y/N)"), or that it is aborted before its
        first deal; ``against_computer``: the seat plays the computer (a
        game kept to resume)."""
        if self.terms is None or against_computer or (self.terms.best_of == 1 and not self.rated):
            return "Leave this game? (Y/N)"
        what = "rated match" if self.rated else "match"
        if self.rated and not self.dealt:
            return "Leave this rated match? It has not begun: it is aborted, and not rated. (Y/N)"
        stake = self.stakes.get(seat)
        return f"Leave this {what}? You forfeit it{f': {stake}' if stake else ''}. (Y/N)"

    def again_question(self) -> str:
        """What the players are asked after a game (a match: a rematch)."""
        return "Rematch?" if self.terms is not None else "Play again?"

    def over(self, winner: int, forfeit: bool = False, aborted: bool = False, void: bool = False) -> MatchResult:
        """The current match ended, won by seat ``winner`` (by ``forfeit``,
        or ``aborted`` by the other before its first deal), or ``void``
        (the door failed: kept as aborted by nobody, never rated): its
        result, kept as :attr:`result`.  Raises ``ValueError`` without terms."""
        if self.terms is None:
            raise ValueError("a table without terms plays no match")
        hands = sum(g.hand_number for g in self.games())
        if void:
            self.result = MatchResult(self.terms, self.wins(), winner, aborted=True, hands=hands, void=True)
            return self.result
        self.result = MatchResult(self.terms, self.wins(), winner, forfeit, aborted,
                                  1 - winner if forfeit or aborted else None, hands)
        return self.result

    def rematch(self, dealt: bool) -> int:
        """A new match begins (``dealt``: its hands are dealt without chat
        mode, so it has begun); returns who deals its first hand (a rematch
        swaps the first deal)."""
        first = _opening_dealer(self.match.games[self.start])
        self.start = len(self.match.games)
        self.won_before = (0, 0)
        self.dealt = dealt
        return 1 - first
