"""The computer's advice to a human (Cribbage Partner's recommendations):
the hint on ``?`` and the discard analysis after the hand.  A discard is
judged by the one estimate the game review uses too
(:func:`engine.game_review.judge_discard`, the expert's ranking), so the
hint, the analysis and the review of the same hand give the same number
and the same verdict.  Pure: a game and a seat in, sentences and cards out."""

from __future__ import annotations

from collections.abc import Sequence

from door.ui.speech import card_name, rank_name
from door.ui.words import card_text, cards_text
from engine.cards import Card
from engine.crib_values import load_table
from engine.expert import rank_discards
from engine.game import Game, Phase
from engine.game_review import judge_discard
from engine.hard import HardPlayer
from engine.pegging_review import left_on_the_table, review_hand
from engine.rules import Rules
from engine.scoring import rank_points_table
from engine.state import PlayedCard
from engine.strategy import situation

__all__ = ["discard_analysis", "hint", "hand_play", "pegging_note", "load_tables"]


def load_tables() -> None:
    """Build or read now the tables the advice reads on the event loop:
    the show's rank table (:func:`engine.scoring.rank_points_table`, built
    in 0.2-0.5 s) and the crib values (:func:`engine.crib_values.load_table`,
    about 0.08 s).  Left to their first use, they stopped every caller's
    screen for that long at the first discard after the door started
    (``bench.load``: the first hand's keys answered in up to 576 ms at 20
    callers).  The server calls it before it listens."""
    rank_points_table()
    load_table()


def discard_analysis(hand: Sequence[Card], thrown: tuple[Card, Card], dealer: bool, spoken: bool = False) -> str:
    """The one-line discard analysis shown after the hand (Cribbage
    Partner's recommendations, after the fact), in the review's numbers
    and verdicts: "You kept 4♦ 5♠ 6♦ J♣: 9.4 expected; best was 5♥ 5♠ 6♦
    J♣: 10.1." (a mistake), "..., a near-tie." (a cost within the noise).
    ``spoken``: for the line presentation, what it cost and the two cards
    to lay away rather than the four to keep, named in full: "Your discard
    cost 0.7: the best was two of clubs and king of hearts."
    """
    judged = judge_discard(0, hand, thrown, dealer)
    mine, best = judged.mine, judged.best
    if spoken:
        if judged.cost == 0.0:
            return f"Your discard was the best: {mine.value:.1f} expected."
        a, b = best.thrown
        tie = "a near-tie with laying away" if not judged.mistake else "the best was"
        return f"Your discard cost {judged.cost:.1f}: {tie} {card_name(a)} and {card_name(b)}."
    kept = cards_text(sorted(mine.kept))
    net = "" if dealer else " net of their crib"
    if judged.cost == 0.0:
        return f"You kept {kept}: {mine.value:.1f} expected{net}, the best discard."
    tie = "" if judged.mistake else ", a near-tie"  # (the review's verdict: within the estimate's noise)
    return (f"You kept {kept}: {mine.value:.1f} expected{net}; "
            f"best was {cards_text(sorted(best.kept))}: {best.value:.1f}{tie}.")


def hint(game: Game, me: int) -> tuple[list[Card], str]:
    """The computer's choice for seat ``me`` now (a discard: the expert's
    ranking, as the review judges it; a play: the hard computer's search)
    and a sentence saying what it is worth, in expected points."""
    if game.phase is Phase.DISCARD:
        best = rank_discards(game.hands[me], game.dealer == me)[0]
        crib = "your" if game.dealer == me else "their"
        return list(best.thrown), (f"Hint: lay away {cards_text(best.thrown)}: {best.value:.1f} expected points "
                                   f"(hand {best.hand:.1f}, {crib} crib {best.crib:+.1f}, "
                                   f"play {best.pegging:+.1f}).")
    seen = list(game.kept[me]) + [p.card for p in game.played[1 - me]]
    if game.starter is not None:
        seen.append(game.starter)
    ranked = HardPlayer().rank_plays(game.hands[me], game.series, seen, game.rules.run_mode, situation(game, me))
    return [ranked[0].card], (f"Hint: play {card_text(ranked[0].card)} "
                              f"(worth {ranked[0].value:+.1f} points after the reply).")


def hand_play(game: Game, hand: int) -> tuple[Sequence[Sequence[Card]], Sequence[Sequence[PlayedCard]]] | None:
    """Each seat's kept cards and cards played in ``hand``, when it is the
    current hand of ``game`` or the one before it (``None`` otherwise)."""
    if hand == game.hand_number:
        return game.kept, game.played
    if game.last_play is not None and game.last_play[0] == hand:
        return game.last_play[1], game.last_play[2]
    return None


def pegging_note(rules: Rules, hand: int, kept: Sequence[Sequence[Card]], played: Sequence[Sequence[PlayedCard]],
                 me: int, opponent: str, spoken: bool = False) -> str:
    """The play of ``hand`` (its cards as :func:`hand_play` gives them)
    looked back on with both hands known (exact,
    :mod:`engine.pegging_review`): the points each side left, and the
    player's costliest card: "Pegging, hand 3: you left 2 points (7♣ on
    8; 5♥ was best); Computer left none."  Empty when the hand had no
    play.  Pure, and about 1.5 ms of search: the door works it out where
    its computer thinks (:meth:`door.play.thinking.Thinking.run`)."""
    choices = review_hand(rules, hand, kept, played)
    if not choices:
        return ""
    left = left_on_the_table(choices, hand)
    mine, theirs = left[me], left[1 - me]

    def points(n: int) -> str:
        return "none" if n == 0 else f"{n} point{'s' if n != 1 else ''}"

    worst = max((c for c in choices if c.seat == me), key=lambda c: c.lost, default=None)
    if spoken:  # (by rank: the play scores by rank)
        said = f"Your pegging left {points(mine)}"
        if worst is not None and worst.lost > 0:
            said += f": {rank_name(worst.best)}, not {rank_name(worst.card)}, on {worst.count}"
        return said + f"; {opponent} left {points(theirs)}."
    line = f"Pegging, hand {hand} (both hands known): you left {points(mine)}"
    if worst is not None and worst.lost > 0:
        line += f" ({card_text(worst.card)} on {worst.count}; {card_text(worst.best)} was best)"
    return line + f"; {opponent} left {points(theirs)}."
