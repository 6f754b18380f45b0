"""Matches between callers and their ratings: a rated best of 3 played to
the end moves both ratings by Glicko-2's amounts; a line that stays
dropped past the grace forfeits the match (once a hand was dealt)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from door.config import Config
from door.records.ranked.glicko2 import Rating, rate_match
from tests.loopback.test_callers import PASSWORD, both_in_chat, challenge
from tests.support.player import Player, TelnetCaller, log_in_registered
from tests.support.server import make_config, running


def ranked_config(data: Path, game_to: int = 61) -> Config:
    """A door whose rated play needs no games nor a day's age (the tests'
    accounts are new); callers from different loopback addresses are on
    different networks only when they differ in the first three parts,
    so each test calls from 127.0.N.1 addresses."""
    config = make_config(data, game_to=game_to)
    config.ranked.min_games = 0
    config.ranked.min_age_days = 0
    return config


async def caller_from(door, name: str, network: int, until: str = "Main menu") -> TelnetCaller:  # type: ignore[no-untyped-def]
    """``name`` (registered) logged in from 127.0.``network``.1: another network for each number."""
    return await log_in_registered(door.telnet_port, door.store, name, PASSWORD, until, source=f"127.0.{network}.1")


async def first_deal(*callers: TelnetCaller) -> None:
    """Both in chat mode before the first hand: the dealer deals it (RETURN on a blank line)."""
    await both_in_chat(*callers)
    dealer = next(c for c in callers if "blank line deals" in c.screen.prompt())
    await dealer.send(b"\r")
    for c in callers:
        await c.screen.wait_for(lambda c=c: "Choose 2 cards" in c.screen.prompt()
                                or "to lay away" in c.screen.prompt())


@pytest.mark.slow
async def test_a_rated_best_of_three_moves_both_ratings_by_glicko2(tmp_path: Path) -> None:
    async with running(ranked_config(tmp_path / "data")) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
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
    config = ranked_config(tmp_path / "data")
    config.paging.ranked_grace = 1.0
    async with running(config) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
        await challenge(ann, "Bob", length=b"R")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await first_deal(ann, bob)
        bob.close()
        await ann.screen.wait_for(lambda: "Bob's line dropped" in ann.screen.text())
        # the rating's change on a page of its own, which waits for a key
        await ann.screen.wait_for(lambda: "Rated match" in ann.screen.text() and "any key" in ann.screen.text(),
                                  timeout=10)
        page = re.sub(r"\s+", " ", ann.screen.text())
        assert "Ann wins the match by forfeit (0-0 in games; a rated best-of-3 match)." in page, page
        assert "Ann's rating: 1500 -> " in page
        await ann.send(b" ")
        await ann.screen.wait_for(lambda: "Main menu" in ann.screen.text())
        ratings = {n: await door.store.ratings.of((await door.store.accounts.find(n)).id) for n in ("Ann", "Bob")}
        expected = rate_match(Rating(), Rating(), True)
        assert abs(ratings["Ann"].rating.rating - expected[0].rating) < 0.01
        assert abs(ratings["Bob"].rating.rating - expected[1].rating) < 0.01
        games = await door.store.games.recent()
        assert len(games) == 1 and games[0].forfeit and games[0].players[games[0].winner] == "Ann"
        ann.close()
