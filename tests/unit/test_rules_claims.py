"""Rules validation and claim adjudication (DESIGN.md)."""

import pytest

from engine.claims import Verdict, adjudicate
from engine.rules import Counting, Overclaim, Rules, RulesError, RunMode


def test_defaults_follow_design() -> None:
    r = Rules()
    assert (r.game_to, r.run_mode, r.counting, r.muggins, r.overclaim) == (
        121, RunMode.UNORDERED, Counting.MANUAL, True, Overclaim.FORFEIT)
    assert (r.skunk, r.double_skunk) == (91, 61)
    assert (Rules(game_to=61).skunk, Rules(game_to=61).double_skunk) == (31, 16)


def test_values_from_config_strings() -> None:
    r = Rules(run_mode="ordered", counting="automatic", overclaim="capped", first_deal="caller")  # type: ignore[arg-type]
    assert r.run_mode is RunMode.ORDERED and r.overclaim is Overclaim.CAPPED


@pytest.mark.parametrize("kwargs,msg", [
    ({"game_to": 100}, "game_to must be 121 or 61"),
    ({"run_mode": "sideways"}, "run_mode must be one of"),
    ({"muggins": "yes"}, "muggins must be true or false"),
    ({"skunk_line": 50, "double_skunk_line": 60}, "skunk lines"),
    ({"win_value": 3, "skunk_value": 2}, "game values"),
])
def test_invalid_rules_say_why(kwargs, msg) -> None:
    with pytest.raises(RulesError, match=msg):
        Rules(**kwargs)


@pytest.mark.parametrize("actual,claim,rules,verdict,claimer,opponent", [
    (12, 12, Rules(), Verdict.EXACT, 12, 0),
    (12, 10, Rules(), Verdict.UNDER, 10, 2),             # muggins!
    (12, 10, Rules(muggins=False), Verdict.UNDER, 10, 0),
    (12, 14, Rules(), Verdict.OVER, 0, 12),              # the original door: forfeit
    (12, 14, Rules(overclaim=Overclaim.CAPPED), Verdict.OVER, 12, 0),
    (0, 0, Rules(), Verdict.EXACT, 0, 0),
    (0, 2, Rules(), Verdict.OVER, 0, 0),
])
def test_adjudication(actual, claim, rules, verdict, claimer, opponent) -> None:
    out = adjudicate(actual, claim, rules)
    assert (out.verdict, out.claimer, out.opponent) == (verdict, claimer, opponent)


def test_negative_counts_refused() -> None:
    with pytest.raises(ValueError):
        adjudicate(5, -1, Rules())
