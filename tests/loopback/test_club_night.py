"""A club night: the sysop opens one (2 games), four callers
join from the menu, play two Swiss rounds, and the standings (ACC: 2 a win,
3 a skunk; then games won, then spread) are right on screen and in the
records."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from door.net.keys import Key, KeyName
from door.records.ranked.club_scoring import ClubResult, standings
from door.sysop.club_night import ClubNight, Night
from door.sysop.console_keys import CLUB_LABEL, ConsoleKeys, OpenClub, handle_key
from engine.events import Skunk
from engine.objectives import ACC_POINTS
from tests.loopback.test_callers import registered
from tests.support.player import Player
from tests.support.server import make_config, running

NAMES = ["Ann", "Bob", "Cy", "Dee"]


class ClubPlayer(Player):
    """Plays each round's game; done at the night's final standings."""

    async def act(self, prompt: str, screen: str) -> bool | str:
        if "the final standings" in screen:
            self.final_screen = screen
            return "over"
        return await super().act(prompt, screen)


def test_the_console_opens_a_club_night_with_c() -> None:
    keys = ConsoleKeys()
    assert handle_key(keys, Key(KeyName.CHAR, "c"), 0, None) == [] and keys.input_label == CLUB_LABEL
    for ch in "9 15":
        handle_key(keys, Key(KeyName.CHAR, ch), 0, None)
    assert handle_key(keys, Key(KeyName.ENTER, ""), 0, None) == [OpenClub("9 15")]


@pytest.mark.slow
async def test_four_callers_play_two_rounds_and_the_standings_are_right(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        callers = [await registered(door.telnet_port, door.store, n) for n in NAMES]
        lobby = door.ctx.lobby
        assert lobby.club_maker is not None
        night = lobby.club_maker(2, 10)  # 2 games, starting in 10 minutes (as the console's C does) ...
        assert isinstance(night, ClubNight)
        lobby.club = night
        night.start()
        for c in callers:
            await c.screen.wait_for(lambda c=c: "J  Join the club night: 2 games" in c.screen.text())
            await c.send(b"J")
        for c in callers:
            await c.screen.wait_for(lambda c=c: "Club night: 2 games" in c.screen.text())
        assert sorted(e.name for e in night.entrants) == NAMES
        night.start_now()  # ... or at once when the sysop says (C, then RETURN alone)
        players = [ClubPlayer(c.screen, c.send, name=n) for c, n in zip(callers, NAMES)]
        games = asyncio.gather(*(p.play(timeout=300) for p in players))
        while not lobby.tables:
            await asyncio.sleep(0.05)
        # a computer at a club night plays for the ACC's points
        assert {t.objective for t in lobby.tables} == {ACC_POINTS}
        ends = await games
        assert night.state is Night.OVER and night.round == 2
        # every game of the night is recorded: the standings again from the records
        games = await door.store.games.recent(oldest_first=True)
        assert len(games) == 4
        results = [ClubResult(1 + i // 2, g.players, g.winner, g.scores, skunk=g.skunk is not Skunk.NONE)
                   for i, g in enumerate(games)]
        want = standings(NAMES, results)
        assert [(s.name, s.points, s.won, s.spread) for s in night.standings()] == \
            [(s.name, s.points, s.won, s.spread) for s in want]
        for end in ends:
            for place, s in enumerate(want, 1):
                assert s.line(place) in end, end
        # round 2 paired no one with their round-1 opponent
        first = {frozenset(g.players) for g in games[:2]}
        assert not first & {frozenset(g.players) for g in games[2:]}
        kept = await door.store.clubs.latest()
        assert kept is not None and kept.games == 2
        assert [(s.name, s.points, s.won, s.spread) for s in kept.standings] == \
            [(s.name, s.points, s.won, s.spread) for s in want]
        for c in callers:
            c.close()
    proc = subprocess.run([sys.executable, "-m", "door.cli", "records", "club", "--data-dir", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "2 games (points, won-lost, spread)" in proc.stdout
    assert want[0].line(1) in proc.stdout
