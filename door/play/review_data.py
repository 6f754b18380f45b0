"""The game review as data, for a program (the card table draws it as a
table): each decision with the choice, the best and the expected points
lost, and the totals.  Pure: a :class:`~engine.game_review.GameReview`
in, JSON-ready values out (the game protocol's ``review`` message,
:mod:`door.play.api_messages`)."""

from __future__ import annotations

from typing import Any

from door.play.api_messages import card_list
from engine.game_review import GameReview

__all__ = ["review_decisions", "review_costs"]


def review_decisions(review: GameReview) -> list[dict[str, Any]]:
    """Every decision reviewed, hand by hand (a hand's discard, then its
    cards played, then its counts), as dicts:

    - ``{"hand", "kind": "discard", "crib": "yours"|"theirs", "choice": [2
      cards thrown], "best": [2 cards thrown], "value", "best_value", "lost",
      "mistake"}`` (values in expected net points of the hand);
    - ``{"hand", "kind": "play", "count", "choice": [the card], "best":
      [the card], "lost", "mistake"}`` (``lost``: expected points), with
      ``"computer": true`` when the computer played it, in a hand the
      player let it peg (its loss is not the player's);
    - ``{"hand", "kind": "count", "what": "hand"|"crib", "claimed", "held",
      "lost", "mistake"}`` (``lost``: points of the margin).

    ``lost`` is rounded to a tenth; ``mistake`` is whether it counts (a
    discard's or a card's loss above the noise, a count not exact)."""
    rows: list[tuple[int, int, dict[str, Any]]] = []
    for d in review.discards:
        rows.append((d.hand, 0, {"hand": d.hand, "kind": "discard", "crib": "yours" if d.dealer else "theirs",
                                 "choice": card_list(sorted(d.mine.thrown)), "best": card_list(sorted(d.best.thrown)),
                                 "value": round(d.mine.value, 1), "best_value": round(d.best.value, 1),
                                 "lost": round(d.cost, 1), "mistake": d.mistake}))
    for p in review.plays:
        rows.append((p.hand, 1, {"hand": p.hand, "kind": "play", "count": p.count, "choice": card_list([p.card]),
                                 "best": card_list([p.best]), "lost": round(p.cost, 1), "mistake": p.mistake,
                                 **({"computer": True} if p.computer else {})}))
    for c in review.counts:
        rows.append((c.hand, 2, {"hand": c.hand, "kind": "count", "what": c.what, "claimed": c.claimed,
                                 "held": c.true, "lost": c.cost, "mistake": bool(c.missed or c.over)}))
    return [row for _, _, row in sorted(rows, key=lambda r: (r[0], r[1]))]


def review_costs(review: GameReview) -> dict[str, float]:
    """``{"discards", "pegging", "counting"}``: the points the mistakes of
    each kind cost (expected points, a tenth; the counting's in points)."""
    return {"discards": round(review.discard_cost, 1), "pegging": round(review.pegging_cost, 1),
            "counting": review.counting_cost}
