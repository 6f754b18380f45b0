"""A caller who reads only the byte stream, as a screen reader does: no terminal emulator.  It keeps every byte, splits the text
into lines, answers prompts by their words, and counts what a screen
reader would trip on (cursor addressing, erase, SGR, box drawing)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from engine.cards import Card

__all__ = ["ReaderBot", "card_of", "NOISE"]

NOISE = {
    "cursor addressing or erase": re.compile(rb"\x1b\[[0-9;?]*[HfABCDGJKsu]|\x1b[78]"),
    "SGR": re.compile(rb"\x1b\[[0-9;]*m"),
    "box drawing": re.compile("[\u2500-\u257f\u2580-\u259f]".encode("utf-8")),
    "CP437 box drawing": re.compile(rb"[\xb0-\xdf]"),
}
"""What must never reach a caller in screen-reader mode."""

_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_SUITS = ("clubs", "diamonds", "hearts", "spades")
_CARD = re.compile(r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades)")


def card_of(words: str) -> Card:
    """``"five of hearts"`` -> the card."""
    m = _CARD.fullmatch(words.strip())
    assert m, words
    return Card(_RANKS.index(m.group(1)) + 1, _SUITS.index(m.group(2)))  # type: ignore[arg-type]


class ReaderBot:
    """The caller's side of a connection: ``write`` sends bytes; feed it
    what the door sends (:meth:`feed`)."""

    def __init__(self, write: Callable[[bytes], object]) -> None:
        self.write = write
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.read_to = 0  # the text before this offset has been answered

    def feed(self, data: bytes) -> None:
        self.raw.extend(data)
        self.changed.set()

    def text(self) -> str:
        return self.raw.decode("utf-8", "replace")

    def lines(self) -> list[str]:
        return [line for line in self.text().replace("\r", "").split("\n")]

    def noise(self) -> dict[str, int]:
        """How many of each kind of :data:`NOISE` the stream holds."""
        return {name: len(p.findall(bytes(self.raw))) for name, p in NOISE.items()}

    async def wait_for(self, words: str | re.Pattern[str], timeout: float = 20.0) -> re.Match[str]:
        """Wait until ``words`` appear after what was answered; returns the
        match and marks everything up to its end as read."""
        pattern = words if isinstance(words, re.Pattern) else re.compile(re.escape(words))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            m = pattern.search(self.text(), self.read_to)
            if m:
                self.read_to = m.end()
                return m
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"{pattern.pattern!r} never came; the last lines:\n" +
                                     "\n".join(self.text()[self.read_to:].splitlines()[-15:]))
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    def send(self, text: str) -> None:
        self.write(text.encode())


PROMPTS = re.compile(
    r"Type two for [^\n]*crib\.|"
    r"Your turn at [a-z\-]+: [^\n]*\.\r\n|"
    r"Count your (hand|crib): [^\n]*Points: |"
    r"RETURN on a blank line deals[^\n]*|RETURN deals\.|"
    r"deals with RETURN on a blank line[^\n]*|"
    r"(Play again|Rematch)\? Press Y or N\.|"
    r"Press a key to go on\.")


def count_of(prompt: str) -> int:
    """The points of the hand or crib a count prompt names ("four, five,
    jack of hearts, queen; starter king of hearts": a card said by its rank
    alone has a suit that cannot score)."""
    from bench.listening import _card, _score

    m = re.search(r"Count your (?:hand|crib): (.*); starter (.*?)\. Points", prompt)
    assert m, prompt
    cards = [_card(c) for c in m.group(1).split(", ")]
    return _score(cards, _card(m.group(2)), "crib" in prompt.split(":")[0])


def playable(prompt: str) -> str:
    """The number of the first card a play prompt offers ("Your turn at
    twelve: 1 nine, 3 jack."): it offers only cards that keep the count to 31."""
    m = re.search(r"Your turn at ([a-z\-]+): (\d+) ", prompt)
    assert m, prompt
    return m.group(2)
