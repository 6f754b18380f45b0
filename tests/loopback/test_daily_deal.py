"""Today's deal from the menu (issue 37.3): two callers get the same cards,
each plays it once, and the day's ranking shows their results against the
expert's own game on the same cards."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from door.records.daily import deal_number
from door.server import DoorServer

from tests.support.player import Player, log_in_registered
from tests.support.server import make_config, running


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


class FirstCards(Player):
    """A :class:`Player` who notes the six cards of the first deal."""

    dealt: list[str] | None = None

    async def act(self, prompt: str, screen: str) -> bool | str:
        if prompt.startswith("Choose 2 cards") and self.dealt is None:
            t = self.term
            self.dealt = sorted(str(card) for _, card in t.cards_in_row(t.row_of("Your cards") + 2))
        return await super().act(prompt, screen)


async def play_todays_deal(door: DoorServer, name: str) -> list[str]:
    caller = await log_in_registered(door.telnet_port, door.store, name, f"{name.lower()}-secret")
    s = caller.screen
    await caller.send(b"d")
    await s.wait_for(lambda: "Play it now?" in s.text())
    number = deal_number(door.store.daily.today())
    assert f"game #{number}" in s.text()
    await caller.send(b"y")
    player = FirstCards(s, caller.send, name=name)
    await player.play(timeout=200)
    await s.wait_for(lambda: "The expert's own game on these cards" in s.text(), timeout=30)
    assert name in s.text() and "Your streak: 1 day in a row." in s.text()
    await caller.send(b" ")
    await s.wait_for(lambda: "Main menu" in s.text())
    # a second play the same day: straight to the ranking
    await caller.send(b"d")
    await s.wait_for(lambda: "Today's deal" in s.text() and "Press any key" in s.text())
    assert "Play it now?" not in s.text()
    caller.close()
    assert player.dealt is not None and len(player.dealt) == 6
    return player.dealt


@pytest.mark.slow
async def test_two_callers_get_the_same_cards_and_each_plays_once(door: DoorServer) -> None:
    anns = await play_todays_deal(door, "Ann")
    bobs = await play_todays_deal(door, "Bob")
    assert anns == bobs
    day = door.store.daily.today()
    ranking = await door.store.daily.ranking(day)
    assert {r.name for r in ranking} == {"Ann", "Bob"} and all(r.against_par is not None for r in ranking)
    assert await door.store.daily.par(day) is not None


async def test_a_guest_is_told_the_deal_is_for_registered_callers(door: DoorServer) -> None:
    from tests.support.player import log_in_as_guest, telnet_caller

    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "Gus")
    await caller.send(b"d")
    await caller.screen.wait_for(lambda: "it is for registered" in caller.screen.text())
    caller.close()
