"""A caller's options for games against the computer (Cribbage Partner's
options screen and F-keys; Black Dog Cribbage's options),
and the house rules a caller may change.

Options are remembered for registered callers as a JSON object in their
account; :meth:`CallerOptions.from_dict` ignores anything it does not know,
so an old or damaged entry never stops a caller from playing.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules import Counting, FirstDeal, Overclaim, Rules, RulesError, RunMode

__all__ = ["Pace", "Skill", "CallerOptions", "CHANGEABLE_RULES", "SEED_LIMIT"]

CHANGEABLE_RULES = ("game_to", "run_mode", "counting", "muggins", "overclaim", "first_deal")
"""House rules a sysop may let callers change for games against the computer."""


class Pace(enum.Enum):
    """How the game goes on after a score (as in Cribbage Partner): ``PROMPT`` waits for a
    key, ``PAUSE`` waits about a second after a pegging score and two after
    a hand, then goes on by itself."""

    PROMPT = "prompt"
    PAUSE = "pause"


class Skill(enum.Enum):
    """The computer's level of play: Cribbage Partner's Hard and Easy, and the
    expert (:mod:`engine.expert`, the default)."""

    EXPERT = "expert"
    HARD = "hard"
    EASY = "easy"


SEED_LIMIT = 64
"""The longest shuffle seed a caller may type, in characters."""


@dataclass
class CallerOptions:
    """``pace``, ``beep`` (BEL on scores, go and wrong keys), ``sort``
    (hold the hand in rank order, else as dealt), ``skill`` of the computer,
    ``box`` (show the rules in a corner of the game screen), ``reader``
    (screen-reader mode), and ``rules``:
    the caller's choices among :data:`CHANGEABLE_RULES` (values as in the
    configuration file)."""

    pace: Pace = Pace.PAUSE
    beep: bool = False
    sort: bool = True
    skill: Skill = Skill.EXPERT
    box: bool = True
    rules: dict[str, Any] = field(default_factory=dict)
    reader: bool = False
    """Screen-reader mode: the door in plain lines, remembered
    with the options of a registered caller."""
    watchers: bool = True
    """Whether other callers may watch this caller's games against people;
   remembered with the options."""
    shuffle_seed: str = ""
    """What the caller typed as their part of the shuffle (at
    most :data:`SEED_LIMIT` characters), or ``""`` for a seed drawn for each
    session."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, for the store."""
        return {"pace": self.pace.value, "beep": self.beep, "sort": self.sort, "skill": self.skill.value,
                "box": self.box, "rules": dict(self.rules), "reader": self.reader,
                "shuffle_seed": self.shuffle_seed, "watchers": self.watchers}

    @classmethod
    def from_dict(cls, data: dict[str, Any], defaults: CallerOptions | None = None) -> CallerOptions:
        """Options from :meth:`to_dict`'s form over ``defaults``; values that
        are missing or invalid keep the default."""
        out = dataclasses.replace(defaults or cls(), rules=dict((defaults or cls()).rules))
        try:
            out.pace = Pace(data.get("pace", out.pace.value))
        except ValueError:
            pass
        try:
            out.skill = Skill(data.get("skill", out.skill.value))
        except ValueError:
            pass
        for name in ("beep", "sort", "box", "reader", "watchers"):
            if isinstance(data.get(name), bool):
                setattr(out, name, data[name])
        seed = data.get("shuffle_seed")
        if isinstance(seed, str) and len(seed) <= SEED_LIMIT and seed.isprintable():
            out.shuffle_seed = seed
        rules = data.get("rules")
        if isinstance(rules, dict):
            out.rules.update({k: v for k, v in rules.items() if k in CHANGEABLE_RULES})
        return out

    def game_rules(self, house: Rules, may_change: Sequence[str]) -> Rules:
        """The rules of a game against the computer: the house rules with
        the caller's choices among ``may_change``.  A target other than the
        house's takes that target's standard skunk lines.  Choices that do
        not make valid rules are dropped."""
        changes = {k: v for k, v in self.rules.items() if k in may_change and k in CHANGEABLE_RULES}
        if changes.get("game_to", house.game_to) != house.game_to:
            changes.update(skunk_line=None, double_skunk_line=None)
        try:
            return dataclasses.replace(house, **changes)
        except (RulesError, TypeError):
            return house

    def toggle(self, name: str, house: Rules, skills: Sequence[str]) -> None:
        """Step the option ``name`` to its next value (the options screen's
        keys); ``skills``: the levels the sysop offers."""
        current = self.game_rules(house, CHANGEABLE_RULES)
        if name == "game_to":
            self.rules["game_to"] = 61 if current.game_to == 121 else 121
        elif name == "run_mode":
            self.rules["run_mode"] = _next(RunMode, current.run_mode).value
        elif name == "counting":
            self.rules["counting"] = _next(Counting, current.counting).value
        elif name == "muggins":
            self.rules["muggins"] = not current.muggins
        elif name == "overclaim":
            self.rules["overclaim"] = _next(Overclaim, current.overclaim).value
        elif name == "first_deal":
            self.rules["first_deal"] = _next(FirstDeal, current.first_deal).value
        elif name == "pace":
            self.pace = _next(Pace, self.pace)
        elif name == "skill":
            offered = [Skill(s) for s in skills] or [Skill.EXPERT]
            self.skill = offered[(offered.index(self.skill) + 1) % len(offered)] if self.skill in offered \
                else offered[0]
        elif name in ("beep", "sort", "box", "watchers"):
            setattr(self, name, not getattr(self, name))
        else:
            raise ValueError(f"no option {name!r}")


def _next(kind: type[enum.Enum], value: enum.Enum) -> Any:
    members = list(kind)
    return members[(members.index(value) + 1) % len(members)]
