"""Who a program by the game protocol is, once logged in: one value the
protocol's flows pass, rather than a positional tuple."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from door.play.api_seat import ApiSeat
from door.play.deals import new_chain, new_seed
from door.records.accounts import Account
from door.records.identity import Identity
from door.sysop.presence import account_identity
from engine.shuffle import SeedChain, player_seed

__all__ = ["Program"]


@dataclass
class Program:
    """A program logged in by the game protocol: its ``name``, its
    ``account`` (a bot's or a registered caller's; ``None`` for a guest)
    and whether it is a ``bot``; and its side of the verifiable shuffle
    over the connection: the door's ``seeds`` (one
    :class:`~engine.shuffle.SeedChain` for every game of the connection,
    whose next commitment the program is told before it may set its own
    seed) and its ``seed`` (64 hex digits: drawn for the connection, or
    set by the program's ``seed`` message)."""

    name: str
    account: Account | None = None
    bot: bool = False
    seeds: SeedChain = field(default_factory=new_chain)
    seed: str = field(default_factory=new_seed)
    resume: str | None = None
    """A guest's resume token: their game against the computer is kept
    under it while the line is down (:mod:`door.play.parked`)."""

    @property
    def identity(self) -> Identity | None:
        """The account's identity, or ``None`` for a guest."""
        return account_identity(self.account.id) if self.account is not None else None

    def seat(self, send: Callable[[dict[str, Any]], None], name: str | None = None) -> ApiSeat:
        """A new seat for this program, sending by ``send``, with its seed
        (under ``name``, default the program's)."""
        return ApiSeat(self.name if name is None else name, send, self.seed, self.identity)

    def set_seed(self, text: str) -> str:
        """The program's own seed from ``text`` (64 hex digits as given,
        anything else by SHA-256, as a caller's typed seed:
        :func:`~engine.shuffle.player_seed`); returns it."""
        self.seed = player_seed(text)
        return self.seed
