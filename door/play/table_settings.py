"""How a table plays, beyond the rules: what :class:`~door.play.table.Table`
takes as ``settings``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from door.play.deals import new_chain
from door.play.decision_clock import ClockTerms
from door.play.journal import Journal
from door.records.clock import WALL, Clock
from door.records.ranked.match import MatchTerms
from engine.objectives import Objective
from engine.shuffle import SeedChain, SeededShuffle

__all__ = ["SettingsReader", "TableSettings"]


def _no_number() -> int | SeededShuffle | None:
    return None


@dataclass(frozen=True)
class TableSettings:
    """A table's settings (all optional).

    ``numbers``: called for the number of each new game; ``None`` (the
    default) for the door to deal it by a verifiable shuffle
    (:class:`~engine.shuffle.SeededShuffle` of the next of ``seeds`` and the
    seats' ``shuffle_seed``, numbered by :func:`~engine.shuffle.game_number`);
    a number given (a numbered game, a test) deals that number's shuffle,
    and a :class:`~engine.shuffle.SeededShuffle` given (the daily deal's) is
    dealt with its seed kept secret until the day ``sealed_until`` is over.
    ``journal``: the table's route to the store, which keeps a registered
    caller's games and the matches between callers (``None``: a
    demonstration or a test, which leave no records).
    ``rejoin_timeout``: seconds a dropped player may take to come back
    (``None``: a drop ends the match).  ``chat_limit``: the longest chat
    line, in characters.  ``auto_deal``: no chat mode before the hands (the
    demonstration, where nobody chats).  ``hints``: whether players are
    given hints in a game between people (against the computer always).
    ``clock``: where the chat's and the absent player's times come from.
    ``terms``: a match of best of N games (:mod:`door.records.ranked.match`;
    ``None``: games until a player declines another).  ``rematch``: offer
    one when a match ends (not at a club night).  ``objective``: what a
    computer at the table plays for (:mod:`engine.objectives`; ``None``:
    :attr:`Table.objective <door.play.table.Table.objective>`'s rule).
    ``seeds``: the door's seeds for the games it deals by a verifiable
    shuffle, whose next commitment the players were shown before they
    could set their seeds (the caller's session's; by default a new chain).
    ``decision_clock``: the clock on each decision of a game between
    people (:mod:`door.play.decision_clock`; ``None``: none).
    ``forced_moves``: the table makes a person's forced moves at once (a
    sole playable card: :mod:`engine.forced`), so only real decisions
    wait (a correspondence game's).
    ``by_turns``: a game by correspondence: a player who leaves the table
    (or whose line drops) is away, not absent: no grace runs and nothing
    is forfeited; the table ends, its game kept as it stands, as soon as
    it waits only on players who are away
    (:class:`~door.play.away_seat.AwaySeat`).
    ``forfeit_after_grace``: a player who does not come back within the
    grace (``rejoin_timeout``) loses by forfeit, as in a rated match,
    though the table is not rated (a live tournament game).
    """

    numbers: Callable[[], int | SeededShuffle | None] = _no_number
    journal: Journal | None = None
    rejoin_timeout: float | None = None
    chat_limit: int = 70
    auto_deal: bool = False
    hints: bool = False
    clock: Clock = WALL
    terms: MatchTerms | None = None
    rematch: bool = True
    objective: Objective | None = None
    seeds: SeedChain = field(default_factory=new_chain)
    sealed_until: str | None = None
    decision_clock: ClockTerms | None = None
    forced_moves: bool = False
    by_turns: bool = False
    forfeit_after_grace: bool = False


class SettingsReader:
    """What a table reads of its :attr:`settings`, as its own attributes."""

    settings: TableSettings

    @property
    def journal(self) -> Journal | None:
        """The table's route to the store (its settings')."""
        return self.settings.journal

    @property
    def rejoin_timeout(self) -> float | None:
        """Seconds a dropped player may take to come back (``None``: a drop ends the match)."""
        return self.settings.rejoin_timeout

    @property
    def hints(self) -> bool:
        """Whether the players of a game between people are given hints."""
        return self.settings.hints

    @property
    def clock(self) -> Clock:
        """Where the table's times come from (seconds)."""
        return self.settings.clock

    @property
    def terms(self) -> MatchTerms | None:
        """The match's terms (best of N), or ``None``: games until one declines another."""
        return self.settings.terms

    @property
    def auto_deal(self) -> bool:
        """No chat mode before the hands."""
        return self.settings.auto_deal
