"""Game reviews as the door works them out (door/play/reviews.py): one at
a time, and a game reviewed again is not searched again."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from door.play import reviews as reviews_module
from door.play.reviews import GameReviews
from door.play.thinking import Thinking
from engine.game_review import GameReview


class Search:
    """A stand-in review call that counts its runs and how many run at once."""

    def __init__(self) -> None:
        self.runs = 0
        self.at_once = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def __call__(self) -> GameReview:
        with self._lock:
            self.runs += 1
            self.at_once += 1
            self.most_at_once = max(self.most_at_once, self.at_once)
        time.sleep(0.05)
        with self._lock:
            self.at_once -= 1
        return GameReview(0)


async def test_reviews_take_turns_and_one_asked_for_again_is_kept() -> None:
    reviews = GameReviews(Thinking(0))
    search = Search()
    # a caller on many connections asking for the same review, and another game's
    first = await asyncio.gather(*(reviews.review(7, 0, search) for _ in range(5)), reviews.review(8, 0, search))
    assert search.runs == 2 and search.most_at_once == 1
    assert all(r is first[0] for r in first[:5])
    assert await reviews.review(7, 0, search) is first[0] and search.runs == 2
    await reviews.review(7, 1, search)  # the other seat's review is its own
    assert search.runs == 3


async def test_only_the_last_reviews_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews_module, "KEPT", 2)
    reviews = GameReviews(Thinking(0))
    search = Search()
    for game in (1, 2, 1, 3):  # 1 asked for again: 2 is the oldest when 3 comes
        await reviews.review(game, 0, search)
    assert search.runs == 3
    await reviews.review(1, 0, search)
    assert search.runs == 3
    await reviews.review(2, 0, search)
    assert search.runs == 4


async def test_a_review_that_fails_is_not_kept() -> None:
    reviews = GameReviews(Thinking(0))

    def broken() -> GameReview:
        raise ValueError("moves that do not replay")

    with pytest.raises(ValueError):
        await reviews.review(9, 0, broken)
    search = Search()
    await reviews.review(9, 0, search)
    assert search.runs == 1
