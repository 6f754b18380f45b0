"""The game review in words: the totals, then hand by hand
the discard, each card played and each count, for any presentation (the
full screen pages it; screen-reader mode says it, cards named in full).
Pure: a :class:`~engine.game_review.GameReview` in, lines of at most 75
columns out."""

from __future__ import annotations

from door.ui.words import card_text, cards_text
from engine.game_review import CountReview, GameReview

__all__ = ["review_lines", "totals_line", "count_words"]


def count_words(count: CountReview, opponent: str) -> str:
    """A count that was not exact, as it was scored: ``"you claimed 11,
    it held 9: you pegged 0 and Computer 9, a cost of 18."``"""
    said = (f"you counted {count.claimed} of {count.true}" if count.missed
            else f"you claimed {count.claimed}, it held {count.true}")
    given = f" and {opponent} {count.given}" if count.given else ""
    return f"{said}: you pegged {count.pegged}{given}, a cost of {count.cost}."


def totals_line(review: GameReview) -> str:
    """``"Your discards cost 4.1 points, your pegging 2.3, your counting 2."``"""
    return (f"Your discards cost {review.discard_cost:.1f} points, your pegging {review.pegging_cost:.1f}, "
            f"your counting {review.counting_cost}.")


def review_lines(review: GameReview, number: int, opponent: str) -> list[str]:
    """The review of game ``number`` against ``opponent``, line by line."""
    lines = [f"Review of game #{number} against {opponent}", "", totals_line(review),
             "A loss counts only above the noise (one-sided 95 %); points are expected", "net points."]
    hands = sorted({d.hand for d in review.discards} | {p.hand for p in review.plays} | {c.hand for c in review.counts})
    for hand in hands:
        lines += ["", *_discard_lines(review, hand), *_play_lines(review, hand),
                  *(f"  Your {c.what}: {count_words(c, opponent)}" for c in review.counts
                    if c.hand == hand and (c.missed or c.over))]
    return lines


def _discard_lines(review: GameReview, hand: int) -> list[str]:
    """The discard of ``hand`` against the best (a hand played over, whose
    discard was reviewed the first time, is only named)."""
    lines = []
    for d in (d for d in review.discards if d.hand == hand):
        crib = "your crib" if d.dealer else "their crib"
        m, b = d.mine, d.best
        lines.append(f"Hand {hand} ({crib}): kept {cards_text(sorted(m.kept))}: {m.value:.1f} points")
        lines.append(f"  (hand {m.hand:.1f}, crib {m.crib:+.1f}, play {m.pegging:+.1f})")
        if d.cost == 0.0:
            lines.append("  The best discard.")
        else:
            verdict = "a mistake" if d.mistake else "a near-tie, not a mistake"
            lines.append(f"  Best: {cards_text(sorted(b.kept))}: {b.value:.1f}; cost {d.cost:.1f} ({verdict}).")
    return lines or [f"Hand {hand}:"]


def _play_lines(review: GameReview, hand: int) -> list[str]:
    """The cards of ``hand`` played that were mistakes, or that none was."""
    plays = [p for p in review.plays if p.hand == hand and not p.computer]
    computer = [p for p in review.plays if p.hand == hand and p.computer]
    lines = [f"  {card_text(p.card)} on {p.count}: cost {p.cost:.1f} (\u00b1{p.se:.1f}); {card_text(p.best)} was best."
             for p in plays if p.mistake]
    if computer:
        lines.append(f"  The computer pegged this hand for you: {cards_text([p.card for p in computer])}"
                     " played by it, not counted against you.")
    if plays and not lines:
        lines.append(f"  Your {len(plays)} cards played: no mistake.")
    return lines
