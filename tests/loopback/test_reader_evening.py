"""A blind caller's evening beyond the table's own words, by callers who
read only the byte stream (TERM=dumb): calling again in the middle of a
game, the menu as callers come and go, the options screen's commitment,
a challenge's wait, chat lines that meet a prompt or typed keys, a move
typed while the other player's arrives, and a password typed."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bench.listening import ListeningBot
from door.server import DoorServer
from tests.support.server import make_config, running

OFFERED = re.compile(r"8 +Play another caller")
"""The menu offers to play another caller (said as the line that changed, or in an earlier version the whole menu)."""

GROUPS = re.compile(r"([0-9a-f]{4} ){15}[0-9a-f]{4}")
"""A seed or a digest as the line presentation says it: 16 groups of four."""


@pytest.fixture
async def door61(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


async def connect(door: DoorServer) -> ListeningBot:
    """A telnet caller with TERM=dumb who waits 30 s at most for words."""
    bot = await ListeningBot.connect(door.telnet_port)
    bot.timeout = 30.0
    return bot


class Stop(Exception):
    """Raised by a hook to leave :meth:`ListeningBot.play` at a prompt."""


def said_lines(text: str) -> list[str]:
    return [line for line in text.replace("\r", "").split("\n") if line.strip()]


async def test_calling_again_at_hand_five_says_where_the_game_stands_not_its_history(door: DoorServer) -> None:
    """A caller who comes back hears where the game stands and the last
    few events, at most ten lines before the prompt, not every hand so far."""
    bot = await connect(door)
    await bot.register("Rory", "rory-secret")
    bot.send("2")
    await bot.wait("Game number: ")
    bot.send("4242\r")
    await bot.wait(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    bot.send("1")

    async def at_hand_five(kind: str, m: re.Match[str]) -> None:
        if kind == "discard" and re.search(r"^Hand five, ", bot.text(), re.M):
            raise Stop

    bot.hook = at_hand_five
    try:
        await bot.play()
        raise AssertionError("the game ended before hand five")
    except Stop:
        pass
    dealt = re.findall(r"Your cards: ([^\n]*)\. Type two for", bot.text())[-1]
    bot.close()  # the line drops at hand five's discard
    bot = await connect(door)
    await bot.log_in("Rory", "rory-secret")
    await bot.wait(re.compile(r"You have an unfinished game #\d+ \(hand 5"))
    await bot.wait("Press Y or N.")
    bot.send("y")
    start = bot.read_to
    m = await bot.wait(re.compile(r"Your cards: ([^\n]*)\. Type two for[^\n]*\r\n|Chat; RETURN on a blank line deals"))
    said = said_lines(bot.text()[start:m.start()])
    if m.group(0).startswith("Chat"):  # the hand waits for RETURN (unless a key waited already)
        bot.send("\r")
        m = await bot.wait(re.compile(r"Your cards: ([^\n]*)\. Type two for[^\n]*\r\n"))
    assert m.group(1) == dealt  # the same six cards
    assert len(said) <= 10, said
    assert any(line.startswith("Hand five") for line in said), said  # where the game stands
    assert any(re.search(r"Scores: you \d+, Computer \d+", line) for line in said), said
    assert not any(line.startswith(("Hand one", "Hand two", "Hand three")) for line in said), said
    bot.close()


async def test_the_menu_says_only_what_changed_when_a_caller_comes_or_goes(door: DoorServer) -> None:
    """When a caller comes or goes the menu says the one line that changed,
    not all of itself again."""
    lin = await connect(door)
    await lin.guest("Lin")
    bob = await connect(door)
    await bob.guest("Bob")
    came = await lin.wait(re.compile(r"The menu changed: [^\n]*\r\n"))
    assert came.group(0) == "The menu changed: 8 Play another caller is offered.\r\n"
    bob.send("q")  # Bob leaves: that line goes
    gone = await lin.wait(re.compile(r"The menu changed: [^\n]*\r\n"))
    assert gone.group(0) == "The menu changed: 8 Play another caller is gone.\r\n"
    assert "Play the computer" not in lin.text()[came.start():]  # never the whole menu again
    bob.close()
    lin.close()


async def test_the_challenger_hears_the_real_wait(door: DoorServer) -> None:
    """The challenger hears the wait the challenged caller hears, not
    "up to 0 seconds"."""
    lin = await connect(door)
    await lin.guest("Lin")
    cal = await connect(door)
    await cal.guest("Cal")
    await lin.wait(OFFERED)
    lin.send("8")
    await lin.wait("1  Cal (guest)")
    await lin.wait("ESC goes back.")
    lin.send("1")
    await lin.wait("Press 1 or 2; ESC goes back.")
    lin.send("1")
    await lin.wait("How long a match?")
    lin.send("1")
    wait = await lin.wait(re.compile(r"Waiting up to (\d+) seconds for an answer\."))
    answer = await cal.wait(re.compile(r"(\d+) seconds to answer\."))
    assert int(wait.group(1)) == int(door.config.paging.page_timeout)
    assert int(wait.group(1)) >= int(answer.group(1)) > 0
    cal.send("n")
    await lin.wait("Cal declined.")
    lin.close()
    cal.close()


async def test_a_password_typed_in_screen_reader_mode_echoes_nothing(door: DoorServer) -> None:
    bot = await connect(door)
    await bot.register("Pat", "pat-secret")
    bot.close()
    bot = await connect(door)
    await bot.log_in("Pat", "pat-secret")
    await bot.wait(bot.MENU)
    typed = re.findall(r"Password: ([^\r\n]*)", bot.text())
    assert typed == [""], typed  # no star for each letter (a screen reader says "star")
    bot.close()


async def test_the_commitment_and_the_seeds_are_said_on_demand(door61: DoorServer) -> None:
    """The options screen says the commitment is ready (V reads it) and
    Recent games that the seeds are kept (S reads them): 64 digits in
    groups of four only when asked for; the options screen is not said
    again for V nor for a change (the line that changed is)."""
    bot = await connect(door61)
    await bot.register("Vi", "vi-secret")
    bot.send("1")
    options = await bot.wait(re.compile(r"Options for this game[^\n]*\r\n(.*\r\n)*?Press [^\n]*Q; ESC goes back\.\r\n"))
    assert "commitment ready, V to hear it" in options.group(0) and not GROUPS.search(options.group(0))
    for _ in range(2):  # counting changed, and back: the line that changed is said, not the screen
        bot.send("c")
        changed = await bot.wait(re.compile(r"[^\n]*\r\n"))
        assert re.fullmatch(r"C +Counting +(manual|automatic): [^\n]*\r\n", changed.group(0)), changed.group(0)
    bot.send("v")
    said = await bot.wait(re.compile(r"The door's seed commits to SHA-256 [^\n]*\r\n"))
    assert GROUPS.search(said.group(0)), said.group(0)
    bot.send("1")
    await bot.play()
    bot.send("n")
    await bot.wait(bot.MENU)
    assert "Options for this game" not in bot.text()[options.end():]  # C and V did not say the screen again
    bot.send("5")
    page = await bot.wait(re.compile(r"Recent games of Vi\r\n(.*\r\n)*?Press 1 to review[^\n]*\r\n"))
    assert re.search(r"The seeds of game #\d+ are kept: S says them\.", page.group(0))
    assert not GROUPS.search(page.group(0)), page.group(0)
    bot.send("s")
    seeds = await bot.wait(re.compile(r"Seeds of game #\d+ [^\n]*\r\n(.*\r\n){4}"))
    assert len(GROUPS.findall(seeds.group(0))) == 4, seeds.group(0)  # the door's, its SHA-256, the players'
    bot.send(" ")
    await bot.wait(bot.MENU)
    bot.close()


CHAT_PROMPT = re.compile(r"^(Chat[,;] [^\n]*RETURN on a blank line deals[^\n]*|[A-Z][a-z]+ deals with RETURN on a blank "
                         r"line\.)$")
"""The chat prompt before a hand between two callers, in full or short."""


async def two_readers_at_a_table(door: DoorServer) -> tuple[ListeningBot, ListeningBot]:
    """Lin challenges Bob, both in screen-reader mode, to one game; both
    at the first hand's chat prompt."""
    lin = await connect(door)
    await lin.guest("Lin")
    bob = await connect(door)
    await bob.guest("Bob")
    await lin.wait(OFFERED)
    lin.send("8")
    await lin.wait("1  Bob (guest)")
    await lin.wait("ESC goes back.")
    lin.send("1")
    await lin.wait("Press 1 or 2; ESC goes back.")
    lin.send("1")
    await lin.wait("How long a match?")
    lin.send("1")
    await bob.wait("seconds to answer.")
    bob.send("y")
    for bot in (lin, bob):
        await bot.wait(re.compile(r"(RETURN on a blank line deals|deals with RETURN on a blank line)[^\n]*\r\n"))
    return lin, bob


async def test_a_chat_line_is_followed_by_the_prompt_and_never_splits_typed_keys(door: DoorServer) -> None:
    lin, bob = await two_readers_at_a_table(door)
    bob.send("hi Lin\r")
    heard = await lin.wait(re.compile(r"Bob says: hi Lin\r\n([^\r\n]*)\r\n"))
    assert CHAT_PROMPT.match(heard.group(1)), heard.group(0)  # the prompt again: the chat line was the last said
    lin.send("hel")
    await lin.wait("hel")
    bob.send("yo\r")
    await lin.wait("Bob says: yo\r\n")
    lin.send("lo there\r")
    await bob.wait("Lin says: hello there")
    await lin.wait("there\r\n")
    said = lin.text().replace("\r", "").split("\n")
    after = said[said.index("Bob says: yo") + 1:]
    assert "hello there" in after, after  # what Lin typed, whole on its line after the chat line
    lin.close()
    bob.close()


async def test_a_caller_whose_line_dropped_goes_back_to_the_table_and_hears_where_it_stands(door: DoorServer) -> None:
    """Between two callers: the one whose line dropped at hand three
    goes back to the waiting table and hears the last events and where
    the game stands, not the game so far nor the chat so far."""
    ann = await connect(door)
    await ann.register("Ann", "ann-secret")
    bob = await connect(door)
    await bob.register("Bob", "bob-secret")
    await ann.wait(OFFERED)
    ann.send("8")
    await ann.wait("1  Bob")
    await ann.wait("ESC goes back.")
    ann.send("1")
    await ann.wait("Press 1 or 2; ESC goes back.")
    ann.send("1")
    await ann.wait("How long a match?")
    ann.send("1")
    await bob.wait("seconds to answer.")
    bob.send("y")
    await bob.wait(re.compile(r"(RETURN on a blank line deals|deals with RETURN on a blank line)[^\n]*\r\n"))
    for n in range(12):  # chat lines the game keeps (the one who comes back is not read them all)
        bob.send(f"chat line {n}\r")
        await ann.wait(f"Bob says: chat line {n}")
    (bob if "Bob deals first" in ann.text() else ann).send("\r")  # the first hand's dealer deals

    def at_hand_three(bot: ListeningBot) -> Callable[[str, re.Match[str]], Awaitable[None]]:
        async def hook(kind: str, m: re.Match[str]) -> None:
            if kind == "discard" and re.search(r"^Hand three, ", bot.text(), re.M):
                raise Stop
        return hook

    ann.hook, bob.hook = at_hand_three(ann), at_hand_three(bob)
    ends = await asyncio.gather(ann.play(), bob.play(), return_exceptions=True)
    assert all(isinstance(end, Stop) for end in ends), ends  # both at hand three's discard
    ann.close()  # the line drops at hand three's discard
    await bob.wait("Ann's line dropped.")
    ann = await connect(door)
    await ann.log_in("Ann", "ann-secret")
    await ann.wait("Go back to it?")
    await ann.wait("Press Y or N.")
    ann.send("y")
    start = ann.read_to
    m = await ann.wait(re.compile(r"Type two for[^\n]*\r\n"))
    said = said_lines(ann.text()[start:m.start()])
    assert len(said) <= 10, said
    assert said[0].startswith("You are back in game") and any(line.startswith("Hand three") for line in said), said
    assert not any(line.startswith(("Hand one", "Hand two", "Bob says")) for line in said), said
    ann.close()
    bob.close()
