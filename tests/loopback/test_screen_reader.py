"""Screen-reader mode, tested by a caller who reads only the
byte stream (tests/support/reader_bot.py): no cursor addressing, no
colour, no box drawing, a few short lines for each event, every prompt
ending with its keys; the mode chosen at the first line, by MTTS or by
TERM=dumb, and remembered by the account."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
import telnetlib3

from door.server import DoorServer
from door.ui.display import Presentation
from tests.loopback.test_sysop import sysop_login
from tests.support.player import Player
from tests.support.reader_bot import PROMPTS, ReaderBot, count_of, playable
from tests.support.server import make_config, running, with_sysop

MENU = re.compile(r"Press 1, 2, .* or Q\.")
"""The main menu's last line: the keys it takes."""

EVENT = re.compile(r"^(Your|Computer's) (hand|crib):|^(You|Computer) (plays?|says? go|pegs?|cut|wins?)|"
                   r"^The starter|^Hand [a-z\-]+\.|^Computer has laid away|^The count goes back|^Right:|"
                   r"^You claimed")


async def reader(port: int, term: str = "xterm") -> tuple[ReaderBot, asyncio.Task[None], object]:
    """A telnet caller whose output goes only to a :class:`ReaderBot`."""
    reader_, writer = await telnetlib3.open_connection("127.0.0.1", port, encoding=False, term=term, cols=80,
                                                       rows=24, connect_minwait=0.05)
    bot = ReaderBot(writer.write)

    async def pump() -> None:
        while data := await reader_.read(4096):
            bot.feed(data)

    return bot, asyncio.create_task(pump()), writer


async def register(bot: ReaderBot, name: str, password: str) -> None:
    await bot.wait_for("Your name: ")
    bot.send(name + "\r")
    await bot.wait_for("Press R, G or B.")
    bot.send("r")
    await bot.wait_for("Password: ")
    bot.send(password + "\r")
    await bot.wait_for("Password: ")
    bot.send(password + "\r")
    await bot.wait_for(MENU)


async def read_again(bot: ReaderBot) -> None:
    """The reading keys, at the first discard: the hand, the scores, the
    table, whose turn it is, the last ten events."""
    for key, answer in [("h", r"Your hand: [a-z ,]+\."), ("s", r"Scores: you 0, Computer 0; game to 121\."),
                        ("t", r"No starter yet\. Count zero\."), ("w", r"Your cards: [a-z]+, 1 .* for [^\n]*crib\."),
                        ("l", r"The last ten events:\r\n(.+\r\n)+")]:
        bot.send(key)
        await bot.wait_for(re.compile(answer))


async def as_guest(bot: ReaderBot, name: str) -> None:
    """The guest login said line by line, to the main menu's keys."""
    await bot.wait_for("Your name: ")
    bot.send(name + "\r")
    await bot.wait_for("Press R, G or B.")
    bot.send("g")
    await bot.wait_for(MENU)


async def play_a_game(bot: ReaderBot, reread: bool = False) -> list[tuple[int, int]]:
    """Answer the game's prompts until "Play again?"; returns, for each
    stretch of output between two of the bot's keys, (lines, events).
    ``reread``: try the reading keys at the first discard."""
    bursts: list[tuple[int, int]] = []
    while True:
        start = bot.read_to
        m = await bot.wait_for(PROMPTS, timeout=60)
        said = bot.text()[start:m.end()].replace("\r", "").split("\n")
        bursts.append((len([line for line in said if line.strip()]), sum(bool(EVENT.match(line)) for line in said)))
        prompt = m.group(0)
        if prompt.startswith("Type two for"):
            if reread:
                await read_again(bot)
                reread = False
            bot.send("12")
        elif prompt.startswith("Your turn"):
            bot.send(playable(prompt))
        elif prompt.startswith("Count your"):
            bot.send(f"{count_of(prompt)}\r")
        elif prompt.startswith("RETURN"):
            bot.send("\r")
        elif prompt.startswith("deals with RETURN"):
            pass  # the other player deals
        elif prompt.startswith("Press a key"):
            bot.send(" ")
        else:  # play again?
            bot.send("n")
            return bursts


async def test_a_blind_caller_registers_and_plays_a_whole_game_with_manual_counting(door: DoorServer) -> None:
    bot, pump, writer = await reader(door.telnet_port)
    first = await bot.wait_for("\r\n")
    assert bot.text()[:first.start()] == "Cribbage door. Type S and press RETURN for screen-reader mode."
    await bot.wait_for("Your name:")
    bot.send("s\r")
    await bot.wait_for("Screen-reader mode is on")
    start = len(bot.raw)  # from here on, nothing but plain lines
    await register(bot, "Blind Ann", "ann-secret")
    bot.send("1")  # play the computer: the options, said line by line
    start_options = bot.read_to
    await bot.wait_for(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    if not re.search(r"Counting +manual", bot.text()[start_options:]):
        bot.send("c")  # counting: manual (the line that changed is said, not the screen again)
        await bot.wait_for(re.compile(r"Counting +manual"))
    bot.send("1")
    bursts = await play_a_game(bot, reread=True)
    await bot.wait_for(MENU)
    text = bot.text()
    assert re.search(r"(You|Computer) wins?, 1[2-3][0-9] to \d+\.", text), text[-2000:]
    assert "Fifteen two" in text and ": right. You " in text
    # the play looked back on with both hands known, kept for A (said at once when it lost points)
    assert re.search(r"Your pegging left (none|\d+ points?)", text) or "No advice yet" not in text
    plain = ReaderBot(lambda _: None)
    plain.feed(bytes(bot.raw[start:]))
    assert plain.noise() == dict.fromkeys(plain.noise(), 0), plain.noise()
    worst = max(bursts, key=lambda b: b[0] / max(1, b[1]))
    assert all(lines <= 10 * max(1, events) for lines, events in bursts), worst
    account = await door.store.accounts.find("Blind Ann")
    assert account is not None and account.options.get("reader") is True  # the account remembers the mode
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()


async def test_term_dumb_turns_the_mode_on_and_the_account_remembers_it(door: DoorServer) -> None:
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await bot.wait_for("Screen-reader mode is on")
    await register(bot, "Dumb Dan", "dan-secret")
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()
    # back with a full-screen terminal: the account's mode holds from the login on
    bot, pump, writer = await reader(door.telnet_port)
    await bot.wait_for("Your name:")
    bot.send("Dumb Dan\r")
    await bot.wait_for("Password: ")
    bot.send("dan-secret\r")
    await bot.wait_for(MENU)
    presence = next(p for p in door.ctx.lobby.presences.values() if p.name == "Dumb Dan")
    assert presence.presentation is Presentation.LINES
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()


class MttsClient:
    """A telnet client written out by hand, as a MUD client that speaks
    MTTS: it answers the TTYPE cycle with its name, a terminal type and
    ``MTTS <bits>``, refuses every other option, and gives the rest of the
    bytes to a :class:`ReaderBot`."""

    IAC, SB, SE, WILL, WONT, DO, DONT, TTYPE = 255, 250, 240, 251, 252, 253, 254, 24

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.asked = 0

    async def connect(self, port: int) -> tuple[ReaderBot, asyncio.Task[None], asyncio.StreamWriter]:
        reader_, writer = await asyncio.open_connection("127.0.0.1", port)
        bot = ReaderBot(writer.write)
        return bot, asyncio.create_task(self._pump(reader_, writer, bot)), writer

    async def _pump(self, reader_: asyncio.StreamReader, writer: asyncio.StreamWriter, bot: ReaderBot) -> None:
        data = b""
        while chunk := await reader_.read(4096):
            data += chunk
            out = bytearray()
            i = 0
            while i < len(data):
                if data[i] != self.IAC:
                    out.append(data[i])
                    i += 1
                    continue
                if i + 1 >= len(data):
                    break
                verb = data[i + 1]
                if verb in (self.WILL, self.WONT, self.DO, self.DONT):
                    if i + 2 >= len(data):
                        break
                    option = data[i + 2]
                    if verb == self.DO:
                        writer.write(bytes([self.IAC, self.WILL if option == self.TTYPE else self.WONT, option]))
                    elif verb == self.WILL:
                        writer.write(bytes([self.IAC, self.DO, option]))
                    i += 3
                elif verb == self.SB:
                    end = data.find(bytes([self.IAC, self.SE]), i)
                    if end < 0:
                        break
                    if data[i + 2] == self.TTYPE:
                        answer = self.answers[min(self.asked, len(self.answers) - 1)]
                        self.asked += 1
                        writer.write(bytes([self.IAC, self.SB, self.TTYPE, 0]) + answer.encode()
                                     + bytes([self.IAC, self.SE]))
                    i = end + 2
                elif verb == self.IAC:
                    out.append(self.IAC)
                    i += 2
                else:
                    i += 2
            data = data[i:]
            if out:
                bot.feed(bytes(out))


async def test_mtts_with_the_screen_reader_bit_turns_the_mode_on(door: DoorServer) -> None:
    bot, pump, writer = await MttsClient(["MUDCLIENT", "XTERM-256COLOR", "MTTS 77"]).connect(door.telnet_port)
    await bot.wait_for("Screen-reader mode is on")  # 77 = 64 (screen reader) + 8 + 4 + 1
    await bot.wait_for("Your name: ")
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()
    pump.cancel()


async def test_mtts_without_it_keeps_the_full_screen(door: DoorServer) -> None:
    bot, pump, writer = await MttsClient(["MUDCLIENT", "XTERM-256COLOR", "MTTS 13"]).connect(door.telnet_port)
    await bot.wait_for("Your name: ")
    assert "Screen-reader mode is on" not in bot.text() and bot.noise()["SGR"] > 0
    writer.close()
    pump.cancel()


@pytest.fixture
async def sysop_door(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> AsyncIterator[DoorServer]:
    config = with_sysop(make_config(tmp_path / "data", game_to=61), "Sysop", "sysop-secret", sysop_key)
    async with running(config) as server:
        yield server


async def test_a_blind_caller_plays_the_sysop_who_keeps_the_full_screen(sysop_door: DoorServer, sysop_key) -> None:
    door = sysop_door
    sysop = await sysop_login(door, sysop_key)
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await as_guest(bot, "Lee")
    # the console lists the caller's mode
    await sysop.screen.wait_for(lambda: "Lee" in sysop.screen.text() and "reader: main menu" in sysop.screen.text())
    bot.send("6")
    await bot.wait_for("Reason: ")
    bot.send("a game?\r")
    await bot.wait_for("Press ESC to stop paging.")
    await sysop.screen.wait_for(lambda: "PAGE from Lee" in sysop.screen.text())
    await sysop.send(b"y")
    await bot.wait_for("Press 1 or 2.")
    bot.send("1")
    mine = Player(sysop.screen, sysop.send, name="Sysop")
    ends = await asyncio.gather(mine.play(timeout=200), play_a_game(bot))
    assert re.search(r"(You win|Lee wins) \d+ to \d+!", ends[0]), ends[0]
    assert re.search(r"(You|Sysop) wins?, \d+ to \d+\.", bot.text())
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()
    sysop.conn.close()


async def test_the_records_and_the_demonstration_are_said_too(door: DoorServer) -> None:
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await as_guest(bot, "Reed")
    for key, words in [("3", "Guests have no statistics."), ("4", "Top players"), ("5", "Recent games")]:
        bot.send(key)
        await bot.wait_for(words)
        await bot.wait_for("Press any key.")
        bot.send(" ")
        await bot.wait_for(MENU)
    bot.send("7")  # the demonstration: the computer's moves, said as they come
    await bot.wait_for("Demonstration, North against South")
    await bot.wait_for(re.compile(r"(North|South): [a-z]+, [a-z\-]+\."), timeout=30)
    bot.send("x")
    await bot.wait_for(MENU)
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()


async def test_a_dropped_blind_caller_resumes_where_the_game_was(door: DoorServer) -> None:
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await register(bot, "Rory", "rory-secret")
    bot.send("1")
    await bot.wait_for(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    bot.send("1")
    await bot.wait_for("RETURN on a blank line deals")
    bot.send("\r")
    dealt = await bot.wait_for(re.compile(r"Your cards: (.*)\. Type two for"))
    writer.close()  # type: ignore[attr-defined]  # the line drops
    pump.cancel()
    await asyncio.sleep(0.3)
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await bot.wait_for("Your name: ")
    bot.send("Rory\r")
    await bot.wait_for("Password: ")
    bot.send("rory-secret\r")
    await bot.wait_for(re.compile(r"You have an unfinished game #\d+ \(hand 1"))
    await bot.wait_for("Press Y or N.")
    bot.send("y")
    await bot.wait_for("RETURN on a blank line deals")
    bot.send("\r")
    again = await bot.wait_for(re.compile(r"Your cards: (.*)\. Type two for"))
    assert again.group(1) == dealt.group(1)  # the same six cards
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()


async def test_a_blind_caller_challenges_a_full_screen_caller_and_they_chat_and_play(sysop_door: DoorServer) -> None:
    from tests.support.player import log_in_as_guest, telnet_caller

    door = sysop_door
    bob = await telnet_caller(door.telnet_port)
    await log_in_as_guest(bob, "Bob")
    bot, pump, writer = await reader(door.telnet_port, term="dumb")
    await as_guest(bot, "Lin")
    bot.send("8")
    await bot.wait_for("1  Bob (guest)")
    await bot.wait_for("ESC goes back.")
    bot.send("1")
    await bot.wait_for("Press 1 or 2; ESC goes back.")
    bot.send("1")
    await bot.wait_for("How long a match?")
    bot.send("3")  # a best of three: the match score is said after each game, in the full screen's words
    await bot.wait_for("Press ESC to withdraw the challenge.")
    await bob.screen.wait_for(lambda: "Lin challenges you" in bob.screen.text())
    await bob.send(b"y")
    chat = await bot.wait_for(re.compile(r"Hand one, [^\n]*\r\n(Chat|Bob deals)[^\n]*"))
    lin_deals = "RETURN on a blank line deals" in chat.group(0)  # (said once: the bot has read it now)
    bot.send("hello Bob\r")  # typed, echoed, sent
    await bot.wait_for("hello Bob\r\n")
    await bob.screen.wait_for(lambda: "Lin: hello Bob" in bob.screen.text())
    await bob.screen.wait_for(lambda: bob.screen.prompt().startswith("Chat"))
    await bob.send(b"hi Lin\r")
    await bot.wait_for("Bob says: hi Lin")
    if lin_deals:
        bot.send("\r")
    ends = await asyncio.gather(Player(bob.screen, bob.send, name="Bob").play(timeout=300), play_a_game(bot))
    assert re.search(r"(You win|Lin wins) \d+ to \d+!", ends[0]), ends[0]
    said = bot.text()
    assert re.search(r"Game 1 to (Lin|Bob), \d+-\d+: Lin \d, Bob \d \(best of 3\)\.", said), said[-3000:]
    assert re.search(r"(Lin|Bob) wins the match 2-[01] \(a best-of-3 match\)\.", said)
    assert re.search(r"^Bob: [a-z]+, [a-z\-]+", said, re.M)  # the other's moves, as they come
    assert bot.noise() == dict.fromkeys(bot.noise(), 0)
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()
    bob.close()
