"""A shuffle anyone can verify: every deal of a game from seeds.

Before the cut for first deal the door shows a **commitment**: the SHA-256
of a 256-bit **server seed** drawn from :mod:`secrets`, beside each player's
own **player seed** (typed by the player, or drawn for their session).  The
server seed is revealed when the game is over.  Every shuffle of the game
comes from those seeds, so the deck of every hand was fixed before the first
card was dealt, and anyone holding the seeds can deal the game again:

1. ``key = bytes.fromhex(server_seed)`` (32 bytes);
   ``message(hand, block) = f"cribbage-door/1/{game}/{hand}/{seed0}/{seed1}/{block}"``
   in ASCII, where ``game`` is the game number, ``hand`` the shuffle
   (0 the cut for first deal, *k* hand *k*), ``seed0``/``seed1`` the
   player seeds (64 lowercase hex digits each) and ``block`` = 0, 1, 2, ...
2. The random words are the 32-bit big-endian words of
   ``HMAC-SHA256(key, message(hand, 0))``, then of block 1, and so on.
3. Start from the deck in order ``AC AD AH AS 2C 2D ... KH KS`` (ranks ace
   to king, suits clubs, diamonds, hearts, spades) and shuffle it by
   Fisher-Yates: for ``i`` = 51 down to 1, draw words until one is below
   ``2**32 - 2**32 % (i + 1)`` (rejection sampling: no modulo bias), let
   ``j`` = that word ``% (i + 1)``, and swap cards ``i`` and ``j``.
4. The pone gets cards 0, 2, ..., 10, the dealer 1, 3, ..., 11, and card 12
   is the starter (the cut).  Shuffle 0 is cut in pairs for first deal:
   cards 0 and 1, then 2 and 3 while they tie; the lower card deals.

**The commitment comes first.**  The door does not draw a game's seed
when the game starts, knowing the players' seeds: when a caller calls it
draws a :class:`SeedChain`, a last seed at random and every earlier one
the SHA-256 of the next (``seed[n - 1] = SHA-256(seed[n])``), and shows
the commitment of its first seed (the chain's *anchor*) before the caller
can set their own seed.  Game *n* of the call is dealt from ``seed[n]``,
whose commitment is ``seed[n - 1]``: the seed revealed at the end of the
game before.  So one commitment, shown before the player chose, fixes
every later game of the call, and each game is still checked on its own
as above.  The game number comes from the seed too
(:func:`game_number`), so the door cannot choose it either.

This module is pure: no I/O, no clock, no randomness of its own (the door
draws the seeds: :func:`door.play.table.new_seed`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK, Card

__all__ = ["COMPUTER_SEED", "SeedChain", "SeededShuffle", "ShuffleError", "VERSION", "commitment", "game_number",
           "player_seed", "seeded_deck", "CHAIN_LENGTH", "NUMBERS"]

CHAIN_LENGTH = 256
"""Games one :class:`SeedChain` deals (a caller who plays more gets a new
chain, with a new anchor, announced before its first game)."""

NUMBERS = 999_999
"""Game numbers run 1 to this."""

VERSION = "cribbage-door/1"
"""The name of this algorithm, the first part of every HMAC message."""

COMPUTER_SEED = "0" * 64
"""The player seed of a seat the door plays itself (the computer): its part
of the shuffle is the server seed."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


class ShuffleError(ValueError):
    """Seeds that are not 64 lowercase hex digits, or a record of a shuffle
    that cannot be read; the message says which."""


def commitment(server_seed: str) -> str:
    """The commitment to ``server_seed``: SHA-256 of its 32 bytes (not of its
    hex text), as 64 hex digits.  Raises :class:`ShuffleError` for a seed
    that is not 64 lowercase hex digits."""
    return hashlib.sha256(_seed_bytes(server_seed, "server seed")).hexdigest()


def player_seed(text: str) -> str:
    """A player seed from whatever a player typed: 64 hex digits as typed
    (lowercased), anything else by SHA-256 of its UTF-8 bytes (so a word
    a player can remember is a seed)."""
    low = text.strip().lower()
    if _HEX64.fullmatch(low):
        return low
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def game_number(server_seed: str) -> int:
    """The game number (1 to :data:`NUMBERS`) of the game dealt from
    ``server_seed``: fixed by the seed, so the door cannot pick a number
    for a deal it likes after seeing the players' seeds.  Raises
    :class:`ShuffleError` for a malformed seed.

    >>> game_number("00" * 32)
    548723
    """
    digest = hashlib.sha256(f"{VERSION}/number/".encode("ascii") + _seed_bytes(server_seed, "server seed")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % NUMBERS


@dataclass
class SeedChain:
    """The door's seeds for the games of one call (see the module): from
    the random ``top`` (64 hex digits, the chain's last seed), ``length``
    seeds, each earlier one the SHA-256 of the next; ``used`` of them have
    dealt a game.  Raises :class:`ShuffleError` for a malformed ``top`` or
    a ``length`` below 1.

    >>> chain = SeedChain("ab" * 32, 3)
    >>> first = chain.take()
    >>> commitment(first) == chain.anchor and commitment(chain.take()) == first
    True
    """

    top: str
    length: int = CHAIN_LENGTH
    used: int = 0

    def __post_init__(self) -> None:
        _seed_bytes(self.top, "top seed")
        if self.length < 1:
            raise ShuffleError(f"a chain holds at least one seed, got {self.length!r}")

    def seed(self, n: int) -> str:
        """Seed ``n`` (1 to ``length``): SHA-256 applied ``length - n`` times to ``top``."""
        if not 1 <= n <= self.length:
            raise ValueError(f"seed {n!r} of a chain of {self.length}")
        seed = bytes.fromhex(self.top)
        for _ in range(self.length - n):
            seed = hashlib.sha256(seed).digest()
        return seed.hex()

    @property
    def anchor(self) -> str:
        """The commitment to the chain's first seed (shown before the caller sets a seed)."""
        return commitment(self.seed(1))

    @property
    def left(self) -> int:
        """Seeds not used yet."""
        return self.length - self.used

    @property
    def next_commitment(self) -> str:
        """The commitment of the seed :meth:`take` gives next: the anchor,
        or the seed used last.  Raises ``ValueError`` when none is left."""
        if self.used == 0:
            return self.anchor
        if self.left == 0:
            raise ValueError("the chain is used up")
        return self.seed(self.used)

    def take(self) -> str:
        """The next seed, for the next game.  Raises ``ValueError`` when
        the chain is used up."""
        if self.left == 0:
            raise ValueError("the chain is used up")
        self.used += 1
        return self.seed(self.used)


def _seed_bytes(seed: str, what: str) -> bytes:
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise ShuffleError(f"{what} must be 64 lowercase hex digits, got {seed!r}")
    return bytes.fromhex(seed)


def _words(key: bytes, prefix: bytes) -> Any:
    """The endless stream of 32-bit words for one shuffle."""
    block = 0
    while True:
        digest = hmac.new(key, prefix + str(block).encode("ascii"), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(digest[k:k + 4], "big")
        block += 1


def seeded_deck(server_seed: str, player_seeds: tuple[str, str], game: int, hand: int) -> list[Card]:
    """The 52 cards of shuffle ``hand`` (0 the cut for first deal, *k* hand
    *k*) of game number ``game``, by the algorithm in this module's
    docstring.  Raises :class:`ShuffleError` for a malformed seed and
    ``ValueError`` for a game number below 1 or a negative hand."""
    if game < 1 or hand < 0:
        raise ValueError(f"game must be >= 1 and hand >= 0, got {game!r}, {hand!r}")
    key = _seed_bytes(server_seed, "server seed")
    for n, seed in enumerate(player_seeds):
        _seed_bytes(seed, f"player seed {n}")
    prefix = f"{VERSION}/{game}/{hand}/{player_seeds[0]}/{player_seeds[1]}/".encode("ascii")
    words = _words(key, prefix)
    deck = list(FULL_DECK)
    for i in range(51, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class SeededShuffle:
    """The seeds of one game's shuffles: ``server_seed`` and both
    ``player_seeds`` (64 hex digits each), and ``game``, its number (>= 1).
    Raises :class:`ShuffleError` for a malformed seed."""

    game: int
    server_seed: str
    player_seeds: tuple[str, str]

    def __post_init__(self) -> None:
        _seed_bytes(self.server_seed, "server seed")
        for n, seed in enumerate(self.player_seeds):
            _seed_bytes(seed, f"player seed {n}")
        if len(self.player_seeds) != 2:
            raise ShuffleError(f"two player seeds, got {len(self.player_seeds)}")
        if not isinstance(self.game, int) or self.game < 1:
            raise ShuffleError(f"game number must be an integer >= 1, got {self.game!r}")

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed (:func:`commitment`), shown before the cut."""
        return commitment(self.server_seed)

    def deck(self, hand: int) -> list[Card]:
        """The 52 cards of shuffle ``hand`` (:func:`seeded_deck`)."""
        return seeded_deck(self.server_seed, self.player_seeds, self.game, hand)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in the store: ``{"version", "server_seed",
        "commitment", "player_seeds"}`` (the game number is kept beside it)."""
        return {"version": VERSION, "server_seed": self.server_seed, "commitment": self.commitment,
                "player_seeds": list(self.player_seeds)}

    @classmethod
    def from_dict(cls, game: int, data: Any) -> SeededShuffle:
        """The shuffle of game ``game`` from :meth:`to_dict`'s form.  Raises
        :class:`ShuffleError` for another version, a missing or malformed
        seed, or a commitment that does not match the server seed."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ShuffleError(f"not a {VERSION} shuffle: {data!r}")
        seeds = data.get("player_seeds")
        if not isinstance(seeds, list) or len(seeds) != 2 or not all(isinstance(s, str) for s in seeds):
            raise ShuffleError(f"player seeds must be two strings, got {seeds!r}")
        shuffle = cls(game, data.get("server_seed"), (seeds[0], seeds[1]))  # type: ignore[arg-type]
        if data.get("commitment") != shuffle.commitment:
            raise ShuffleError("the commitment does not match the server seed")
        return shuffle
