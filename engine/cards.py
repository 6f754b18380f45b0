"""Cards, pip values, parsing and formatting, and numbered decks.

A card is written as rank then suit: ``"5H"``, ``"TD"``, ``"JS"``, ``"AC"``
(ranks ``A 2-9 T J Q K``, suits ``C D H S``).  Aces are low; the pip value of a
card is its rank with J, Q and K worth 10 (standard rules).

A **game number** (any integer >= 1) fixes every shuffle of a game, on every
Python version: the deck order comes from our own SplitMix64 generator and a
Fisher-Yates shuffle, never from :mod:`random`, whose algorithms may change.
Black Dog Cribbage's game numbers 1..32767 (as in Black Dog Cribbage) are among them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = [
    "Suit", "Card", "CardParseError", "RANKS", "RANK_CHARS", "FULL_DECK",
    "parse_cards", "format_cards", "shuffled_deck", "pip",
]

RANK_CHARS = "A23456789TJQK"
"""Rank letters in rank order; index + 1 is the rank (A=1 .. K=13)."""

RANKS = range(1, 14)


class Suit(enum.IntEnum):
    """The four suits, in bridge order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One-letter name: ``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return "CDHS"[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class CardParseError(ValueError):
    """A string that does not name a card (or a list of distinct cards)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.

    ``rank`` is 1 (ace) .. 13 (king); ``suit`` a :class:`Suit`.  Cards are
    hashable, immutable and ordered by rank then suit.  ``repr`` rebuilds
    the card:

    >>> Card.from_str("td")
    Card.from_str('TD')
    >>> Card.from_str("QH").pip
    10
    """

    rank: int
    suit: Suit
    index: int = field(init=False, compare=False, repr=False, hash=False)
    """0..51: ``(rank - 1) * 4 + suit``; the inverse of :meth:`from_index`."""
    pip: int = field(init=False, compare=False, repr=False, hash=False)
    """Count value in points: A=1, 2..10 face value, J/Q/K = 10."""

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardParseError(f"rank must be 1..13, got {self.rank!r}")
        if not isinstance(self.suit, Suit):
            object.__setattr__(self, "suit", Suit(self.suit))
        # Stored rather than computed: the scorers read them in hot loops.
        object.__setattr__(self, "index", (self.rank - 1) * 4 + int(self.suit))
        object.__setattr__(self, "pip", self.rank if self.rank < 10 else 10)

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse ``"5H"``, ``"TD"``, ``"10d"``, ``"js"`` (case-insensitive).

        Raises :class:`CardParseError` quoting the text when it is not a card.
        """
        s = text.strip().upper()
        if s.startswith("10"):
            s = "T" + s[2:]
        if len(s) != 2 or s[0] not in RANK_CHARS or s[1] not in "CDHS":
            raise CardParseError(f"not a card: {text!r} (expected like '5H', 'TD', 'JS')")
        return _CARDS[RANK_CHARS.index(s[0]) * 4 + "CDHS".index(s[1])]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with index 0..51 (``(rank - 1) * 4 + suit``)."""
        return _CARDS[index]

    @property
    def rank_char(self) -> str:
        """``"A"``, ``"2"`` .. ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``."""
        return RANK_CHARS[self.rank - 1]

    def to_str(self) -> str:
        """The two-letter form, e.g. ``"TD"``; the inverse of :meth:`from_str`."""
        return RANK_CHARS[self.rank - 1] + self.suit.letter

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"Card.from_str({self.to_str()!r})"

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """Pickled as its index, unpickled as the one card of that index
        (a decision crosses to a thinking process as a pickle: a card by
        its fields took a tenth of a millisecond)."""
        return _card, (self.index,)


_CARDS: tuple[Card, ...] = tuple(Card(r, Suit(s)) for r in RANKS for s in range(4))


def _card(index: int) -> Card:
    """The card with ``index``: how a pickled card comes back (a module
    function, pickled once by name; a reference to :meth:`Card.from_index`
    would be pickled again, bound, for every card)."""
    return _CARDS[index]


FULL_DECK: tuple[Card, ...] = _CARDS
"""All 52 cards in index order (AC, AD, AH, AS, 2C, ...)."""


def pip(card: Card) -> int:
    """The count value of ``card`` in points (see :attr:`Card.pip`)."""
    return card.pip


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"4D 4H 5S 6D"`` (or an iterable of card strings) into cards.

    Raises :class:`CardParseError` for a bad card or a repeated card.

    >>> parse_cards("4D 4H 5s")
    (Card.from_str('4D'), Card.from_str('4H'), Card.from_str('5S'))
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(Card.from_str(p) for p in parts)
    if len(set(cards)) != len(cards):
        raise CardParseError(f"repeated card in {text!r}")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """``"4D 4H 5S"``: the inverse of :func:`parse_cards`."""
    return " ".join(c.to_str() for c in cards)


# --- numbered decks -------------------------------------------------------

_MASK64 = (1 << 64) - 1


class _SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output is
    fixed by its definition, so a game number deals the same on every Python."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in ``[0, n)`` by rejection sampling."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n


def shuffled_deck(game_number: int, stream: int) -> list[Card]:
    """The 52 cards in the order fixed by ``game_number`` and ``stream``.

    ``game_number`` is an integer >= 1; ``stream`` >= 0 numbers the shuffles
    within one game (0 is the cut for first deal, hand *k* uses stream *k*).
    Raises ``ValueError`` for a game number below 1 or a negative stream.
    """
    if game_number < 1:
        raise ValueError(f"game number must be >= 1, got {game_number!r}")
    if stream < 0:
        raise ValueError(f"stream must be >= 0, got {stream!r}")
    mixer = _SplitMix64(game_number)
    rng = _SplitMix64(mixer.next64() ^ (stream * 0xD1B54A32D192ED03 & _MASK64))
    deck = list(_CARDS)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck

