"""Check a game's verifiable shuffle the way `cribbage-door verify` does,
from what a program saw by the game protocol (docs/protocol.md, "The
verifiable shuffle"; the algorithm is the one in docs/shuffle.md).

It needs only the standard library.  `examples/bot.py --verify` uses it:
the commitment a game was announced with (in `table`, before the cut),
the door's seed revealed in `game_over`, both players' seeds, and the
cards the program was dealt and saw turned as the starter.

    checker = ShuffleCheck(table_message["shuffle"])
    checker.dealt(hand_number, my_six_cards, i_deal)      # each "deal" event
    checker.starter(hand_number, starter_card)            # each "starter" event
    problems = checker.check(game_over_message["shuffle"])  # [] when it verifies
"""

from __future__ import annotations

import hashlib
import hmac


def deal(door_seed: str, game: int, hand: int, seed0: str, seed1: str) -> list[str]:
    """The 52 cards of shuffle `hand` (0 the cut for first deal, k hand k) of game number `game`."""
    key = bytes.fromhex(door_seed)

    def words():
        block = 0
        while True:
            message = f"cribbage-door/1/{game}/{hand}/{seed0}/{seed1}/{block}".encode()
            digest = hmac.new(key, message, hashlib.sha256).digest()
            yield from (int.from_bytes(digest[k:k + 4], "big") for k in range(0, 32, 4))
            block += 1

    deck = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]
    stream = words()
    for i in range(51, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        w = next(stream)
        while w >= limit:
            w = next(stream)
        j = w % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def game_number(door_seed: str) -> int:
    """The game number the door's seed fixes (1 to 999999)."""
    digest = hashlib.sha256(b"cribbage-door/1/number/" + bytes.fromhex(door_seed)).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 999999


class ShuffleCheck:
    """What one game's program saw, checked against its seeds once they are revealed."""

    def __init__(self, announced: dict) -> None:
        self.commitment = announced["commitment"]
        self.game = announced["game"]
        self.player_seeds = announced["player_seeds"]
        self.hands: dict[int, tuple[list[str], bool]] = {}
        self.starters: dict[int, str] = {}

    def dealt(self, hand: int, cards: list[str], dealer: bool) -> None:
        """The program was dealt `cards` (six) in hand `hand`, as the dealer or not."""
        self.hands[hand] = (sorted(cards), dealer)

    def starter(self, hand: int, card: str) -> None:
        """`card` was turned as the starter of hand `hand`."""
        self.starters[hand] = card

    def check(self, revealed: dict) -> list[str]:
        """What does not hold (an empty list: the game verifies)."""
        seed = revealed.get("seed")
        if seed is None:
            return [f"the door's seed is not revealed yet (sealed until {revealed.get('sealed_until')})"]
        problems = []
        if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != self.commitment:
            problems.append("the seed does not match the commitment shown before the cut")
        if game_number(seed) != self.game:
            problems.append(f"the seed gives game #{game_number(seed)}, not #{self.game}")
        if revealed["player_seeds"] != self.player_seeds:
            problems.append("the player seeds changed during the game")
        for hand, (cards, dealer) in sorted(self.hands.items()):
            deck = deal(seed, self.game, hand, *self.player_seeds)
            mine = sorted(deck[1:12:2] if dealer else deck[0:12:2])
            if mine != cards:
                problems.append(f"hand {hand}: dealt {cards}, the seeds deal {mine}")
            if hand in self.starters and deck[12] != self.starters[hand]:
                problems.append(f"hand {hand}: the starter was {self.starters[hand]}, the seeds turn {deck[12]}")
        return problems
