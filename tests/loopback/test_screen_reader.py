"""Screen-reader mode (issue 35), tested by a caller who reads only the
byte stream (tests/support/reader_bot.py): no cursor addressing, no
colour, no box drawing, a few short lines for each event, every prompt
ending with its keys; the mode chosen at the first line, by MTTS or by
TERM=dumb, and remembered by the account."""

from __future__ import annotations

import asyncio
import re

import telnetlib3

from door.server import DoorServer
from door.ui.display import Presentation

from tests.support.reader_bot import PROMPTS, ReaderBot, count_of, playable

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
    await bot.wait_for("Main menu" if False else re.compile(r"Press 1, 2, .* or Q\."))


async def play_a_game(bot: ReaderBot) -> list[tuple[int, int]]:
    """Answer the game's prompts until "Play again?"; returns, for each
    stretch of output between two of the bot's keys, (lines, events)."""
    bursts: list[tuple[int, int]] = []
    while True:
        start = bot.read_to
        m = await bot.wait_for(PROMPTS, timeout=60)
        said = bot.text()[start:m.end()].replace("\r", "").split("\n")
        bursts.append((len([line for line in said if line.strip()]), sum(bool(EVENT.match(line)) for line in said)))
        prompt = m.group(0)
        if prompt.startswith("Type the numbers of two"):
            bot.send("12")
        elif prompt.startswith("Your turn"):
            bot.send(playable(prompt))
        elif prompt.startswith("Count your"):
            bot.send(f"{count_of(prompt)}\r")
        elif prompt.startswith("RETURN on a blank line"):
            bot.send("\r")
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
        bot.send("c")  # counting: manual
        await bot.wait_for(re.compile(r"Counting +manual"))
        await bot.wait_for(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    bot.send("1")
    bursts = await play_a_game(bot)
    await bot.wait_for(re.compile(r"Press 1, 2, .* or Q\."))
    text = bot.text()
    assert re.search(r"(You|Computer) wins?, 1[2-3][0-9] to \d+\.", text), text[-2000:]
    assert "Fifteen two" in text and "Right: you peg" in text
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
    await bot.wait_for(re.compile(r"Press 1, 2, .* or Q\."))
    presence = next(p for p in door.ctx.lobby.presences.values() if p.name == "Dumb Dan")
    assert presence.presentation is Presentation.LINES
    writer.close()  # type: ignore[attr-defined]
    pump.cancel()
