"""Today's deal from the menu: two callers get the same cards, each plays
it once (and an address once), the seed stays secret all day, and the
day's ranking shows their results against the expert's own game on the
same cards, with the day's commitment."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.records.game_kinds import GameKind
from door.server import DoorServer
from tests.support.fake_clock import FakeClock
from tests.support.player import Player, log_in_registered
from tests.support.server import make_config, newcomers_rated, running


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(newcomers_rated(make_config(tmp_path / "data", game_to=61))) as server:
        yield server


class FirstCards(Player):
    """A :class:`Player` who notes the six cards of the first deal."""

    dealt: list[str] | None = None

    async def act(self, prompt: str, screen: str) -> bool | str:
        if prompt.startswith("Choose 2 cards") and self.dealt is None:
            t = self.term
            self.dealt = sorted(str(card) for _, card in t.cards_in_row(t.row_of("Your cards") + 2))
        return await super().act(prompt, screen)


async def play_todays_deal(door: DoorServer, name: str, source: str) -> list[str]:
    caller = await log_in_registered(door.telnet_port, door.store, name, f"{name.lower()}-secret", source=source)
    s = caller.screen
    await caller.send(b"d")
    await s.wait_for(lambda: "Play it now?" in s.text())
    deal = await door.store.daily.deal(door.store.daily.today())
    assert f"game #{deal.game}" in s.text()
    await caller.send(b"y")
    player = FirstCards(s, caller.send, name=name)
    final = await player.play(timeout=200)
    assert deal.server_seed not in final and "Door's seed" not in final  # not before the day is over
    assert "shown once" in " ".join(final.split())
    await s.wait_for(lambda: "The expert's own game on these cards" in s.text(), timeout=30)
    assert name in s.text() and "Your streak: 1 day in a row." in s.text()
    assert deal.commitment in s.text()  # the day's commitment, with its ranking
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
    anns = await play_todays_deal(door, "Ann", "127.0.0.1")
    bobs = await play_todays_deal(door, "Bob", "127.0.0.2")
    assert anns == bobs
    # a second account at Ann's address is told the deal was played from there
    cid = await log_in_registered(door.telnet_port, door.store, "Cid", "cid-secret", source="127.0.0.1")
    await cid.send(b"d")
    await cid.screen.wait_for(lambda: "Play it now?" in cid.screen.text())
    await cid.send(b"y")
    await cid.screen.wait_for(lambda: "played from your address already" in " ".join(cid.screen.text().split()))
    cid.close()
    # nor does anyone see the seed in Recent games before the day is over
    from tests.support.player import log_in_as_guest, telnet_caller

    guest = await telnet_caller(door.telnet_port)
    await log_in_as_guest(guest, "Gus")
    await guest.send(b"5")
    await guest.screen.wait_for(lambda: "Seeds of game #" in guest.screen.text())
    deal = await door.store.daily.deal(door.store.daily.today())
    assert deal.server_seed not in guest.screen.text() and "today's deal: shown once" in guest.screen.text()
    guest.close()
    day = door.store.daily.today()
    ranking = await door.store.daily.ranking(day)
    assert {r.name for r in ranking} == {"Ann", "Bob"} and all(r.against_par is not None for r in ranking)
    assert await door.store.daily.par(day) is not None


@pytest.mark.slow
async def test_a_kept_play_of_todays_deal_taken_up_at_the_screens_ends_with_the_ranking(door: DoorServer) -> None:
    """A caller whose line drops in today's deal takes it up at the next
    call (the login offers it) and, when it ends, is shown the day's
    ranking with their result, as after a play begun from the menu (and
    as a program is sent it)."""
    caller = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
    s = caller.screen
    await caller.send(b"d")
    await s.wait_for(lambda: "Play it now?" in s.text())
    await caller.send(b"y")
    await s.wait_for(lambda: s.prompt().startswith(("Choose 2 cards", "Chat")), timeout=30)
    caller.close()  # the line drops in the first hand: the game is kept
    ann = await door.store.accounts.find("Ann")
    assert ann is not None
    day = door.store.daily.today()
    for _ in range(100):
        if any(g.kind is GameKind.DAILY for g in await door.store.saved.unfinished(ann.id)):
            break
        await asyncio.sleep(0.05)
    caller = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret", until="Resume it?")
    s = caller.screen
    await caller.send(b"y")
    await Player(s, caller.send, name="Ann").play(timeout=200)
    await s.wait_for(lambda: "The expert's own game on these cards" in s.text(), timeout=30)
    assert "Your streak: 1 day in a row." in s.text()
    assert [r.name for r in await door.store.daily.ranking(day)] == ["Ann"]
    caller.close()


async def test_a_guest_is_told_the_deal_is_for_registered_callers(door: DoorServer) -> None:
    from tests.support.player import log_in_as_guest, telnet_caller

    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "Gus")
    await caller.send(b"d")
    await caller.screen.wait_for(lambda: "it is for registered" in caller.screen.text())
    # (when: a caller registers at the name prompt, and a guest cannot during their call)
    assert "Register your name at your next call to play it." in " ".join(caller.screen.text().split())
    caller.close()


async def test_a_fresh_account_is_refused_todays_deal_at_the_screens_in_lines_and_by_the_protocol(
        tmp_path: Path) -> None:
    """Under the house's rated-play rules (5 finished games, a day old), a
    new account is refused today's deal, told when it may play it and why
    (a rehearsal): at the full screen, in screen-reader mode and by the
    protocol's ``daily``; it has not used up its play of the day."""
    from websockets.asyncio.client import connect

    from tests.loopback.test_protocol import next_message
    from tests.loopback.test_screen_reader import reader, register

    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        day = door.store.daily.today()
        ann = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
        await ann.send(b"d")
        await ann.screen.wait_for(lambda: "Press any key" in ann.screen.text())
        said = " ".join(ann.screen.text().split())
        assert "Today's deal is ranked, so it is for accounts that may play rated matches" in said
        assert "after 5 more finished games (0 of the 5" in said and "(1 day after it was made)" in said
        assert "Play it now?" not in said
        ann.close()
        bot, pump, writer = await reader(door.telnet_port, term="dumb")
        await register(bot, "Bea", "bea-secret")
        bot.send("d")
        await bot.wait_for("Today's deal is ranked, so it is for accounts that may play rated matches")
        writer.close()  # type: ignore[attr-defined]
        pump.cancel()
        async with connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play") as ws:
            await next_message(ws, "hello")
            await ws.send(json.dumps({"type": "login", "name": "Ann", "password": "ann-secret"}))
            await next_message(ws, "welcome")
            await ws.send(json.dumps({"type": "daily"}))
            refused = await next_message(ws)
            assert refused["type"] == "error" and refused["message"].startswith("Today's deal is ranked")
            assert "Everyone plays the same cards" in refused["message"]  # (why, as the screens say)
        for name in ("Ann", "Bea"):
            account = await door.store.accounts.find(name)
            assert account is not None and not await door.store.daily.played(account.id, day)


@pytest.mark.slow
async def test_verify_checks_a_past_days_deal_against_its_commitment(tmp_path: Path) -> None:
    """``cribbage-door verify --daily DAY`` refuses a day that is not over;
    once it is, it shows the seed, which hashes to the commitment shown all
    day, and deals every recorded play of the deal again from it; a seed
    changed in the store fails."""
    import hashlib
    import subprocess
    import sys
    import time

    from door.records.store import DATABASE_NAME, Store
    from door.records.verify import verify_daily

    data = tmp_path / "data"
    async with running(newcomers_rated(make_config(data, game_to=61))) as door:
        await play_todays_deal(door, "Ann", "127.0.0.1")
        day = door.store.daily.today()
        commitment = await door.store.daily.commitment(day)
    proc = subprocess.run([sys.executable, "-m", "door.cli", "verify", "--data-dir", str(data), "--daily", day],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "is not over" in proc.stdout, proc.stdout + proc.stderr
    tomorrow = Store.open(data / DATABASE_NAME, clock=lambda: time.time() + 86400)
    store = await tomorrow
    try:
        lines, ok = await verify_daily(store, day)
        text = "\n".join(lines)
        assert ok, text
        seed = await store.daily.revealed(day)
        assert seed is not None and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        assert f"commitment {commitment}" in text and "1 recorded plays of the deal; 1 dealt again" in text
        await store.database.tx(lambda db: db.execute("UPDATE daily_seeds SET seed = ? WHERE day = ?",
                                                      ("0" * 64, day)))
        lines, ok = await verify_daily(store, day)
        assert not ok and "not dealt from the day's seed" in "\n".join(lines)
    finally:
        await store.close()


async def test_the_days_deal_asked_before_midnight_is_not_played_after_it(door: DoorServer) -> None:
    """A caller reads the question (play today's deal now?) until the day
    is over, when its seed may be shown and so its cards known (another
    account reads it in the ranking): their Y is refused, not a game
    dealt from cards they could know, ranked on the day that ended."""
    ann = await log_in_registered(door.telnet_port, door.store, "Ann", "ann-secret")
    s = ann.screen
    await ann.send(b"d")
    await s.wait_for(lambda: "Play it now?" in s.text())
    daily = door.store.daily
    day = daily.today()
    daily.clock = FakeClock(time.time() + 86400)  # midnight passes while the question is on the screen
    assert await daily.revealed(day) is not None  # the cards of the deal asked about may be known now
    await ann.send(b"y")
    await s.wait_for(lambda: f"The deal of {day} is over" in " ".join(s.text().split()))
    account = await door.store.accounts.find("Ann")
    assert account is not None and not await daily.played(account.id, day)
    await ann.send(b" ")
    await s.wait_for(lambda: "Main menu" in s.text())
    ann.close()
