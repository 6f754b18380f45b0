"""A match: a series of games between the same two seats."""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Game, other
from .rules import Rules
from .shuffle import SeededShuffle

__all__ = ["Match"]


@dataclass
class Match:
    """A series of games between the same two seats (as in Black Dog Cribbage): the first
    game's dealer follows ``rules.first_deal``, and the loser of each game deals
    first in the next."""

    rules: Rules
    games: list[Game] = field(default_factory=list)

    @property
    def points(self) -> tuple[int, int]:
        """Games credited per seat over the finished games (1 a win, 2 a
        skunk, 3 a double skunk by default)."""
        pts = [0, 0]
        for g in self.games:
            if g.result is not None:
                pts[g.result.winner] += g.result.value
        return (pts[0], pts[1])

    def new_game(self, number: int, shuffle: SeededShuffle | None = None, first_dealer: int | None = None) -> Game:
        """Add the next game, with game ``number`` (and its seeds,
        ``shuffle``, when it has them), and return it unstarted; its first
        dealer is ``first_dealer`` when given (a rematch swaps the first
        deal), else the loser of the last game.
        Raises ``RuntimeError`` while the current game is not over."""
        if self.games and not self.games[-1].over:
            raise RuntimeError("the current game is not over")
        first = first_dealer
        if self.games and first is None:
            result = self.games[-1].result
            assert result is not None
            first = other(result.winner)
        game = Game(self.rules, number, first, shuffle=shuffle)
        self.games.append(game)
        return game
