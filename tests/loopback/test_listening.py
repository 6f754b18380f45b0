"""A blind caller's evening, by a caller who reads only the byte stream
(TERM=dumb): games in a row through "Play again? Y", Ctrl-L saying the
phase's own table and prompt, L holding both sides' moves, both scores
after every change, what every hand must say (the checklist), a failing
presentation that takes the caller back to the menu rather than hanging
up, and the first line clean for a caller who types S at once."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.listening import ListeningBot, Transcript
from door.server import DoorServer
from tests.support.reader_bot import NOISE
from tests.support.server import make_config, running

PLAY = re.compile(r"^(You|Computer): (ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king), "
                  r"([a-z\-]+)[.,]", re.M)
"""A card played, by rank, with the count it makes."""

SCORE = re.compile(r"(You|Computer) \d+, (you|Computer) \d+\.")
"""Both scores, the scorer's first."""

SCORING = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) for (fifteen|thirty-one|"
                     r"a pair|a pair royal|a double pair royal|a run of [a-z]+|the go|last card)|His heels")
"""A peg in the play (with its reason) or his heels."""

COUNTS = {w: n for n, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
     *[f"twenty-{w}" for w in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")],
     "thirty", "thirty-one"])}
PIPS = {r: min(10, i + 1) for i, r in enumerate(
    ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"])}


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


async def blind_guest(door: DoorServer) -> ListeningBot:
    bot = await ListeningBot.connect(door.telnet_port)
    await bot.guest("Lis")
    return bot


async def play_the_computer(bot: ListeningBot, number: int | None = None) -> None:
    if number is None:
        bot.send("1")
    else:
        bot.send("2")
        await bot.wait("Game number: ")
        bot.send(f"{number}\r")
    await bot.wait(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    bot.send("1")


def hands_of(transcript: Transcript) -> list[str]:
    """The transcript cut at each hand's first line ("Hand two, you deal.")."""
    parts = re.split(r"(?m)^(?=Hand [a-z\-]+, )", transcript.text.replace("\r", ""))
    return [p for p in parts if p.startswith("Hand ")]


def check_hand(hand: str, last: bool) -> None:
    """What every hand must say: own cards, own discards, the starter,
    every card played with the count it makes, go before the point for
    it, every peg with its reason and both scores after it, each show with
    its breakdown, each claim's verdict.  ``last``: the game ended in it
    (its end may cut it short)."""
    assert re.search(r"^Your cards: [a-z]+, 1 ", hand, re.M), hand
    assert re.search(r"^Laid away: [a-z]+ of [a-z]+, [a-z]+ of [a-z]+\.", hand, re.M), hand
    if last and "Starter:" not in hand:
        return
    assert re.search(r"^Starter: [a-z]+ of [a-z]+\.", hand, re.M), hand
    count = 0
    plays = PLAY.findall(hand)
    for who, rank, said in plays:
        count = count + PIPS[rank] if count + PIPS[rank] <= 31 else PIPS[rank]
        if COUNTS[said] != count:  # a go or 31 started the count again
            count = PIPS[rank]
        assert COUNTS[said] == count, (who, rank, said, hand)
    if not last:
        assert len(plays) == 8, hand  # every card of both hands
    for line in hand.split("\n"):
        if SCORING.search(line) and not line.startswith("Your pegging"):
            assert SCORE.search(line), line  # both scores after the change, in the same line
        if "one for the go" in line:
            assert re.search(r": go\.", hand), hand
    shows = re.findall(r"^(Computer's (hand|crib): .*|Count your (hand|crib): .*)$", hand, re.M)
    if not last:
        assert len(shows) == 3, hand  # pone's hand, dealer's hand, the crib
    for show in re.findall(r"^Computer's (?:hand|crib): [^\n]*", hand, re.M):
        assert re.search(r"(fifteen two|a pair|pair royal|a run|a flush|nobs|[Nn]othing)", show, re.I), show
        assert SCORE.search(show) or "Nothing" in show, show
    for claim in re.findall(r"^Count your (?:hand|crib): [^\n]*Points: \d+\n[^\n]*", hand, re.M):
        verdict = claim.split("\n")[1]
        assert re.search(r": right\.|short\.|but it is worth", verdict), claim


async def test_three_games_in_a_row_through_play_again(door: DoorServer) -> None:
    """"Play again? Y" dropped a blind caller's line (the next game's cut
    for first deal has no cards: the loser deals).  Three games in a row,
    each to its end, and every hand says what it must."""
    bot = await blind_guest(door)
    seeds: list[str] = []

    async def seeds_on_request(kind: str, m: re.Match[str]) -> None:
        if kind == "discard" and not seeds:  # K: the seeds, in groups of four a person can compare
            bot.send("k")
            seeds.append((await bot.wait(re.compile(r"Shuffle: the door's seed commits to ([0-9a-f]{4} ){15}"
                                                    r"[0-9a-f]{4} \(SHA-256\)"))).group(0))

    bot.hook = seeds_on_request
    await play_the_computer(bot)
    games = []
    for n in range(3):
        games.append(await bot.play())
        assert re.search(r"(You win|Computer wins), 6[1-9] to \d+\.", games[-1].text), games[-1].text[-500:]
        bot.send("y" if n < 2 else "n")
    await bot.wait(bot.MENU)
    assert re.search(r"(You deal|Computer deals) first\.", games[1].text)  # the loser deals: no cut said
    assert seeds and not re.search(r"[0-9a-f]{64}", bot.text())  # said on request, never a 64-digit string
    assert "The shuffle's seeds are fixed; K reads them." in games[0].text
    for game in games:
        hands = hands_of(game)
        assert hands
        for i, hand in enumerate(hands):
            check_hand(hand, last=i == len(hands) - 1)
    assert NOISE["SGR"].search(bytes(bot.raw)) is None and b"\x1b" not in bot.raw
    bot.close()


async def test_ctrl_l_says_the_phase_and_l_holds_both_sides_moves(door: DoorServer) -> None:
    bot = await blind_guest(door)
    seen: dict[str, str] = {}

    async def reread(kind: str, m: re.Match[str]) -> None:
        if kind in ("discard", "play", "count") and kind not in seen:
            bot.send("\x0c")  # Ctrl-L: this phase's table and prompt, not the last page shown
            said = await bot.wait(re.compile(r"Hand [a-z\-]+, [^\n]*\r\n([^\n]*\r\n){0,2}[^\n]*(Type two for|"
                                             r"Your turn at|Count your)[^\n]*"))
            seen[kind] = said.group(0)
        if kind == "play" and "l" not in seen and "You:" in bot.text():
            bot.send("l")
            seen["l"] = (await bot.wait(re.compile(r"The last ten events:\r\n(.+\r\n)+"))).group(0)

    bot.hook = reread
    await play_the_computer(bot, 1234)
    await bot.play()
    assert "Options" not in "".join(seen.values()) and "Press G, C" not in "".join(seen.values())
    assert "Type two for" in seen["discard"] and "Scores: you 0, Computer 0" in seen["discard"]
    assert "Your turn at" in seen["play"] and "The starter is the" in seen["play"]
    assert "Count your" in seen["count"] and "The starter is the" in seen["count"]
    # the caller's own moves are in the last ten events, beside the computer's
    assert "Laid away:" in seen["l"] and re.search(r"You: [a-z]+, ", seen["l"]), seen["l"]
    bot.close()


async def test_a_failing_presentation_takes_the_caller_back_to_the_menu(door: DoorServer,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Any error in a presentation is logged, and the caller is told in a
    line and taken back to the menu: never hung up on."""
    from door.play import line_seat

    def broken(*args: object) -> list[str]:
        raise IndexError("a presentation that fails")

    bot = await blind_guest(door)
    monkeypatch.setattr(line_seat, "spoken", broken)
    await play_the_computer(bot)
    await bot.wait("The door could not show the game")
    await bot.wait("Press any key.")
    bot.send(" ")
    await bot.wait(bot.MENU)
    monkeypatch.undo()
    bot.send("4")  # the line is up, the menu answers
    await bot.wait("Top players")
    bot.close()


async def test_s_typed_at_the_first_line_brings_no_escape_sequence(tmp_path: Path) -> None:
    """The first line waits a moment for S: a caller whose terminal is not
    dumb, who types S at once, hears plain lines and nothing else; a
    sighted caller's first key draws the full screen at once, and is the
    name's first letter."""
    config = make_config(tmp_path / "data")
    config.server.reader_wait = 5.0
    async with running(config) as door:
        bot = await ListeningBot.connect(door.telnet_port, term="xterm")
        await bot.wait("Type S and press RETURN for screen-reader mode.\r\n")
        bot.send("s\r")
        await bot.wait("Screen-reader mode is on")
        await bot.wait("Your name: ")
        assert b"\x1b" not in bot.raw, bytes(bot.raw)
        bot.close()
        sighted = await ListeningBot.connect(door.telnet_port, term="xterm")
        await sighted.wait("screen-reader mode.\r\n")
        sighted.send("A")
        await sighted.wait("Your name:")  # drawn at once, not after the wait
        await sighted.wait(re.compile("A"))
        assert b"\x1b[" in sighted.raw
        sighted.close()


async def test_every_hand_of_a_numbered_game_says_what_it_must(door: DoorServer) -> None:
    """The checklist on every hand of a game dealt from its number (the
    same cards on every run): nothing the cuts took out is missing."""
    bot = await blind_guest(door)
    await play_the_computer(bot, 4242)
    game = await bot.play()
    hands = hands_of(game)
    assert len(hands) >= 4
    for i, hand in enumerate(hands):
        check_hand(hand, last=i == len(hands) - 1)
    bot.send("n")
    await bot.wait(bot.MENU)
    bot.close()
