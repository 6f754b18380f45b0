"""Matches between callers and their ratings (issues 36.1, 36.3): a rated
best of 3 played to the end moves both ratings by Glicko-2's amounts; a
line that stays dropped past the grace forfeits the match."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from door.records.glicko2 import Rating, rate_match
from tests.loopback.test_callers import both_in_chat, challenge, registered
from tests.support.player import Player
from tests.support.server import make_config, running


@pytest.mark.slow
async def test_a_rated_best_of_three_moves_both_ratings_by_glicko2(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        await challenge(ann, "Bob", length=b"R")
        await bob.screen.wait_for(lambda: "Ann challenges you to a rated best-of-3 match of 61-point games, runs in "
                                          "any order" in re.sub(r"\s+", " ", bob.screen.text()))
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        for c in (ann, bob):
            assert "Rated best of 3: 0-0" in c.screen.lines()[0]
            assert "auto count" in c.screen.lines()[1] or "automatic" in c.screen.lines()[1], c.screen.lines()[1]
        players = Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob")
        ends = await asyncio.gather(*(p.play(timeout=400) for p in players))
        assert not any(p.counts for p in players)  # ranked rules: the door counted every hand
        games = await door.store.games.recent(oldest_first=True)
        assert 2 <= len(games) <= 3
        won = [sum(g.winner == seat for g in games) for seat in (0, 1)]
        assert max(won) == 2
        ann_won = won[0] == 2
        expected = rate_match(Rating(), Rating(), ann_won)
        for name, want in zip(("Ann", "Bob"), expected):
            account = await door.store.accounts.find(name)
            got = await door.store.ratings.of(account.id)
            assert got is not None and got.matches == 1 and got.provisional
            assert abs(got.rating.rating - want.rating) < 0.01 and abs(got.rating.rd - want.rd) < 0.01
            assert abs(got.rating.volatility - want.volatility) < 1e-6
        winner = "Ann" if ann_won else "Bob"
        for end in ends:
            text = re.sub(r"\s+", " ", end)
            assert f"{winner} wins the match 2-{min(won)} (a rated best-of-3 match)." in text, end
            assert f"Ann's rating: 1500 -> {expected[0].rating:.0f} (RD {expected[0].rd:.0f})." in text, end
            assert "Rematch? (Y/N; S sets your seed)" in end
        ann.close()
        bob.close()


async def test_a_line_dropped_past_the_grace_forfeits_a_rated_match(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data", game_to=61)
    config.paging.ranked_grace = 1.0
    async with running(config) as door:
        ann = await registered(door.telnet_port, door.store, "Ann")
        bob = await registered(door.telnet_port, door.store, "Bob")
        await challenge(ann, "Bob", length=b"R")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        bob.close()
        await ann.screen.wait_for(lambda: "Bob's line dropped" in ann.screen.text())
        await ann.screen.wait_for(lambda: "Main menu" in ann.screen.text(), timeout=10)
        assert "Ann wins the match 0-0 by forfeit (a rated best-of-3 match)." in re.sub(r"\s+", " ",
                                                                                       ann.screen.text())
        ratings = {n: await door.store.ratings.of((await door.store.accounts.find(n)).id) for n in ("Ann", "Bob")}
        expected = rate_match(Rating(), Rating(), True)
        assert abs(ratings["Ann"].rating.rating - expected[0].rating) < 0.01
        assert abs(ratings["Bob"].rating.rating - expected[1].rating) < 0.01
        games = await door.store.games.recent()
        assert len(games) == 1 and games[0].forfeit and games[0].players[games[0].winner] == "Ann"
        ann.close()
