"""Saved forms of actions and rules round-trip exactly; bad text is refused."""

import pytest

from engine.actions import Claim, Discard, Play, ReplayHand
from engine.cards import Card
from engine.notation import NotationError, action_from_text, action_to_text, rules_from_dict, rules_to_dict
from engine.rules import Counting, FirstDeal, Overclaim, Rules, RunMode


@pytest.mark.parametrize("action,text", [
    (Discard(0, (Card.from_str("5H"), Card.from_str("JD"))), "D0 5H JD"),
    (Play(1, Card.from_str("TC")), "P1 TC"),
    (Claim(0, 29), "C0 29"),
    (ReplayHand(1), "R1"),
])
def test_actions_round_trip(action, text) -> None:
    assert action_to_text(action) == text
    assert action_from_text(text) == action


@pytest.mark.parametrize("text", ["", "X0 5H", "P2 5H", "P0 ZZ", "D0 5H", "C0 many", "R", "Pz 5H"])
def test_bad_actions(text: str) -> None:
    with pytest.raises(NotationError) as err:
        action_from_text(text)
    assert repr(text) in str(err.value)


def test_rules_round_trip() -> None:
    rules = Rules(game_to=61, run_mode=RunMode.ORDERED, counting=Counting.AUTOMATIC, muggins=False,
                  overclaim=Overclaim.CAPPED, first_deal=FirstDeal.CALLER)
    data = rules_to_dict(rules)
    assert data["run_mode"] == "ordered" and data["skunk_line"] == 31
    assert rules_from_dict(data) == rules
    with pytest.raises(NotationError):
        rules_from_dict({**data, "wild_cards": True})
    with pytest.raises(NotationError):
        rules_from_dict({**data, "game_to": 99})
