"""How long a blind caller listens: a bot plays whole games in
screen-reader mode (a telnet caller whose terminal is ``dumb``), reading
only the byte stream and choosing every move from the words; the stream
of each game goes through Debian's ``espeak-ng`` at 300 words a minute (a
fast screen-reader rate) into a WAV file, and the benchmark prints the
seconds of speech a hand and a game, the words a hand, the lines an event
and the longest line.

    python3 -m bench.listening                 # 3 numbered games to 121
    python3 -m bench.listening --games 5 --first 2000 --game-to 61
    python3 -m bench.listening --call-again 5    # calling again at hand 5

The games are numbered games (``--first``, ``--first + 1``, ...): the same
deals on every run and every version of the door, so two versions are
compared on the same cards.  The bot reads both the prompts of today and
those of earlier versions ("Your cards: 1, five of hearts; 2, ...").
With ``--call-again HAND`` it measures instead what a registered caller
hears on calling again at that hand's discard (the line dropped there),
from "Resume it? Y" to the prompt.
Without ``espeak-ng`` the seconds are estimated from the words at 300 a
minute (and the table says so).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["main", "Transcript", "ListeningBot", "play_games", "call_again", "speech_seconds", "measure"]

RATE = 300
"""Words a minute: a fast screen-reader rate (users listen at 300 to 450)."""

_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_SUITS = ("clubs", "diamonds", "hearts", "spades")
_CARD = re.compile(r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                   r"(clubs|diamonds|hearts|spades)")
_NUMBERED = re.compile(r"(\d+),? (ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)\b")
_COUNT_WORDS = {w: n for n, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
     *[f"twenty-{w}" for w in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")],
     "thirty", "thirty-one"])}
_PIP = {r: min(10, i + 1) for i, r in enumerate(_RANKS)}
_WORDS = {n: w for w, n in _COUNT_WORDS.items()}

PROMPT = re.compile(
    r"Type (?:the numbers? of two cards|two numbers|two) for[^\n]*|"
    r"Your turn(?:, count| at) (?P<count>[a-z\-]+)[.:] (?P<cards>[^\n]*?)\.(?: Type the number[^\n]*)?\r?\n|"
    r"Count your (?P<what>hand|crib): (?P<shown>[^\n]*?)(?:, with the starter |; (?:the )?starter )"
    r"(?P<starter>[a-z ]+?)\. (?:Type the points, then RETURN|Points): |"
    r"(?P<deal>RETURN (?:on a blank line )?deals[^\n]*|deals: RETURN\.)|"
    r"(?P<again>Play again)\? Press Y or N[^\n]*|"
    r"Press a key to go on\.")
"""Every prompt the bot answers, in today's words and earlier ones."""


@dataclass
class Transcript:
    """What one game said: its ``text`` (the lines, as sent), from the
    first deal to "Play again?"."""

    text: str

    @property
    def lines(self) -> list[str]:
        return [line for line in self.text.replace("\r", "").split("\n") if line.strip()]

    @property
    def hands(self) -> int:
        """Hands dealt: the lines that open one ("Hand three. You deal; ...")."""
        return sum(1 for line in self.lines if re.match(r"Hand [a-z\-]+[.,]", line))

    @property
    def words(self) -> int:
        return len(self.text.split())


def _score(cards: list[tuple[int, int | None]], starter: tuple[int, int | None], crib: bool) -> int:
    """The show of ``cards`` with ``starter``; a suit of ``None``: the door
    said the rank alone (that suit cannot score), so any suit that makes no
    flush, no nobs and no duplicate does."""
    from engine.cards import Card
    from engine.scoring import score_show

    taken = {(r, s) for r, s in [*cards, starter] if s is not None}
    jack_suits = {s for r, s in cards if r == 11 and s is not None}

    def fill(rank: int, avoid: set[int], k: int) -> int:
        suit = next(x for x in [*range(k % 4, 4), *range(0, k % 4)] if (rank, x) not in taken and x not in avoid)
        taken.add((rank, suit))
        return int(suit)

    hand = [(r, s if s is not None else fill(r, set(), i)) for i, (r, s) in enumerate(cards)]
    top = starter if starter[1] is not None else (starter[0], fill(starter[0], jack_suits, 0))
    return score_show([Card(r, s) for r, s in hand], Card(*top), is_crib=crib).total  # type: ignore[arg-type]


def _card(words: str) -> tuple[int, int | None]:
    """A card said in full, or by its rank alone (suit ``None``)."""
    m = _CARD.search(words)
    if m:
        return _RANKS.index(m.group(1)) + 1, _SUITS.index(m.group(2))
    return _RANKS.index(words.strip()) + 1, None


def _discard(said: str, dealer: bool) -> str:
    """The numbers of the two cards to lay away, as a fair player would
    (the expert's ranking), from the last "Your cards: ..." said."""
    from engine.cards import Card
    from engine.expert import rank_discards

    listed = said[said.rindex("Your cards:"):].split("\n")[0]
    cards = [Card(_RANKS.index(r) + 1, _SUITS.index(s)) for r, s in _CARD.findall(listed)]  # type: ignore[arg-type]
    if len(cards) != 6:  # by suit: "clubs, 1 two, 2 jack; hearts, 3 king"
        cards = []
        for group in listed.split(": ", 1)[1].split(". ")[0].split("; "):
            suit, *ranks = group.split(", ")
            cards += [Card(_RANKS.index(r.split()[1]) + 1, _SUITS.index(suit)) for r in ranks]  # type: ignore[arg-type]
    if len(cards) != 6:
        return "12"
    best = rank_discards(cards, dealer)[0].thrown
    return "".join(str(cards.index(c) + 1) for c in best)


def _play(count: int, choices: list[tuple[str, str]]) -> str:
    """A card to play on ``count`` from the numbered ranks offered, as a
    plain player would: fifteen or thirty-one if it can, not five or
    twenty-one if it can help it, else its highest card."""
    legal = [(n, _PIP[rank]) for n, rank in choices if count + _PIP[rank] <= 31]
    assert legal, (count, choices)
    for n, pip in legal:
        if count + pip in (15, 31):
            return n
    safe = [(n, pip) for n, pip in legal if count + pip not in (5, 21)] or legal
    return max(safe, key=lambda c: c[1])[0]


class ListeningBot:
    """A caller who reads only the byte stream of a telnet connection
    (``reader``/``writer``, TERM=dumb): :meth:`wait` for words after what
    was answered, :meth:`send` keys, :meth:`play` a game to "Play again?"
    answering every prompt by its words.  ``hook(kind, match)`` is awaited
    before each prompt is answered (kinds: "discard", "play", "count",
    "deal", "key"), for a test to read the table again there."""

    MENU = re.compile(r"Press 1, 2, [^\n]* or Q\.")

    def __init__(self, reader: Any, writer: Any, timeout: float = 120.0) -> None:
        self.reader, self.writer, self.timeout = reader, writer, timeout
        self.raw = bytearray()
        self.read_to = 0
        self.hook: Callable[[str, re.Match[str]], Awaitable[None]] | None = None

    @classmethod
    async def connect(cls, port: int, term: str = "dumb") -> ListeningBot:
        import telnetlib3

        reader, writer = await telnetlib3.open_connection("127.0.0.1", port, encoding=False, term=term, cols=80,
                                                          rows=24, connect_minwait=0.05)
        return cls(reader, writer)

    def text(self, start: int = 0) -> str:
        return self.raw[start:].decode("utf-8", "replace")

    async def wait(self, pattern: re.Pattern[str] | str) -> re.Match[str]:
        """The first match of ``pattern`` after what was read; marks it read."""
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            m = regex.search(self.raw.decode("utf-8", "replace"), self.read_to)
            if m:
                self.read_to = m.end()
                return m
            try:
                data = await asyncio.wait_for(self.reader.read(65536), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise TimeoutError(f"{regex.pattern!r} never came: {self.text()[-600:]!r}") from None
            if not data:
                raise ConnectionError(f"the door hung up: {self.text()[-300:]!r}")
            self.raw.extend(data)

    def send(self, text: str) -> None:
        self.writer.write(text.encode())

    async def guest(self, name: str = "Listener") -> None:
        await self.wait("Your name: ")
        self.send(name + "\r")
        await self.wait("Press R, G or B.")
        self.send("g")
        await self.wait(self.MENU)

    async def register(self, name: str, password: str) -> None:
        """Register ``name`` with ``password``, to the main menu."""
        await self.wait("Your name: ")
        self.send(name + "\r")
        await self.wait("Press R, G or B.")
        self.send("r")
        for _ in range(2):
            await self.wait("Password: ")
            self.send(password + "\r")
        await self.wait(self.MENU)

    async def log_in(self, name: str, password: str) -> None:
        """Log in as ``name`` (what comes next, a kept game's question or
        the menu, is left to the caller)."""
        await self.wait("Your name: ")
        self.send(name + "\r")
        await self.wait("Password: ")
        self.send(password + "\r")

    async def play(self) -> Transcript:
        """Answer every prompt until "Play again?" (left unanswered);
        returns what the game said."""
        start = self.read_to
        while True:
            m = await self.wait(PROMPT)
            prompt = m.group(0)
            if prompt.startswith("Type "):
                kind = "discard"
            elif m.group("count") is not None:
                kind = "play"
            elif m.group("what") is not None:
                kind = "count"
            elif m.group("deal") is not None:
                kind = "deal"
            elif prompt.startswith("Press a key"):
                kind = "key"
            else:
                return Transcript(self.raw.decode("utf-8", "replace")[start:self.read_to])
            if self.hook is not None:
                await self.hook(kind, m)
            if kind == "discard":
                self.send(_discard(self.raw.decode("utf-8", "replace")[:m.end()], "your crib" in prompt))
            elif kind == "play":
                self.send(_play(_COUNT_WORDS[m.group("count")], _NUMBERED.findall(m.group("cards"))))
            elif kind == "count":
                cards = [_card(c) for c in re.split(r", | and ", m.group("shown"))]
                self.send(f"{_score(cards, _card(m.group('starter')), m.group('what') == 'crib')}\r")
            elif kind == "deal":
                self.send("\r")
            else:
                self.send(" ")

    def close(self) -> None:
        self.writer.close()


async def play_games(port: int, games: int, first: int) -> list[Transcript]:
    """Log in as a guest over telnet with TERM=dumb and play ``games``
    numbered games from ``first``, answering every prompt by its words;
    returns each game's transcript."""
    bot = await ListeningBot.connect(port)
    await bot.guest()
    transcripts = []
    for number in range(first, first + games):
        bot.send("2")
        await bot.wait("Game number: ")
        bot.send(f"{number}\r")
        await bot.wait(re.compile(r"Press [^\n]*Q; ESC goes back\."))
        bot.send("1")
        transcripts.append(await bot.play())
        bot.send("n")
        await bot.wait(bot.MENU)
    bot.send("q")
    bot.close()
    return transcripts


class _Stop(Exception):
    """Leaves :meth:`ListeningBot.play` at a prompt."""


async def call_again(port: int, number: int, hand: int) -> Transcript:
    """A registered caller plays numbered game ``number`` to hand
    ``hand``'s discard, the line drops, and the caller calls again and
    resumes the game: returns what was said from the answer to "Resume
    it?" to the next prompt."""
    bot = await ListeningBot.connect(port)
    await bot.register("Caller", "caller-secret")
    bot.send("2")
    await bot.wait("Game number: ")
    bot.send(f"{number}\r")
    await bot.wait(re.compile(r"Press [^\n]*Q; ESC goes back\."))
    bot.send("1")

    async def stop(kind: str, m: re.Match[str]) -> None:
        if kind == "discard" and re.search(rf"^Hand {_WORDS[hand]}[.,]", bot.text(), re.M):
            raise _Stop

    bot.hook = stop
    try:
        await bot.play()
        raise RuntimeError(f"game {number} ended before hand {hand}")
    except _Stop:
        bot.close()
    bot = await ListeningBot.connect(port)
    await bot.log_in("Caller", "caller-secret")
    await bot.wait("Press Y or N.")
    bot.send("y")
    start = bot.read_to
    await bot.wait(PROMPT)
    said = Transcript(bot.text()[start:bot.read_to])
    bot.close()
    return said


def speech_seconds(text: str, rate: int = RATE) -> float | None:
    """Seconds ``espeak-ng`` takes to say ``text`` at ``rate`` words a
    minute (frames over frame rate of the WAV it writes); ``None`` when
    ``espeak-ng`` is not installed."""
    if shutil.which("espeak-ng") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        source, wav = Path(tmp) / "said.txt", Path(tmp) / "said.wav"
        source.write_text(text.replace("\r", ""), encoding="utf-8")
        subprocess.run(["espeak-ng", "-s", str(rate), "-w", str(wav), "-f", str(source)], check=True,
                       capture_output=True)
        with wave.open(str(wav)) as w:
            return float(w.getnframes()) / float(w.getframerate())


def measure(transcripts: list[Transcript]) -> dict[str, float]:
    """The figures of ``transcripts``: hands, words, lines and bytes a
    hand, seconds of speech a hand and a game, lines an event (a hand's
    lines over the events a hand has: the deal, two discards, the starter,
    eight cards, about two gos, three counts), the longest line."""
    text = "".join(t.text for t in transcripts)
    hands = sum(t.hands for t in transcripts) or 1
    lines = [line for t in transcripts for line in t.lines]
    seconds = speech_seconds(text)
    estimated = seconds is None
    if seconds is None:
        seconds = sum(t.words for t in transcripts) / RATE * 60
    return {"games": len(transcripts), "hands": hands, "bytes_hand": len(text.encode()) / hands,
            "lines_hand": len(lines) / hands, "words_hand": sum(t.words for t in transcripts) / hands,
            "seconds_hand": seconds / hands, "seconds_game": seconds / max(1, len(transcripts)),
            "lines_event": len(lines) / hands / 17, "longest": max((len(line) for line in lines), default=0),
            "mean_line": sum(len(line) for line in lines) / max(1, len(lines)), "estimated": float(estimated)}


async def _run(games: int, first: int, game_to: int, again: int = 0) -> list[Transcript]:
    from door.config import Config
    from door.server import DoorServer
    from engine.rules import Rules

    with tempfile.TemporaryDirectory() as tmp:
        config = Config()
        config.server.telnet_port = config.server.ssh_port = config.web.port = 0
        config.server.data_dir = tmp
        config.computer.delay = 0.0
        config.computer.processes = 0  # (the pauses after a score and a hand are the door's own: 1 s and 2 s)
        config.rules = Rules(game_to=game_to)
        server = DoorServer(config)
        await server.start()
        try:
            if again:
                return [await call_again(server.telnet_port, first, again)]
            return await play_games(server.telnet_port, games, first)
        finally:
            await server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.listening", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="numbered games to play (default 3)")
    parser.add_argument("--first", type=int, default=1000, help="the first game number (default 1000)")
    parser.add_argument("--game-to", type=int, default=121, choices=(61, 121))
    parser.add_argument("--save", type=Path, help="write the transcripts to this file too")
    parser.add_argument("--call-again", type=int, default=0, metavar="HAND",
                        help="instead: drop the line at hand HAND of game --first, call again, and measure what is "
                             "said before the prompt (2 to 9)")
    args = parser.parse_args(argv)
    if args.call_again and not 2 <= args.call_again <= 9:
        parser.error("--call-again takes a hand from 2 to 9")
    transcripts = asyncio.run(_run(args.games, args.first, args.game_to, args.call_again))
    if args.call_again:
        said = transcripts[0]
        seconds = speech_seconds(said.text)
        how = "espeak-ng" if seconds is not None else "estimated from the words"
        seconds = seconds if seconds is not None else said.words / RATE * 60
        print(f"calling again at hand {args.call_again} of game {args.first}: {len(said.lines)} lines, "
              f"{said.words} words, {seconds:.1f} s of speech before the prompt ({how})")
        return 0
    if args.save:
        args.save.write_text("\n\n".join(t.text.replace("\r", "") for t in transcripts), encoding="utf-8")
    f = measure(transcripts)
    how = "estimated from the words" if f["estimated"] else "espeak-ng"
    print(f"screen-reader mode, {f['games']:.0f} games, {f['hands']:.0f} hands, speech at {RATE} words a minute "
          f"({how})")
    print(f"  speech a hand   {f['seconds_hand']:7.1f} s     a game {f['seconds_game']:7.1f} s")
    print(f"  words a hand    {f['words_hand']:7.1f}       bytes a hand {f['bytes_hand']:7.0f}")
    print(f"  lines a hand    {f['lines_hand']:7.1f}       lines an event {f['lines_event']:5.2f}")
    print(f"  longest line    {f['longest']:7.0f}       mean line {f['mean_line']:5.1f} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
