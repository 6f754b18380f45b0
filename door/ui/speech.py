"""What the door says aloud: the game in short plain sentences with full
card names, for a caller in screen-reader mode (issue 35), and the show
counted as players say it ("fifteen two, fifteen four, and a pair is six"),
in both presentations.

Every sentence here is plain ASCII words: no suit glyphs, no box drawing,
no abbreviations a speech synthesizer would spell out ("5H", "15s").
"""

from __future__ import annotations

import re
from typing import Sequence

from engine.cards import Card
from engine.claims import Verdict
from engine.events import (CardPlayed, CutForDeal, Discarded, Event, GameOver, GoDeclared, HandCounted, HandDealt,
                           HandReplayed, PlayPoint, SeriesReset, ShowTurn, Skunk, StarterTurned)
from engine.scoring import PlayKind, PlayScore, ShowKind, ShowScore

__all__ = ["short_digests", "speak_cards", "number_words", "card_name", "cards_names", "numbered_cards", "cadence", "spoken"]

_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_SUITS = ("clubs", "diamonds", "hearts", "spades")
_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """``0`` -> ``"zero"``, ``21`` -> ``"twenty-one"``, ``121`` -> ``"one
    hundred twenty-one"`` (0 <= n < 1000; larger numbers as digits)."""
    if n < 0 or n >= 1000:
        return str(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")


def card_name(card: Card) -> str:
    """``"five of hearts"``, ``"ten of diamonds"``, ``"jack of spades"``."""
    return f"{_RANKS[card.rank - 1]} of {_SUITS[card.suit]}"


def cards_names(cards: Sequence[Card]) -> str:
    """``"five of hearts, six of clubs and king of spades"``."""
    names = [card_name(c) for c in cards]
    if len(names) <= 1:
        return "".join(names) or "no cards"
    return ", ".join(names[:-1]) + " and " + names[-1]


def numbered_cards(cards: Sequence[Card | None]) -> str:
    """``"1, ace of spades; 2, five of hearts"``: the cards a caller
    chooses among by number (``None``: a card played, skipped, its number
    kept for the cards after it)."""
    return "; ".join(f"{i}, {card_name(c)}" for i, c in enumerate(cards, 1) if c is not None)


_GLYPH_SUITS = {"\u2663": "clubs", "\u2666": "diamonds", "\u2665": "hearts", "\u2660": "spades"}
_CARD_TEXT = re.compile("(10|[A2-9JQK])([\u2663\u2666\u2665\u2660])")
_RANK_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13}


def speak_cards(text: str) -> str:
    """``text`` with every card written the screen's way (``"5♥"``,
    ``"10♦"``) named in full (``"five of hearts"``): hints and notes
    made for the full screen, said in the line presentation."""
    def name(m: re.Match[str]) -> str:
        rank = _RANK_TEXT.get(m.group(1)) or int(m.group(1))
        return f"{_RANKS[rank - 1]} of {_GLYPH_SUITS[m.group(2)]}"

    return _CARD_TEXT.sub(name, text)


_DIGEST = re.compile(r"\b([0-9a-f]{8})[0-9a-f]{56}\b")


def short_digests(text: str) -> str:
    """``text`` with each 64-hex-digit seed or digest cut to its first 8
    digits and "and so on": 64 digits read out one by one help nobody
    (the whole of each is on the Recent games page)."""
    return _DIGEST.sub(r"\1 and so on", text)


_RUN_LENGTH = {3: "three", 4: "four", 5: "five"}
_RUNS_COUNT = {2: "two", 3: "three", 4: "four"}


def cadence(show: ShowScore) -> str:
    """The show counted aloud, as players count it: the fifteens ("fifteen
    two, fifteen four"), then each part with the running total ("a pair is
    six", "a run of three is nine", "a flush of four is thirteen", "nobs is
    fourteen"); ``"nothing"`` for a hand that scores nothing.  The last
    number said is always the hand's total (checked against the scorer for
    100,000 random hands and cribs: tests/unit/test_speech.py)."""
    total = 0
    parts: list[str] = []
    for item in show.items:
        if item.kind is ShowKind.FIFTEEN:
            total += item.points
            parts.append(f"fifteen {number_words(total)}")
    pairs: dict[int, int] = {}
    for item in show.items:
        if item.kind is ShowKind.PAIR:
            pairs[item.cards[0].rank] = pairs.get(item.cards[0].rank, 0) + item.points
    for i, points in enumerate(pairs.values()):
        total += points
        name = {2: "another pair" if i else "a pair", 6: "a pair royal", 12: "a double pair royal"}[points]
        parts.append(f"{name} is {number_words(total)}")
    runs = [item for item in show.items if item.kind is ShowKind.RUN]
    if runs:
        total += sum(item.points for item in runs)
        length = _RUN_LENGTH[len(runs[0].cards)]
        name = f"a run of {length}" if len(runs) == 1 else f"{_RUNS_COUNT[len(runs)]} runs of {length}"
        parts.append(f"{name} is {number_words(total)}")
    for item in show.items:
        if item.kind is ShowKind.FLUSH:
            total += item.points
            parts.append(f"a flush of {number_words(len(item.cards))} is {number_words(total)}")
        elif item.kind is ShowKind.NOBS:
            total += item.points
            parts.append(f"nobs is {number_words(total)}")
    if not parts:
        return "nothing"
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def _subject(who: str, verb: str) -> str:
    """``"You peg"`` / ``"Ann pegs"``."""
    return f"{who} {verb}" if who == "You" else f"{who} {verb}s"


def _play_score_words(score: PlayScore) -> str:
    """``"two for fifteen"``, ``"three for a run of three"``, ``"one for the go"``."""
    what = {PlayKind.FIFTEEN: "fifteen", PlayKind.THIRTY_ONE: "thirty-one", PlayKind.PAIR: "a pair",
            PlayKind.PAIR_ROYAL: "a pair royal", PlayKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
            PlayKind.GO: "the go", PlayKind.LAST_CARD: "last card"}.get(score.kind)
    if what is None:  # a run
        what = f"a run of {number_words(score.length)}"
    return f"{number_words(score.points)} for {what}"


def spoken(event: Event, me: int, names: Sequence[str]) -> list[str]:
    """``event`` in short sentences for seat ``me`` (``names``: both seats'
    names; ``names[me]`` is said as "You"): ``["You play the five of
    hearts. Count fifteen. You peg two for fifteen."]``.  At most four
    sentences-lines an event (the line mode's budget is ten lines)."""
    who = [("You" if s == me else names[s]) for s in (0, 1)]
    if isinstance(event, CutForDeal):
        a, b = event.cuts[-1]
        return [f"{who[0]} cut the {card_name(a)}, {who[1]} cut the {card_name(b)}. "
                f"{_subject(who[event.dealer], 'deal')} first."]
    if isinstance(event, HandReplayed):
        return [f"Hand {number_words(event.number)} is played again. The scores go back to "
                f"{event.scores[me]} for you and {event.scores[1 - me]} for {who[1 - me]}."]
    if isinstance(event, HandDealt):
        crib = "your" if event.dealer == me else f"{names[event.dealer]}'s"
        return [f"Hand {number_words(event.number)}. {_subject(who[event.dealer], 'deal')}; "
                f"two cards go to {crib} crib."]
    if isinstance(event, Discarded):
        return [] if event.seat == me else [f"{names[event.seat]} has laid away two cards."]
    if isinstance(event, StarterTurned):
        line = f"The starter is the {card_name(event.card)}."
        if event.heels:
            line += f" His heels: {who[event.dealer]} {'peg' if event.dealer == me else 'pegs'} two."
        return [line]
    if isinstance(event, CardPlayed):
        line = f"{_subject(who[event.seat], 'play')} the {card_name(event.card)}. Count {number_words(event.count)}."
        if event.scores:
            points = " and ".join(_play_score_words(s) for s in event.scores)
            line += f" {_subject(who[event.seat], 'peg')} {points}."
        return [line]
    if isinstance(event, GoDeclared):
        return [f"{_subject(who[event.seat], 'say')} go."]
    if isinstance(event, PlayPoint):
        return [f"{_subject(who[event.seat], 'peg')} {_play_score_words(event.score)}."]
    if isinstance(event, SeriesReset):
        return ["The count goes back to zero."]
    if isinstance(event, HandCounted):
        return _counted(event, me, who)
    if isinstance(event, GameOver):
        r = event.result
        line = f"{_subject(who[r.winner], 'win')}, {r.scores[r.winner]} to {r.scores[1 - r.winner]}."
        if r.skunk is Skunk.SKUNK:
            line += f" A skunk: it counts {number_words(r.value)} games."
        elif r.skunk is Skunk.DOUBLE:
            line += f" A double skunk: it counts {number_words(r.value)} games."
        return [line]
    return []


def _counted(event: HandCounted, me: int, who: list[str]) -> list[str]:
    show = event.show
    what = "crib" if event.what is ShowTurn.CRIB else "hand"
    owner = "Your" if event.seat == me else f"{who[event.seat]}'s"
    lines = [f"{owner} {what}: {cards_names(sorted(show.hand))}, with the starter {card_name(show.starter)}. "
             f"{cadence(show).capitalize()}."]
    out = event.outcome
    if event.claim is None:
        return lines  # counted by the door: the count said is what is pegged
    if out.verdict is Verdict.EXACT:
        lines.append(f"Right: you peg {number_words(out.claimer)}." if event.seat == me
                     else f"{who[event.seat]} claimed {number_words(event.claim)}: right.")
        return lines
    claimer, other = who[event.seat], who[1 - event.seat]
    if out.verdict is Verdict.UNDER:
        line = f"{claimer} claimed {number_words(event.claim)}, {number_words(show.total - event.claim)} short."
        if out.opponent:
            line += f" Muggins: {_subject(other, 'take')} {number_words(out.opponent)}."
    else:
        line = f"{claimer} claimed {number_words(event.claim)}, but it is worth {number_words(show.total)}."
        if out.claimer == 0:
            line += f" {_subject(claimer, 'peg')} nothing and {_subject(other, 'peg')} {number_words(out.opponent)}."
        else:
            line += f" {_subject(claimer, 'peg')} {number_words(out.claimer)}."
    lines.append(line)
    return lines
