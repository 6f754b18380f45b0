"""Game reviews as the door works them out: where the
computer thinks, one at a time, and the last few kept.

A review is about 20 ms of search a card played, 0.5-1 s a game.  In a
worker process the computer's moves queue behind it, so reviews take
turns rather than fill the queue (a caller with many connections asking
for reviews at once delays every computer by at most one review), and a
game reviewed again (the same caller coming back to it, or pressing its
number over and over) is not searched again: a review is the same each
time (its searches are seeded by the game).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from door.play.thinking import Thinking
from engine.game_review import GameReview

__all__ = ["GameReviews", "KEPT"]

KEPT = 64
"""Reviews kept, the most recently asked for (a few KiB each)."""


class GameReviews:
    """The reviews of one server's recorded games, worked out by
    ``thinking`` (:meth:`Thinking.run`)."""

    def __init__(self, thinking: Thinking) -> None:
        self.thinking = thinking
        self._kept: OrderedDict[tuple[int, int], GameReview] = OrderedDict()
        self._turn = asyncio.Lock()

    async def review(self, game_id: int, seat: int, call: Callable[[], GameReview]) -> GameReview:
        """The review of recorded game ``game_id`` for ``seat``: kept, or
        ``call()`` (picklable) worked out once another review is done.
        Raises what ``call`` raises (nothing is kept then)."""
        key = (game_id, seat)
        if key not in self._kept:
            async with self._turn:
                if key not in self._kept:  # (another caller may have asked for it meanwhile)
                    self._kept[key] = await self.thinking.run(call)
                    if len(self._kept) > KEPT:
                        self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return self._kept[key]
