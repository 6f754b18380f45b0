"""House rules and caller options, through real clients: a 61-point game,
automatic counting, first deal, pace, beep, hand order, the rules box, and
options remembered for a registered caller."""

from __future__ import annotations

import asyncio
import re

import pytest

from door.play.board import hole_position
from door.records.games import GameRecord
from door.server import DoorServer
from engine.game import Game
from engine.rules import Rules
from tests.support.player import Player, log_in_as_guest, telnet_caller


async def full_game(door: DoorServer, rows: int = 24, **kwargs) -> tuple[Player, str, bytes]:
    caller = await telnet_caller(door.telnet_port, rows=rows)
    player = Player(caller.screen, caller.send, **kwargs)
    screen = await player.play(timeout=150)
    await player.leave()
    await asyncio.wait_for(caller.done, 10)
    caller.close()
    return player, screen, bytes(caller.screen.raw)


@pytest.mark.slow
async def test_a_61_point_game_to_its_end(door: DoorServer) -> None:
    player, screen, _ = await full_game(door, name="Shorty", option_keys=b"G")
    lines = screen.splitlines()
    assert "to 61" in lines[0]
    m = re.search(r"(You win|Computer wins) (\d+) to (\d+)!", screen)
    assert m and int(m.group(2)) == 61 and int(m.group(3)) < 61
    loser = int(m.group(3))
    if loser < 16:
        assert "Double skunk!" in screen
    elif loser < 31:
        assert "Skunk!" in screen and "Double" not in screen
    # one row of 60 holes per player, the skunk bars after holes 30 and 15
    board = next(i for i, line in enumerate(lines) if line.startswith("Sho "))
    assert "Shorty" in lines[board + 1] and "Computer" in lines[board + 1] and lines[board + 2].startswith("Com")
    r, c = hole_position(30, 61)
    assert lines[board][c + 1] == "\u2502"
    r, c = hole_position(15, 61)
    assert lines[board][c + 1] == "\u2502"


@pytest.mark.slow
async def test_automatic_counting_asks_nothing_and_shows_the_breakdown(door: DoorServer) -> None:
    player, screen, _ = await full_game(door, name="Otto", option_keys=b"C")
    assert player.counts == []  # never asked to count
    assert "automatic count" in screen and "muggins" not in screen.splitlines()[1]
    assert player.reviews and all("The show" in r and "Hand recap" in r for r in player.reviews)
    assert any(re.search(r"(fifteens|pairs|runs) \d", r) for r in player.reviews)


async def start_game(door: DoorServer, option_keys: bytes, name: str = "Opal", number: int | None = None):
    """A guest's game against the computer (numbered game ``number``, when given)."""
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, name)
    if number is None:
        await caller.send(b"1")
    else:
        await caller.send(b"2")
        await s.wait_for(lambda: "Game number:" in s.text())
        await caller.send(f"{number}\r".encode())
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(option_keys + b"1")
    await s.wait_for(lambda: "blank line deals" in s.text())
    await caller.send(b"\r")
    await s.wait_for(lambda: "Dealer:" in s.text() and not s.prompt().startswith("Chat"))
    return caller


@pytest.mark.parametrize("keys,dealer", [(b"F", "You"), (b"FF", "Computer")])
async def test_first_deal_by_option(door: DoorServer, keys: bytes, dealer: str) -> None:
    caller = await start_game(door, keys)
    s = caller.screen
    await s.wait_for(lambda: "first." in s.text())
    assert f"Dealer: {dealer}" in s.text()
    assert ("You deal first." if dealer == "You" else "Computer deals first.") in s.text()
    assert "cut" not in s.text().split("\u2500" * 10)[-1]  # no cut for deal
    caller.close()


async def test_hand_as_dealt_and_the_rules_box_toggles(door: DoorServer) -> None:
    caller = await start_game(door, b"S", number=4242)  # hand as dealt; a numbered game, to know the deal
    s = caller.screen
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    assert "muggins" in s.lines()[1]  # the rules box
    row = s.row_of("Your cards") + 2
    shown = [c for _, c in s.cards_in_row(row)]
    assert "Game #4242" in s.lines()[0]
    dealt = Game(Rules(), 4242).start()[1]  # the house rules: the cut decides the dealer
    assert shown == list(dealt.hands[0])
    await caller.send(b"o")
    await s.wait_for(lambda: s.lines()[1].strip() == "")
    await caller.send(b"o")
    await s.wait_for(lambda: "muggins" in s.lines()[1])
    caller.close()


class PatientPlayer(Player):
    """At the first hold, checks that nothing moves until it presses a key."""

    held_still = False

    async def act(self, prompt: str, screen: str):  # type: ignore[no-untyped-def]
        if prompt.startswith("Press a key to go on") and not self.held_still:
            await asyncio.sleep(0.5)
            assert self.term.text() == screen, "the computer moved during a hold"
            self.held_still = True
        return await super().act(prompt, screen)


async def test_prompt_pace_holds_the_computer_and_beep_rings(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    raw = caller.screen.raw
    player = PatientPlayer(caller.screen, caller.send, name="Pat", option_keys=b"PB")
    await player.play(timeout=150)
    assert player.held_still and player.holds > 0  # "Press a key to go on." after scores
    assert b"\x07" in raw  # beep on scores and go
    caller.close()
    _, _, silent = await full_game(door, name="Sil")
    assert b"\x07" not in silent


async def test_options_are_remembered_for_a_registered_caller(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    await caller.send(b"Remy\r")
    await s.wait_for(lambda: "is not registered" in s.text())
    await caller.send(b"r")
    await s.wait_for(lambda: "Choose a password" in s.text())
    await caller.send(b"remy-pass\r")
    await s.wait_for(lambda: "again" in s.text())
    await caller.send(b"remy-pass\r")
    await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(b"KKBMG")  # expert, hard, easy
    await s.wait_for(lambda: "easy" in s.text() and "beep" in s.text() and "off:" in s.text() and "61 points" in s.text())
    await caller.send(b"2")
    await s.wait_for(lambda: "Next deal:" in s.text())
    caller.close()
    account = await door.store.accounts.find("Remy")
    assert account.options["skill"] == "easy" and account.options["beep"] is True
    assert account.options["rules"]["muggins"] is False and account.options["rules"]["game_to"] == 61
    # next call: the options screen starts from the saved choices
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    await caller.send(b"remy\r")
    await s.wait_for(lambda: "Password:" in s.text())
    await caller.send(b"remy-pass\r")
    await s.wait_for(lambda: "Resume it?" in s.text() or "Main menu" in s.text())
    if "Resume it?" in s.text():
        await caller.send(b"n")
        await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text() or "Start a new game all the same?" in s.text())
    if "Start a new game all the same?" in s.text():
        await caller.send(b"y")
        await s.wait_for(lambda: "Press 1 or 2" in s.text())
    text = s.text()
    assert "Computer      easy" in text and "beep on scores" in text and "61 points" in text
    assert "off: missed points are lost" in text
    caller.close()


async def test_house_rules_the_sysop_fixes_are_locked(door: DoorServer) -> None:
    door.ctx.caller.may_change = ["run_mode"]
    door.ctx.caller.skills = ["hard"]
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, "Lock")
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    assert "121 points (skunk below 91, double 61) (house rule)" in s.text()
    assert "  G  " not in s.text() and "  K  " not in s.text() and "  P  Pace" in s.text()
    await caller.send(b"G")  # not offered: ignored with a note
    await s.wait_for(lambda: "Please press" in s.text())
    assert "121 points" in s.text()
    caller.close()


async def test_a_numbered_game_on_record_keeps_its_rules(door: DoorServer) -> None:
    from engine.events import GameResult, Skunk
    from engine.rules import RunMode
    played = Rules(game_to=61, run_mode=RunMode.ORDERED)
    await door.store.games.record(None, GameRecord(4242, played, ("Old", "Computer"), (None, None), "computer",
                                 GameResult(0, (61, 40), Skunk.NONE, 1), [], 0.0))
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, "Numbers")
    await caller.send(b"2")
    await s.wait_for(lambda: "Game number:" in s.text())
    await caller.send(b"4242\r")
    await s.wait_for(lambda: "on record" in s.text())
    assert "61 points (skunk below 31, double 16) (as recorded)" in s.text()
    await caller.send(b"G1")  # G is not offered; 1 would pick unordered runs but the record wins
    await s.wait_for(lambda: "Next deal:" in s.text())
    assert "Game #4242" in s.lines()[0] and "to 61" in s.lines()[0] and "runs in order" in s.lines()[0]
    caller.close()


@pytest.mark.parametrize("back", [b"q", b"\x1b"])
async def test_q_or_escape_on_the_options_screen_goes_back_to_the_menu(door: DoorServer, back: bytes) -> None:
    """Q or Escape on the options screen goes back to the menu, changing nothing."""
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, "Olive")
    s = caller.screen
    await caller.send(b"1")
    await s.wait_for(lambda: "Options for this game" in s.text())
    assert "Q or ESC goes back to the main menu." in s.text()
    await caller.send(back)
    await s.wait_for(lambda: "Main menu" in s.text())
    caller.close()


class CribMiscounter(Player):
    """Claims one point too many for every crib (its ``send`` is wrapped by
    :func:`miscounting`), and keeps the screens it is shown before it
    presses a key after the hand."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.after_crib: list[str] = []
        self.crib_claimed = False
        self.claiming_crib = False

    async def count(self, prompt: str) -> None:
        self.claiming_crib = "crib" in prompt
        await super().count(prompt)
        self.claiming_crib = False
        if "crib" in prompt:
            self.crib_claimed = True

    async def act(self, prompt: str, screen: str) -> bool | str:
        if self.crib_claimed and prompt.startswith("Press a key to go on"):
            self.after_crib.append(screen)
            self.crib_claimed = False
        return await super().act(prompt, screen)


def miscounting(player: CribMiscounter, send):  # type: ignore[no-untyped-def]
    async def wrapped(data: bytes) -> None:
        if player.claiming_crib and data.endswith(b"\r") and data[:-1].isdigit():
            data = str(int(data[:-1]) + 1).encode() + b"\r"
        await send(data)
    return wrapped


@pytest.mark.slow
async def test_a_crib_count_shows_its_verdict_before_the_door_moves_on(door: DoorServer) -> None:
    """The crib's verdict was never on screen (chat mode came at
    once); with the prompt pace it stays until a key."""
    caller = await telnet_caller(door.telnet_port)
    player = CribMiscounter(caller.screen, caller.send, name="Cribby", option_keys=b"P")
    player.send = miscounting(player, caller.send)
    await player.play(timeout=150)
    assert player.after_crib, "the caller never counted a crib"
    for screen in player.after_crib:
        flat = " ".join(screen.split())
        assert re.search(r"You claimed (\d+), but it is worth", flat), screen
    caller.close()
