"""A stored tournament's settings, as the sysop makes them: its format
(:class:`~door.records.ranked.tournament.Format`), the house rules of its
games, how its rounds are played (live, each round lasting so many hours
from when it is paired, its rounds no sooner than set times; or by
correspondence, so many days a move and so many days a round), when
entries close, and who may enter (a rating band, bots or not).

Every value is checked when made and a bad one raises
:class:`TournamentError` quoting it, so a mistake is an error where it
enters.  :meth:`Settings.to_json` and :meth:`Settings.from_json` keep
them in the store's ``tournaments.settings``.
"""

from __future__ import annotations

import enum
import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from door.records.ranked.tournament import Format, Kind
from engine.notation import NotationError, rules_from_dict, rules_to_dict
from engine.rules import Rules

__all__ = ["TournamentError", "Play", "Settings", "check_name", "check_title", "HOUR", "DAY"]

HOUR = 3600.0
DAY = 86400.0

_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class TournamentError(ValueError):
    """A tournament's command that cannot be carried out: a bad setting,
    an entry refused, a result that names no pairing.  The message says
    what and why."""


class Play(enum.Enum):
    """How a tournament's games are played."""

    LIVE = "live"
    """At the door, at set times: a round lasts ``round_hours`` from when it
    is paired, and a player not at the table ``show_minutes`` after it loses."""
    CORRESPONDENCE = "correspondence"
    """Over days: ``move_days`` a move, ``round_days`` a round."""


def check_name(name: str) -> str:
    """``name`` if it is a tournament's short name (1 to 40 lower-case
    letters, digits and dashes, starting with a letter or digit: its
    bulletins' file names); else :class:`TournamentError`."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise TournamentError(f"a tournament's name is 1 to 40 lower-case letters, digits and dashes "
                              f"(spring-open), got {name!r}")
    return name


def check_title(title: str) -> str:
    """``title`` if it is 1 to 60 printable characters; else :class:`TournamentError`."""
    if not isinstance(title, str) or not 1 <= len(title) <= 60 or not title.isprintable() or title != title.strip():
        raise TournamentError(f"a tournament's title is 1 to 60 printable characters, got {title!r}")
    return title


def _number(name: str, value: object, low: float, high: float, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) \
            or not low <= value <= high:
        raise TournamentError(f"{name} is {low:g} to {high:g} {unit}, got {value!r}")


@dataclass(frozen=True)
class Settings:
    """A tournament's settings.

    - ``format``: its :class:`~door.records.ranked.tournament.Format`.
    - ``rules``: the house rules of its games (:class:`engine.rules.Rules`).
    - ``play``: :class:`Play`.  Live: a round's deadline is ``round_hours``
      (0.25 to 168) after it is paired, and round *k* is paired no sooner
      than ``interval_hours`` (0 to 720; 0: at once) times *k - 1* after
      the first (the set times); a player not at their table
      ``show_minutes`` (1 to 240, at most the round) after the round is
      paired loses the game (or match) by forfeit.  Correspondence: ``move_days`` (1 to 14) a
      move, and a round's deadline ``round_days`` (1 to 60, at least
      ``move_days``) after it is paired.
    - ``closes``: when entries close and the director starts it (seconds
      since the epoch); ``None``: when the sysop starts it.
    - ``min_rating``, ``max_rating``: the band an entrant's rating must be
      in (``None``: no bound; 0 to 5000); an unrated caller counts 1500.
    - ``bots``: whether bots may enter.
    - ``rated``: whether its games are rated: played by correspondence,
      each pairing's game or match is rated in the pool of play by turns
      (the same fair-play rules as every rated match: one a pair does not
      meet is played unrated).

    Raises :class:`TournamentError` for any other value."""

    format: Format
    rules: Rules = field(default_factory=Rules)
    play: Play = Play.LIVE
    round_hours: float = 2.0
    interval_hours: float = 0.0
    move_days: float = 3.0
    round_days: float = 14.0
    closes: float | None = None
    min_rating: float | None = None
    max_rating: float | None = None
    bots: bool = False
    show_minutes: float = 15.0
    rated: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.format, Format):
            raise TournamentError(f"a tournament's format is a Format, got {self.format!r}")
        if not isinstance(self.rules, Rules):
            raise TournamentError(f"a tournament's rules are Rules, got {self.rules!r}")
        if not isinstance(self.play, Play):
            raise TournamentError(f"play is {' or '.join(p.value for p in Play)}, got {self.play!r}")
        _number("a live round", self.round_hours, 0.25, 168, "hours")
        _number("the time between live rounds", self.interval_hours, 0, 720, "hours")
        _number("the time to come to a live round's table", self.show_minutes, 1, 240, "minutes")
        if self.show_minutes * 60 > self.round_hours * HOUR:
            raise TournamentError(f"the time to come to a live round's table ({self.show_minutes:g} minutes) is at "
                                  f"most the round ({self.round_hours:g} hours)")
        _number("a correspondence move", self.move_days, 1, 14, "days")
        _number("a correspondence round", self.round_days, 1, 60, "days")
        if self.round_days < self.move_days:
            raise TournamentError(f"a correspondence round ({self.round_days:g} days) is at least a move "
                                  f"({self.move_days:g} days)")
        if self.closes is not None:
            _number("the time entries close", self.closes, 0, 1e11, "seconds since 1970")
        for name in ("min_rating", "max_rating"):
            if getattr(self, name) is not None:
                _number(name.replace("_", " "), getattr(self, name), 0, 5000, "points")
        if self.min_rating is not None and self.max_rating is not None and self.min_rating > self.max_rating:
            raise TournamentError(f"the rating band is empty: {self.min_rating:g} to {self.max_rating:g}")
        if not isinstance(self.bots, bool):
            raise TournamentError(f"bots is true or false, got {self.bots!r}")
        if not isinstance(self.rated, bool):
            raise TournamentError(f"rated is true or false, got {self.rated!r}")

    @property
    def round_seconds(self) -> float:
        """How long a round lasts from when it is paired to its deadline (seconds)."""
        return self.round_hours * HOUR if self.play is Play.LIVE else self.round_days * DAY

    @property
    def show_seconds(self) -> float | None:
        """How long after a live round is paired its players must be at
        their tables (seconds); ``None`` by correspondence."""
        return self.show_minutes * 60 if self.play is Play.LIVE else None

    def set_time(self, started: float, stage_round: int) -> float:
        """The earliest a live Swiss round ``stage_round`` (1, 2, ...) of a
        tournament started at ``started`` is paired (seconds since the
        epoch); a correspondence round: at once (``started``)."""
        if self.play is Play.CORRESPONDENCE:
            return started
        return started + (stage_round - 1) * self.interval_hours * HOUR

    def in_band(self, rating: float) -> bool:
        """Whether ``rating`` is in the band (its bounds included)."""
        return ((self.min_rating is None or rating >= self.min_rating)
                and (self.max_rating is None or rating <= self.max_rating))

    def describe(self) -> str:
        """The settings in one line of words."""
        f = self.format
        what = {Kind.SWISS: f"Swiss of {f.rounds} rounds",
                Kind.SINGLE: f"single elimination, best of {f.games}",
                Kind.DOUBLE: f"double elimination, best of {f.games}",
                Kind.QUALIFYING: f"qualifying Swiss of {f.rounds} rounds, then the top {f.qualify} in a "
                                 f"knock-out (best of {f.games}) and the rest in a consolation"}[f.kind]
        how = (f"live, {self.round_hours:g} hours a round, at the table within {self.show_minutes:g} minutes"
               if self.play is Play.LIVE else
               f"by correspondence, {self.move_days:g} days a move, {self.round_days:g} days a round")
        band = ("" if self.min_rating is None and self.max_rating is None else
                f", ratings {self.min_rating or 0:g} to {self.max_rating if self.max_rating is not None else 5000:g}")
        return (f"{what}; games to {self.rules.game_to}; {how}{band}; {'bots welcome' if self.bots else 'no bots'}"
                f"{'; rated' if self.rated else ''}")

    def to_json(self) -> str:
        """The settings as the store keeps them."""
        f = self.format
        return json.dumps({"kind": f.kind.value, "rounds": f.rounds, "games": f.games, "qualify": str(f.qualify),
                           "bye_spread": f.bye_spread, "rules": rules_to_dict(self.rules), "play": self.play.value,
                           "round_hours": self.round_hours, "interval_hours": self.interval_hours,
                           "move_days": self.move_days, "round_days": self.round_days, "closes": self.closes,
                           "min_rating": self.min_rating, "max_rating": self.max_rating, "bots": self.bots,
                           "show_minutes": self.show_minutes, "rated": self.rated},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """The settings :meth:`to_json` kept.  Raises :class:`TournamentError`."""
        try:
            d: dict[str, Any] = json.loads(text)
            fmt = Format(Kind(d["kind"]), d["rounds"], d["games"], Fraction(d["qualify"]), d["bye_spread"])
            return cls(fmt, rules_from_dict(d["rules"]), Play(d["play"]), d["round_hours"], d["interval_hours"],
                       d["move_days"], d["round_days"], d["closes"], d["min_rating"], d["max_rating"], d["bots"],
                       d.get("show_minutes", 15.0), d.get("rated", False))
        except (ValueError, KeyError, TypeError, NotationError) as exc:
            raise TournamentError(f"a tournament's stored settings cannot be read: {exc}") from None
