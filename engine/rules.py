"""The rules options of a game (DESIGN.md "Rules decisions"), validated once.

Every option that changes how a game is scored lives in :class:`Rules`; a game
keeps one for its whole length and a saved game records it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .scoring import RunMode

__all__ = ["Rules", "RulesError", "Counting", "Overclaim", "FirstDeal", "RunMode"]


class RulesError(ValueError):
    """An invalid combination or value of rules options."""


class Counting(enum.Enum):
    """How the show is counted: the players type their counts (``MANUAL``,
    the original door) or the door counts for them (``AUTOMATIC``, as in Cribbage Partner)."""

    MANUAL = "manual"
    AUTOMATIC = "automatic"


class Overclaim(enum.Enum):
    """What an over-claim in a manual count earns.

    ``FORFEIT`` (as in the original door): the claimer pegs nothing and the opponent pegs the
    true count.  ``CAPPED`` (Cribbage Partner, as in Cribbage Partner): the claimer pegs the
    true count.
    """

    FORFEIT = "forfeit"
    CAPPED = "capped"


class FirstDeal(enum.Enum):
    """Who deals the first hand of a match: by the cut (low card deals, equal
    ranks recut; standard rules), or always the caller (seat 0) or the sysop /
    computer (seat 1) (Black Dog Cribbage's First Deal option, as in Black Dog Cribbage)."""

    CUT = "cut"
    CALLER = "caller"
    SYSOP = "sysop"


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one game.

    - ``game_to``: the target in points, 121 (twice around) or 61.
    - ``run_mode``: runs during the play, :class:`RunMode` (as in the original door).
    - ``counting``: :class:`Counting`, manual by default (as in the original door).
    - ``muggins``: with manual counting, points a player misses go to the
      opponent (Cribbage Partner, as in Cribbage Partner; the original door always).
    - ``overclaim``: :class:`Overclaim`, forfeit by default (as in the original door).
    - ``skunk_line`` / ``double_skunk_line``: a loser whose score is below the
      line is skunked / double skunked.  ``None`` means the standard lines for
      ``game_to``: 91 and 61 for 121 (Black Dog Cribbage, as in Black Dog Cribbage), 31 and 16
      for 61.
    - ``win_value``, ``skunk_value``, ``double_skunk_value``: games credited to
      the winner (1, 2, 3: Black Dog Cribbage).
    - ``first_deal``: :class:`FirstDeal`.

    Raises :class:`RulesError` for a value outside these.
    """

    game_to: int = 121
    run_mode: RunMode = RunMode.UNORDERED
    counting: Counting = Counting.MANUAL
    muggins: bool = True
    overclaim: Overclaim = Overclaim.FORFEIT
    skunk_line: int | None = None
    double_skunk_line: int | None = None
    win_value: int = 1
    skunk_value: int = 2
    double_skunk_value: int = 3
    first_deal: FirstDeal = FirstDeal.CUT

    def __post_init__(self) -> None:
        if self.game_to not in (61, 121):
            raise RulesError(f"game_to must be 121 or 61, got {self.game_to!r}")
        for name, kind in (("run_mode", RunMode), ("counting", Counting),
                           ("overclaim", Overclaim), ("first_deal", FirstDeal)):
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, name, kind(value))
                except ValueError:
                    choices = ", ".join(repr(m.value) for m in kind)
                    raise RulesError(f"{name} must be one of {choices}, got {value!r}") from None
        if not isinstance(self.muggins, bool):
            raise RulesError(f"muggins must be true or false, got {self.muggins!r}")
        skunk = self.skunk_line if self.skunk_line is not None else (91 if self.game_to == 121 else 31)
        double = self.double_skunk_line if self.double_skunk_line is not None else (61 if self.game_to == 121 else 16)
        if not 0 <= double <= skunk <= self.game_to:
            raise RulesError(
                f"skunk lines must satisfy 0 <= double_skunk_line ({double}) <= skunk_line ({skunk}) "
                f"<= game_to ({self.game_to})")
        object.__setattr__(self, "skunk_line", skunk)
        object.__setattr__(self, "double_skunk_line", double)
        values = (self.win_value, self.skunk_value, self.double_skunk_value)
        if not all(isinstance(v, int) and v >= 1 for v in values) or list(values) != sorted(values):
            raise RulesError(f"game values must be whole numbers >= 1 in order win <= skunk <= double skunk, got {values!r}")

    @property
    def skunk(self) -> int:
        """The skunk line in points (a loser below it is skunked)."""
        assert self.skunk_line is not None
        return self.skunk_line

    @property
    def double_skunk(self) -> int:
        """The double skunk line in points."""
        assert self.double_skunk_line is not None
        return self.double_skunk_line
