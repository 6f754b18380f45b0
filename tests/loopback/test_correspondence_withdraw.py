"""Withdrawing one's own offers of games by correspondence at the
screens (W on K's list): every open offer is listed, those made to a
caller by name as well as the one to anyone, numbered; the one chosen is
withdrawn, and a single one is asked Y/N; screen-reader mode says the
same lines. The store shows each offer withdrawn, the others open."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bench.listening import ListeningBot
from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _call, _leave
from tests.loopback.test_correspondence_offers import _program
from tests.loopback.test_protocol import next_message
from tests.support.server import make_config, running


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _state(door: DoorServer, offer: int) -> str:
    """What became of offer ``offer``, as the store keeps it (open, withdrawn, ...)."""
    rows = await door.store.database.query(lambda db: db.execute(
        "SELECT state FROM correspondence_offers WHERE id = ?", (offer,)).fetchall())
    return str(rows[0][0])


async def _offers(door: DoorServer, maker: str, asked: list[dict[str, Any]]) -> list[int]:
    """``maker`` makes each offer ``asked`` (the protocol's ``offer``
    fields) by the protocol; their ids, in that order."""
    ws = await _program(door, maker)
    for offer in asked:
        await ws.send(json.dumps({"type": "offer", **offer}))
        assert "is made" in (await next_message(ws, "notice"))["text"]
    await ws.send(json.dumps({"type": "games"}))
    made = (await next_message(ws, "games"))["made"]
    await ws.close()
    return [o["offer"] for o in made]


async def test_a_caller_withdraws_an_offer_to_a_caller_by_name_and_one_to_anyone_at_the_screens(
        tmp_path: Path) -> None:
    """Ann has offered Bob a game, Cy a match and anyone a game: W lists
    the three, numbered; 2 withdraws Cy's. W then lists two; ESC leaves
    both. Then Bob's is withdrawn and only the offer to anyone is left: W
    asks Y/N of it; N keeps it, Y withdraws it, and W is gone."""
    async with running(make_config(tmp_path / "data")) as door:
        for name in ("Ann", "Bob", "Cy"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        to_bob, to_cy, to_anyone = await _offers(door, "Ann", [
            {"name": "Bob", "days": 2}, {"name": "Cy", "days": 5, "runs": "order", "best_of": 3}, {"days": 7}])
        ann = await _call(door, "Ann")
        s = ann.screen
        await ann.send(b"k")
        await s.wait_for(lambda: "W  Withdraw one of your offers (3)" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: "Your open offers of games by correspondence" in s.text())
        listed = _flat(s.text())
        for line in ("1 To Bob: a game, 2 days a move, runs in any order 2 ",
                     "2 To Cy: a match (best of 3), 5 days a move, runs in exact order 3 ",
                     "3 To anyone: a game, 7 days a move, runs in any order "):
            assert line in listed, listed
        await ann.send(b"2")
        await s.wait_for(lambda: "Your offer to Cy is withdrawn." in s.text())
        assert await _state(door, to_cy) == "withdrawn"
        assert [await _state(door, o) for o in (to_bob, to_anyone)] == ["open", "open"]
        await ann.send(b" ")
        await s.wait_for(lambda: "W  Withdraw one of your offers (2)" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: "Your open offers of games by correspondence" in s.text())
        assert "To Cy" not in s.text()
        await ann.send(b"\x1b")  # ESC: nothing withdrawn
        await s.wait_for(lambda: "W  Withdraw one of your offers (2)" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: "Your open offers of games by correspondence" in s.text())
        await ann.send(b"1")
        await s.wait_for(lambda: "Your offer to Bob is withdrawn." in s.text())
        assert await _state(door, to_bob) == "withdrawn"
        await ann.send(b" ")

        await s.wait_for(lambda: "W  Withdraw your offer to anyone" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: "Withdraw it? (Y/N)" in s.text())
        assert ("Your offer of a game by correspondence to anyone: 7 days a move, runs in any order, the door "
                "counts the hands.") in _flat(s.text())
        await ann.send(b"n")
        await s.wait_for(lambda: "W  Withdraw your offer to anyone" in s.text())
        assert await _state(door, to_anyone) == "open"
        await ann.send(b"w")
        await s.wait_for(lambda: "Withdraw it? (Y/N)" in s.text())
        await ann.send(b"y")
        await s.wait_for(lambda: "Your offer to anyone is withdrawn." in s.text())
        await ann.send(b" ")
        await s.wait_for(lambda: "Your games by correspondence" in s.text())
        assert "W  " not in s.text()
        assert await _state(door, to_anyone) == "withdrawn"
        await ann.send(b"\x1b")
        await _leave(ann)


async def test_offers_to_callers_by_name_are_withdrawn_in_screen_reader_mode(tmp_path: Path) -> None:
    """Ann, in screen-reader mode, has offered Bob and Cy a game: K says W
    withdraws one of two, W says them numbered, 1 withdraws Bob's; then W
    says the one left and asks Y/N. Cy declines it meanwhile: Y says it is
    no longer open."""
    async with running(make_config(tmp_path / "data")) as door:
        for name in ("Ann", "Bob", "Cy"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        to_bob, to_cy = await _offers(door, "Ann", [{"name": "Bob", "days": 3}, {"name": "Cy", "days": 1, "counting": "manual"}])
        bot = await ListeningBot.connect(door.telnet_port)
        bot.timeout = 30.0
        await bot.log_in("Ann", PASSWORD)
        await bot.wait(bot.MENU)
        bot.send("k")
        await bot.wait("W  Withdraw one of your offers (2)")
        bot.send("w")
        await bot.wait("Your open offers of games by correspondence (the oldest first):")
        await bot.wait("1  To Bob: a game, 3 days a move, runs in any order\r\n")
        await bot.wait("2  To Cy: a game, 1 day a move, runs in any order, counted by hand, with muggins\r\n")
        await bot.wait("Press the number of the offer to withdraw; ESC goes back.")
        bot.send("1")
        await bot.wait("Your offer to Bob is withdrawn.")
        assert (await _state(door, to_bob), await _state(door, to_cy)) == ("withdrawn", "open")
        bot.send(" ")
        await bot.wait("W  Withdraw your offer to Cy")

        cy = await _program(door, "Cy")  # Cy declines it while Ann's list is in view
        await cy.send(json.dumps({"type": "answer", "offer": to_cy, "accept": False}))
        assert (await next_message(cy, "notice"))["text"] == "You declined Ann's offer."
        await cy.close()
        bot.send("w")
        await bot.wait("Your offer of a game by correspondence to Cy: 1 day a move, runs in any order, "
                       "each player counts their own hands, with muggins.")
        await bot.wait("Withdraw it? (Y/N)")
        bot.send("y")
        await bot.wait("Your offer to Cy is no longer open: it was answered, or it lapsed, meanwhile.")
        assert await _state(door, to_cy) == "declined"
        bot.send(" ")
        start = (await bot.wait("Your games by correspondence")).start()
        keys = await bot.wait(re.compile(r"Press [^\n]*; ESC goes back\."))
        said = bot.text()[start:keys.end()]
        bot.writer.close()
        assert "Withdraw" not in said and "W" not in keys.group(0), said


async def test_w_lists_the_oldest_nine_offers_on_an_80_by_24_screen(tmp_path: Path) -> None:
    """Ann has ten open offers, to callers with long names, on the longest
    terms: W says there are more than nine and lists the oldest nine, each
    whole on the screen with the keys' line under them; 9 withdraws the
    ninth, and W then lists the other nine."""
    names = [f"Somebody-with-a-long-name-{i}" for i in range(10)]
    async with running(make_config(tmp_path / "data")) as door:
        for name in ("Ann", *names):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        made = await _offers(door, "Ann", [
            {"name": n, "days": 14, "runs": "order", "best_of": 5, "counting": "manual"} for n in names])
        ann = await _call(door, "Ann")
        s = ann.screen
        await ann.send(b"k")
        await s.wait_for(lambda: "W  Withdraw one of your offers (more than 9)" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: "Press the number of the offer to withdraw; ESC goes back." in s.text())
        listed = _flat(s.text())
        for i, name in enumerate(names[:9], 1):
            assert (f"{i} To {name}: a match (best of 5), 14 days a move, runs in exact order, counted by hand, "
                    "with muggins") in listed, s.text()
        assert names[9] not in listed
        await ann.send(b"9")
        await s.wait_for(lambda: f"Your offer to {names[8]} is withdrawn." in s.text())
        assert [await _state(door, o) for o in made] == ["open"] * 8 + ["withdrawn", "open"]
        await ann.send(b" ")
        await s.wait_for(lambda: "W  Withdraw one of your offers (9)" in s.text())
        await ann.send(b"w")
        await s.wait_for(lambda: f"9  To {names[9]}:" in s.text())
        await ann.send(b"\x1b")
        await s.wait_for(lambda: "W  Withdraw one of your offers (9)" in s.text())
        await ann.send(b"\x1b")
        await _leave(ann)
