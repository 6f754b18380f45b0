"""The game review as data (door.play.review_data): each decision in the
order of the hands, a discard's cards thrown (not the four kept), the
best, the points lost, and the costs of each kind."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from door.play.api_messages import SERVER_SCHEMAS
from door.play.review_data import review_costs, review_decisions
from engine.cards import Card, parse_cards
from engine.game_review import CountReview, GameReview, PlayReview, judge_discard


def test_each_decision_in_hand_order_with_the_cards_thrown() -> None:
    held = parse_cards("5H 5S JD 2C 9C KS")
    review = GameReview(seat=0)
    review.counts.append(CountReview(1, "crib", 0, 6, 0, 6))  # (added out of order: the rows come by hand)
    review.discards.append(judge_discard(2, held, (held[3], held[4]), dealer=True))  # 2C 9C thrown
    review.discards.append(judge_discard(1, held, (held[0], held[1]), dealer=False))  # the two fives thrown
    review.plays.append(PlayReview(1, Card.from_str("JD"), 5, Card.from_str("KS"), 0.8, 0.1))
    rows = review_decisions(review)
    assert [(r["hand"], r["kind"]) for r in rows] == [(1, "discard"), (1, "play"), (1, "count"), (2, "discard")]
    first = rows[0]
    assert first["choice"] == ["5H", "5S"] and first["crib"] == "theirs"  # the two thrown, not the four kept
    assert len(first["best"]) == 2 and set(first["best"]) <= {str(c) for c in held}
    assert first["lost"] == round(review.discards[1].cost, 1) and first["mistake"] == review.discards[1].mistake
    assert rows[1] == {"hand": 1, "kind": "play", "count": 5, "choice": ["JD"], "best": ["KS"], "lost": 0.8,
                       "mistake": True}
    assert rows[2] == {"hand": 1, "kind": "count", "what": "crib", "claimed": 0, "held": 6, "lost": 12,
                       "mistake": True}
    assert rows[3]["crib"] == "yours" and rows[3]["choice"] == ["2C", "9C"]
    costs = review_costs(review)
    assert costs["counting"] == 12 and costs["pegging"] == 0.8
    message = {"type": "review", "game": 1, "lines": [], "decisions": rows, "costs": costs}
    Draft202012Validator(SERVER_SCHEMAS["review"]).validate(message)
