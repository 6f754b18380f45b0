"""Rated play against a cheater with two accounts, as callers meet it:
the forfeit loop from one address is not rated (and says why), a loss is
not dodged by dropping the line and answering N, leaving says what it
costs, a match left before its first deal is aborted (and a caller who
keeps aborting is held back), and a watcher sees the match's score."""

from __future__ import annotations

import re
from pathlib import Path

from door.records.ranked.glicko2 import Rating, rate_match
from tests.loopback.test_callers import challenge
from tests.loopback.test_matches import caller_from, first_deal, ranked_config
from tests.support.player import TelnetCaller, log_in_as_guest, telnet_caller
from tests.support.server import running


def flat(caller: TelnetCaller) -> str:
    return re.sub(r"\s+", " ", caller.screen.text())


async def rated_match(ann: TelnetCaller, bob: TelnetCaller) -> None:
    """Ann challenges Bob to a rated best of 3; Bob accepts."""
    await challenge(ann, "Bob", length=b"R")
    await bob.screen.wait_for(lambda: "Ann challenges you to a rated" in flat(bob))
    await bob.send(b"y")


async def test_two_accounts_on_one_network_play_unrated_and_are_told_why(tmp_path: Path) -> None:
    """The farm: one person, two accounts, one address.  R is not offered
    (the screen says why), so a quick forfeit moves no rating."""
    async with running(ranked_config(tmp_path / "data")) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 1)
        s = ann.screen
        await s.wait_for(lambda: "8  Play another caller" in s.text())
        await ann.send(b"8")
        await s.wait_for(lambda: "Callers at the main menu" in s.text())
        await ann.send(b"1")
        await s.wait_for(lambda: "Press 1 or 2" in s.text())
        await ann.send(b"1")
        await s.wait_for(lambda: "How long a match?" in s.text())
        assert "No rated match: Ann and Bob call, or registered, from the same network" in flat(ann)
        assert "R  A rated best of three" not in s.text()
        await ann.send(b"R")  # not a choice here
        await ann.send(b"1")
        await s.wait_for(lambda: "Waiting for Bob to answer" in s.text())
        await bob.screen.wait_for(lambda: "Ann challenges you to a 61-point game" in flat(bob))
        await bob.send(b"y")
        await bob.screen.wait_for(lambda: bob.screen.prompt().startswith("Chat"))
        await bob.send(b"\x03")
        await bob.screen.wait_for(lambda: "Leave this game? (Y/N)" in bob.screen.text())
        await bob.send(b"y")
        await s.wait_for(lambda: "Main menu" in s.text())
        for name in ("Ann", "Bob"):
            account = await door.store.accounts.find(name)
            assert await door.store.ratings.of(account.id) is None  # both still at 1500: never rated
        for c in (ann, bob):
            c.close()


async def test_new_accounts_play_unrated_until_they_have_finished_games(tmp_path: Path) -> None:
    config = ranked_config(tmp_path / "data")
    config.ranked.min_games = 5
    async with running(config) as door:
        ann = await caller_from(door, "Ann", 1)
        await caller_from(door, "Bob", 2)
        await ann.screen.wait_for(lambda: "8  Play another caller" in ann.screen.text())
        await ann.send(b"8")
        await ann.screen.wait_for(lambda: "Callers at the main menu" in ann.screen.text())
        await ann.send(b"1")
        await ann.screen.wait_for(lambda: "Press 1 or 2" in ann.screen.text())
        await ann.send(b"1")
        await ann.screen.wait_for(lambda: "How long a match?" in ann.screen.text())
        assert "No rated match: Ann has finished 0 of the 5 games a rated match needs" in flat(ann)
        ann.close()


async def test_dropping_the_line_and_answering_n_forfeits_a_rated_match(tmp_path: Path) -> None:
    """The dodge: the loser drops the line, calls again and answers N to
    "Go back to it?".  That is a forfeit now, and both ratings move."""
    async with running(ranked_config(tmp_path / "data")) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
        await rated_match(ann, bob)
        await first_deal(ann, bob)
        bob.close()
        await ann.screen.wait_for(lambda: "Bob's line dropped" in flat(ann))
        # the player who stayed cannot end a rated match: A is not offered, the grace runs
        await ann.screen.wait_for(lambda: "then the match is yours by forfeit" in ann.screen.prompt())
        loss = rate_match(Rating(), Rating(), True)  # Ann (seat 0) wins
        bob = await caller_from(door, "Bob", 2, until="Go back to it?")
        assert f"N forfeits the rated match: your rating 1500 -> {loss[1].rating:.0f}" in flat(bob), bob.screen.text()
        await bob.send(b"n")
        await bob.screen.wait_for(lambda: "Rated match" in bob.screen.text() and "any key" in bob.screen.text())
        assert "Ann wins the match by forfeit (0-0 in games; a rated best-of-3 match)." in flat(bob)
        assert f"Bob's rating: 1500 -> {loss[1].rating:.0f}" in flat(bob)
        ratings = {n: await door.store.ratings.of((await door.store.accounts.find(n)).id) for n in ("Ann", "Bob")}
        assert ratings["Ann"] is not None and ratings["Bob"] is not None
        assert abs(ratings["Ann"].rating.rating - loss[0].rating) < 0.01
        assert abs(ratings["Bob"].rating.rating - loss[1].rating) < 0.01
        await ann.screen.wait_for(lambda: "Rated match" in ann.screen.text() and "any key" in ann.screen.text())
        for c in (ann, bob):
            c.close()


async def test_leaving_a_rated_match_says_what_it_costs_and_a_watcher_sees_the_match(tmp_path: Path) -> None:
    async with running(ranked_config(tmp_path / "data")) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
        cy = await telnet_caller(door.telnet_port, source="127.0.3.1")
        await log_in_as_guest(cy, "Cy")
        await rated_match(ann, bob)
        await first_deal(ann, bob)
        await cy.screen.wait_for(lambda: "W  Watch a game between callers" in cy.screen.text())
        await cy.send(b"W")
        await cy.screen.wait_for(lambda: "Watching Ann against Bob" in cy.screen.text())
        assert "Rated best of 3: 0-0" in cy.screen.lines()[0]  # the match and its score, not "Games 0-0"
        await ann.send(b"\x03")
        loss = rate_match(Rating(), Rating(), False)  # Ann (seat 0) loses
        await ann.screen.wait_for(lambda: "Leave this rated match?" in ann.screen.prompt())
        assert ann.screen.prompt() == (f"Leave this rated match? You forfeit it: your rating 1500 -> "
                                       f"{loss[0].rating:.0f}. (Y/N)")
        await ann.send(b"y")
        for c in (ann, bob):  # each is shown the ratings on a page that waits for a key
            await c.screen.wait_for(lambda c=c: "Rated match" in c.screen.text() and "any key" in c.screen.text())
            assert "Bob wins the match by forfeit (0-0 in games; a rated best-of-3 match)." in flat(c)
            assert f"Ann's rating: 1500 -> {loss[0].rating:.0f}" in flat(c)
        await cy.screen.wait_for(lambda: "The game is over." in cy.screen.text())
        doing = {p.name: p.activity() for p in door.ctx.lobby.callers()}
        assert "Ann and Bob" not in doing["Cy"]  # the console no longer says Cy watches it
        for c in (ann, bob, cy):
            c.close()


async def test_a_match_left_before_its_first_deal_is_aborted_and_a_serial_aborter_is_held_back(
        tmp_path: Path) -> None:
    config = ranked_config(tmp_path / "data")
    config.ranked.abort_limit = 2
    async with running(config) as door:
        ann = await caller_from(door, "Ann", 1)
        bob = await caller_from(door, "Bob", 2)
        for _ in range(2):
            await rated_match(ann, bob)
            await bob.screen.wait_for(lambda: bob.screen.prompt().startswith("Chat"))
            await bob.send(b"\x03")
            await bob.screen.wait_for(lambda: "Leave this rated match?" in bob.screen.prompt())
            assert bob.screen.prompt() == "Leave this rated match? It has not begun: it is aborted, and not rated. (Y/N)"
            await bob.send(b"y")
            for c in (ann, bob):
                await c.screen.wait_for(lambda c=c: "Rated match" in c.screen.text() and "any key" in c.screen.text())
                assert "Bob left the match before its first deal: it is aborted, and not rated." in flat(c)
                await c.send(b" ")
                await c.screen.wait_for(lambda c=c: "Main menu" in c.screen.text())
        for name in ("Ann", "Bob"):
            assert await door.store.ratings.of((await door.store.accounts.find(name)).id) is None
        await ann.send(b"8")
        await ann.screen.wait_for(lambda: "Callers at the main menu" in ann.screen.text())
        await ann.send(b"1")
        await ann.screen.wait_for(lambda: "Press 1 or 2" in ann.screen.text())
        await ann.send(b"1")
        await ann.screen.wait_for(lambda: "How long a match?" in ann.screen.text())
        assert re.search(r"No rated match: Bob aborted 2 rated matches lately: rated play opens again for them at "
                         r"\d\d:\d\d", flat(ann)), ann.screen.text()
        for c in (ann, bob):
            c.close()
