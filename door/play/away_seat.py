"""The seat of a player who is not at the table: in a game by
correspondence the other player is usually not on line.  The seat holds
their name and who they are, so that the game is kept for them and they
are seated again when they open it; it never acts, and whatever the
table says to it is for nobody."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from door.play.deals import new_seed
from door.records.identity import Identity
from engine.events import Event
from engine.game import Game

__all__ = ["AwaySeat", "away"]


class AwaySeat:
    """``name``'s seat while they are away (``identity``: who they are, so
    that the seat is theirs again when they come)."""

    computer = False

    def __init__(self, name: str, identity: Identity | None) -> None:
        self.name = name
        self.identity = identity
        self.table: Any = None
        self.index = 0
        self._seed = new_seed()

    @property
    def shuffle_seed(self) -> str:
        """A seed drawn for the seat (the away player's own is not known here)."""
        return self._seed

    def attach(self, table: Any, index: int) -> None:
        """Sit at ``table`` as seat ``index``."""
        self.table, self.index = table, index

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """Nobody to tell."""

    def rejected(self, message: str) -> None:
        """Nobody to tell (the seat never acts)."""

    async def play_again(self) -> bool:
        """Never asked at a table by correspondence (its match has terms): no."""
        return False

    def on_chat(self, line: tuple[float, str, str]) -> None:
        """Nobody to tell."""

    def notice(self, text: str) -> None:
        """Nobody to tell."""

    def finish(self) -> None:
        """Nothing to let go."""


def away(seat: object) -> bool:
    """True when ``seat`` is an :class:`AwaySeat` (its player is not at the table)."""
    return isinstance(seat, AwaySeat)
