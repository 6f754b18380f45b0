"""Where a table's games come from: the number asked for, or the door's
part of a verifiable shuffle (fresh seeds), and what the players are told
of it before a game (the commitment) and after it (the seed itself)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from engine.game import Game
from engine.match import Match
from engine.shuffle import SeedChain, SeededShuffle, game_number

__all__ = ["Dealer", "new_seed", "new_chain", "going_on", "commitment_notice", "reveal_notice"]


def new_seed() -> str:
    """A fresh seed for a verifiable shuffle: 256 bits from
    :mod:`secrets`, as 64 hex digits."""
    return secrets.token_hex(32)


def new_chain() -> SeedChain:
    """The door's seeds for one call's games (:class:`~engine.shuffle.SeedChain`),
    from a top seed drawn from :mod:`secrets`."""
    return SeedChain(new_seed())


def commitment_notice(shuffle: SeededShuffle, mine: str, sealed_until: str | None = None) -> str:
    """What a player is told before the cut of a game with a verifiable
    shuffle: the commitment and their own seed (64 hex digits each);
    ``sealed_until``: the day after which the seed is shown (the daily
    deal's), rather than at the game's end."""
    when = f"once {sealed_until} is over" if sealed_until else "when the game ends"
    return (f"Shuffle: the door's seed commits to {shuffle.commitment} (SHA-256); "
            f"your seed is {mine}. The seed is shown {when}.")


def reveal_notice(shuffle: SeededShuffle) -> str:
    """What a player is told under the result of a game with a verifiable
    shuffle: the server seed, to check every deal against the commitment
    (77 columns: one line of the message area)."""
    return f"Door's seed: {shuffle.server_seed}"


def going_on(chain: SeedChain) -> SeedChain:
    """``chain``, or a new chain when it is used up (its
    :attr:`~engine.shuffle.SeedChain.next_commitment` would raise): the
    chain whose next commitment a player is told before their next game,
    and which deals it."""
    return chain if chain.left else new_chain()


class Dealer:
    """Deals a table's games: the number ``numbers`` gives for each (a
    :class:`~engine.shuffle.SeededShuffle` given, the daily deal's, is
    dealt with its seed secret until the day ``sealed_until`` is over), or
    when it gives ``None`` a verifiable shuffle of the next of ``seeds``
    and the players' seeds."""

    def __init__(self, numbers: Callable[[], int | SeededShuffle | None], seeds: SeedChain,
                 sealed_until: str | None = None) -> None:
        self.numbers = numbers
        self.seeds = seeds
        """The door's seeds (game *n* from the chain's next seed, its number
        from the seed); a new chain when a call uses one up."""
        self.sealed_until = sealed_until
        self.first_dealer: int | None = None
        """Who deals the first hand of the next game (a rematch's), else ``None``: the cut decides."""
        self._given: SeededShuffle | None = None

    def sealed(self, game: Game | None) -> str | None:
        """The day until whose end ``game``'s seed is kept secret (the
        daily deal's), else ``None``: the seed is shown at the game's end."""
        if self.sealed_until is None or game is None or game.shuffle is None or game.shuffle is not self._given:
            return None
        return self.sealed_until

    def next_game(self, match: Match, player_seeds: tuple[str, str], notice: Callable[[str], None]) -> Game:
        """The next game of ``match``, unstarted; ``player_seeds``: both
        seats' parts of a verifiable shuffle; ``notice``: tells both players
        the commitment of a new chain of seeds, begun when one is used up."""
        number = self.numbers()
        first, self.first_dealer = self.first_dealer, None
        if isinstance(number, SeededShuffle):
            self._given = number
            return match.new_game(number.game, number, first)
        if number is not None:
            return match.new_game(number, first_dealer=first)
        if self.seeds.left == 0:  # (a call of more games than a chain holds: a new one, said before its first game)
            self.seeds = new_chain()
            notice(f"New shuffle seeds: the door's next seed commits to {self.seeds.anchor}.")
        server_seed = self.seeds.take()
        number = game_number(server_seed)
        return match.new_game(number, SeededShuffle(number, server_seed, player_seeds), first)
